/* test-mac.c - the one MAC address parser and formatter (joind-mac.h):
 * both separators and cases in, lower case with colons out, and every
 * malformed text refused. */
#include <glib.h>

#include "joind-mac.h"

static void
test_parse(void)
{
	static const guint8 want[JOIND_MAC_LEN] = {0x02, 0x00, 0x5e, 0x10, 0xab, 0xCD};
	guint8 mac[JOIND_MAC_LEN];

	g_assert_true(joind_mac_parse("02:00:5e:10:ab:cd", mac));
	g_assert_cmpmem(mac, sizeof(mac), want, sizeof(want));
	g_assert_true(joind_mac_parse("02-00-5E-10-AB-CD", mac));
	g_assert_cmpmem(mac, sizeof(mac), want, sizeof(want));
}

static void
test_parse_malformed(void)
{
	static const gchar *const bad[] = {
	        NULL,
	        "",
	        "02:00:5e:10:ab",
	        "02:00:5e:10:ab:cd:",
	        "02:00:5e:10:ab:c",
	        "02:00:5e:10:ab:cdd",
	        "02.00.5e.10.ab.cd",
	        "02:00:5e:10:ab:cg",
	        "2:00:5e:10:ab:cd:0",
	        "0x:00:5e:10:ab:cd",
	        " 02:00:5e:10:ab:c",
	};
	guint8 mac[JOIND_MAC_LEN];

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++)
		g_assert_false(joind_mac_parse(bad[i], mac));
}

static void
test_to_string(void)
{
	static const guint8 mac[JOIND_MAC_LEN] = {0xfe, 0xdc, 0x0b, 0xa9, 0x00, 0x01};
	gchar text[JOIND_MAC_STRING_LEN];
	guint8 back[JOIND_MAC_LEN];

	g_assert_true(joind_mac_to_string(mac, text) == text);
	g_assert_cmpstr(text, ==, "fe:dc:0b:a9:00:01");
	g_assert_true(joind_mac_parse(text, back));
	g_assert_cmpmem(back, sizeof(back), mac, sizeof(mac));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/mac/parse", test_parse);
	g_test_add_func("/mac/parse-malformed", test_parse_malformed);
	g_test_add_func("/mac/to-string", test_to_string);
	return g_test_run();
}
