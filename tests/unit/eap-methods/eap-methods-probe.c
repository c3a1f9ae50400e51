/* eap-methods-probe.c - adds EAP-MSCHAPv2, EAP-GTC and EAP-pwd to the EAP
 * room's manual wire probe (tests/unit/eap/eap-wire-probe.c, which
 * registers MD5 and TLS in its main()), so the password methods, PEAP and TTLS can be run
 * against hostapd before the wired plugin exists:
 *
 *   eap-methods-wire-probe IFNAME PROFILE [MTU]
 *
 * Not a test: it needs root, a veth pair and hostapd. */
#include "eap-gtc.h"
#include "eap-mschapv2.h"
#include "eap-peap.h"
#include "eap-pwd.h"
#include "eap-ttls.h"

static void eap_methods_probe_register(void) __attribute__((constructor));

static void
eap_methods_probe_register(void)
{
	joind_eap_register_method(&eap_mschapv2_ops, NULL);
	joind_eap_register_method(&eap_gtc_ops, NULL);
	joind_eap_register_method(&eap_pwd_ops, NULL);
	joind_eap_register_method(&eap_peap_ops, NULL);
	joind_eap_register_method(&eap_ttls_ops, NULL);
}
