/* fuzz-owe.c - OWE's elements: the Diffie-Hellman Parameter element (its
 * body, and in a response's element list through the key derivation, with
 * the point checks) and the OWE Transition Mode element's body. The first
 * octet picks the group (19, 20, 21), the rest is the input. */
#include <stddef.h>
#include <stdint.h>

#include "ie.h"
#include "owe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One key pair per group for the whole run: making one costs more than a
 * derivation. */
static WifiOwe *
fuzz_owe(guint group)
{
	static WifiOwe *owes[3];
	static const guint8 priv[] = {0x42, 0x17, 0x99, 0x05};

	if (owes[group - 19] == NULL)
		owes[group - 19] = wifi_owe_new_with_private(group, priv, sizeof(priv), NULL);
	g_assert_nonnull(owes[group - 19]);
	return owes[group - 19];
}

static void
fuzz_derive(guint group, const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	guint8 pmk[WIFI_OWE_PMK_MAX], pmkid[WIFI_OWE_PMKID_LEN];
	gsize pmk_len = 0;

	if (wifi_owe_derive(fuzz_owe(group), data, size, pmk, &pmk_len, pmkid, &error))
		g_assert_cmpuint(pmk_len, ==, group == 19 ? 32 : group == 20 ? 48 : 64);
	else
		g_assert_nonnull(error);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) dh_error = NULL;
	g_autoptr(GError) transition_error = NULL;
	const guint8 *key = NULL;
	gsize key_len = 0;
	guint group = 0;
	WifiIes ies = {0};

	if (size < 1)
		return 0;
	if (wifi_owe_dh_parse(data + 1, size - 1, &group, &key, &key_len, &dh_error))
		g_assert_true(key + key_len == data + size);
	else
		g_assert_nonnull(dh_error);
	if (wifi_ie_parse_owe_transition(data + 1, size - 1, &ies, &transition_error))
		g_assert_cmpuint(ies.owe_ssid_len, <=, 32);
	else
		g_assert_nonnull(transition_error);
	fuzz_derive(19 + data[0] % 3, data + 1, size - 1);
	return 0;
}
