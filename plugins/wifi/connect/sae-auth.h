/* sae-auth.h - SAE over joind's SME: the connector's AUTHENTICATING step
 * for an SAE attempt. Each commit and confirm goes to the kernel in a
 * CMD_AUTHENTICATE with NL80211_AUTHTYPE_SAE and the frame in
 * NL80211_ATTR_SAE_DATA; the access point's come back in AUTHENTICATE
 * events (the whole frame). The exchange itself is sae.c's; its PMK, once
 * accepted, keys the 4-way handshake. */
#pragma once

#include "bss.h"
#include "iface.h"
#include "sae-pt.h"

G_BEGIN_DECLS

typedef struct _WifiSaeAuth WifiSaeAuth;

/* error NULL: accepted, the PMK is ready. Otherwise as the 4-way
 * handshake's: WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE when a confirm did not
 * match (the password is wrong), WIFI_HANDSHAKE_ERROR_NO_MSG3 when ours was
 * never confirmed (maybe the password), JOIND_ERROR_NOT_FOUND when the
 * kernel no longer knows the BSS (a scan puts it back), else a JOIND_ERROR. Called last:
 * the callee may free the object. */
typedef void (*WifiSaeAuthDone)(const GError *error, gpointer user_data);

/* h2e: the password element from the PT (the access point advertises
 * hash-to-element), else hunting and pecking. pts (NULL: none) holds the
 * network's PTs, read and filled; passphrase and pts outlive the object. */
WifiSaeAuth *wifi_sae_auth_new(WifiIface *iface, const WifiBss *bss, const guint8 spa[6],
                               const gchar *passphrase, gboolean h2e, WifiSaePtCache *pts,
                               WifiSaeAuthDone done, gpointer user_data);
void wifi_sae_auth_free(WifiSaeAuth *auth);
/* Again after a failure: a fresh exchange. */
void wifi_sae_auth_start(WifiSaeAuth *auth);
/* An AUTHENTICATE event of the interface. */
void wifi_sae_auth_handle_event(WifiSaeAuth *auth, struct nlattr **attrs);
/* Once accepted: WIFI_SAE_PMK_LEN octets. */
const guint8 *wifi_sae_auth_get_pmk(const WifiSaeAuth *auth);
/* Once accepted: WIFI_SAE_PMKID_LEN octets. */
const guint8 *wifi_sae_auth_get_pmkid(const WifiSaeAuth *auth);
guint wifi_sae_auth_get_group(const WifiSaeAuth *auth);

G_END_DECLS
