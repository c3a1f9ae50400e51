/* fuzz-bss.c - one GET_SCAN dump entry: the payload of NL80211_ATTR_BSS
 * (the nested NL80211_BSS_* attributes, the elements among them).
 *
 * The input is the nest's payload; the target wraps it in the
 * NL80211_ATTR_BSS header the kernel puts around it, in a buffer of its
 * exact size so that a read past the nest hits ASan's redzone. An entry
 * is accepted or refused with a reason; an accepted one must hold what the
 * station relies on (its elements as received, a nameable security type). */
#include <linux/nl80211.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bss.h"

#include "joind-mac.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libnl is not instrumented, so ASan cannot see its nla_get_*() read
 * past a short attribute: an accepted entry must have had every attribute
 * it took a value from at its full size. */
static void
check_sizes(struct nlattr *nest)
{
	static const struct {
		int type;
		int len;
	} sizes[] = {
	        {NL80211_BSS_BSSID, 6},       {NL80211_BSS_FREQUENCY, 4},
	        {NL80211_BSS_SIGNAL_MBM, 4},  {NL80211_BSS_SIGNAL_UNSPEC, 1},
	        {NL80211_BSS_CAPABILITY, 2},  {NL80211_BSS_LAST_SEEN_BOOTTIME, 8},
	        {NL80211_BSS_SEEN_MS_AGO, 4},
	};
	struct nlattr *tb[NL80211_BSS_MAX + 1];

	if (nla_parse_nested(tb, NL80211_BSS_MAX, nest, NULL) < 0)
		abort();
	for (gsize i = 0; i < G_N_ELEMENTS(sizes); i++)
		if (tb[sizes[i].type] != NULL && nla_len(tb[sizes[i].type]) < sizes[i].len)
			abort();
}

static void
check_entry(struct nlattr *nest)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(WifiBss) bss = wifi_bss_new_from_nl(nest, &error);
	gchar addr[JOIND_MAC_STRING_LEN];

	if (bss == NULL) {
		if (error == NULL || error->message[0] == '\0')
			abort();
		return;
	}
	check_sizes(nest);
	if (error != NULL || bss->refcount != 1 || bss->ie_data == NULL ||
	    bss->ies.ssid_len > sizeof(bss->ies.ssid))
		abort();
	/* SAE networks are psk networks (iwd's Type). */
	if (bss->type != JOIND_NETWORK_TYPE_OPEN && bss->type != JOIND_NETWORK_TYPE_WEP &&
	    bss->type != JOIND_NETWORK_TYPE_PSK && bss->type != JOIND_NETWORK_TYPE_8021X &&
	    bss->type != JOIND_NETWORK_TYPE_OWE)
		abort();
	if (strlen(joind_mac_to_string(bss->bssid, addr)) != 17)
		abort();
	(void)wifi_bss_is_hidden(bss);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree guint8 *buf = NULL;
	struct nlattr *nest;

	if (size > UINT16_MAX - NLA_HDRLEN)
		return 0;
	buf = g_malloc(NLA_HDRLEN + size);
	nest = (struct nlattr *)buf;
	nest->nla_len = (guint16)(NLA_HDRLEN + size);
	nest->nla_type = NLA_F_NESTED | NL80211_ATTR_BSS;
	memcpy(buf + NLA_HDRLEN, data, size);
	check_entry(nest);
	return 0;
}
