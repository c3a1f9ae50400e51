/* test-ssid-display.c - joind_ssid_to_display(), the one spelling of an SSID
 * for people: what it escapes (C0 and C1 controls, DEL, backslash, bidi
 * controls, octets that are not UTF-8) and how, that the result is printable
 * UTF-8 from which the octets can be read back, and that Network1.Name and
 * KnownNetwork1.Name of one SSID are that same text on the bus. */
#include <string.h>

#include "joind-core-private.h"
#include "joind-station.h"
#include "test-bus.h"

typedef struct {
	const gchar *what;
	const gchar *ssid;
	gsize len;
	const gchar *display;
} Case;

#define CASE(what, ssid, display)                     \
	{                                             \
		what, ssid, sizeof(ssid) - 1, display \
	}

static const Case cases[] = {
        CASE("plain ASCII", "Home Net 5G", "Home Net 5G"),
        CASE("empty", "", ""),
        CASE("UTF-8 é", "caf\xc3\xa9", "caf\xc3\xa9"),
        CASE("emoji", "\xe2\x98\x95 \xf0\x9f\x98\x80", "\xe2\x98\x95 \xf0\x9f\x98\x80"),
        CASE("emoji joined by ZWJ", "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb",
             "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb"),
        CASE("tab, newline, escape", "a\tb\nc\x1b[1m", "a\\x09b\\x0ac\\x1b[1m"),
        CASE("embedded NUL", "a\0b", "a\\x00b"),
        CASE("DEL", "a\x7f", "a\\x7f"),
        CASE("backslash", "a\\b", "a\\\\b"),
        CASE("text that looks like an escape", "\\x41", "\\\\x41"),
        CASE("NEL, a C1 control", "a\xc2\x85z", "a\\u0085z"),
        CASE("Latin-1 é (not UTF-8)", "caf\xe9", "caf\\xe9"),
        CASE("lone continuation octet", "\x80", "\\x80"),
        CASE("0xff", "\xff\xfe", "\\xff\\xfe"),
        CASE("truncated sequence at the end", "ab\xe2\x80", "ab\\xe2\\x80"),
        CASE("truncated sequence before ASCII",
             "\xc3"
             "A",
             "\\xc3A"),
        CASE("overlong slash", "\xc0\xaf", "\\xc0\\xaf"),
        CASE("UTF-16 surrogate", "\xed\xa0\x80", "\\xed\\xa0\\x80"),
        CASE("beyond U+10FFFF", "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"),
        CASE("narrow no-break space is kept",
             "a\xe2\x80\xaf"
             "b",
             "a\xe2\x80\xaf"
             "b"),
        CASE("32 octets", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"),
};

static void
test_cases(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *d =
		        joind_ssid_to_display((const guint8 *)cases[i].ssid, cases[i].len);

		g_test_message("%s", cases[i].what);
		g_assert_cmpstr(d, ==, cases[i].display);
	}
}

/* Every C0 control octet and DEL is \xNN; every C1 control (two octets in
 * UTF-8) is one \u00NN. */
static void
test_controls(void)
{
	for (guint c = 0; c <= 0x9f; c++) {
		guint8 ssid[3] = {'a', (guint8)c, 0};
		gsize len = 2;
		g_autofree gchar *d = NULL;
		g_autofree gchar *want = NULL;

		if (c >= 0x20 && c < 0x7f)
			continue;
		if (c >= 0x80) {
			ssid[1] = 0xc2;
			ssid[2] = (guint8)c;
			len = 3;
			want = g_strdup_printf("a\\u%04x", c);
		} else {
			want = g_strdup_printf("a\\x%02x", c);
		}
		d = joind_ssid_to_display(ssid, len);
		g_assert_cmpstr(d, ==, want);
	}
}

/* The Bidi_Control characters, as code points: the tests build their
 * UTF-8 at run time, since a literal holding them is misleading text. */
static const gunichar bidi[] = {0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c,
                                0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069};

static void
test_bidi(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(bidi); i++) {
		gchar ssid[8] = "x";
		gint n = g_unichar_to_utf8(bidi[i], ssid + 1);
		g_autofree gchar *d = joind_ssid_to_display((const guint8 *)ssid, (gsize)n + 1);
		g_autofree gchar *want = g_strdup_printf("x\\u%04x", bidi[i]);

		g_assert_cmpstr(d, ==, want);
	}
}

/* The longest SSID, every octet escaped: 32 times the same escape. */
static void
test_longest(void)
{
	guint8 ssid[32];
	g_autofree gchar *d = NULL;
	g_autoptr(GString) want = g_string_new(NULL);

	memset(ssid, 0xff, sizeof(ssid));
	d = joind_ssid_to_display(ssid, sizeof(ssid));
	for (guint i = 0; i < sizeof(ssid); i++)
		g_string_append(want, "\\xff");
	g_assert_cmpstr(d, ==, want->str);
}

/* The value of the n hex digits at p. */
static guint
hex_at(const gchar *p, guint n)
{
	guint v = 0;

	for (guint i = 0; i < n; i++) {
		g_assert_true(g_ascii_isxdigit(p[i]));
		v = v * 16 + (guint)g_ascii_xdigit_value(p[i]);
	}
	return v;
}

/* Reads the octets back from a display name: the escapes are the only
 * backslashes, so this must give the SSID exactly. */
static GByteArray *
undisplay(const gchar *d)
{
	GByteArray *out = g_byte_array_new();

	while (*d != '\0') {
		guint8 b = (guint8)*d;
		gchar buf[6];

		if (*d != '\\') {
			d++;
		} else if (d[1] == '\\') {
			d += 2;
		} else if (d[1] == 'x') {
			b = (guint8)hex_at(d + 2, 2);
			d += 4;
		} else {
			g_assert_true(d[1] == 'u');
			g_byte_array_append(out, (const guint8 *)buf,
			                    (guint)g_unichar_to_utf8(hex_at(d + 2, 4), buf));
			d += 6;
			continue;
		}
		g_byte_array_append(out, &b, 1);
	}
	return out;
}

static gboolean
is_unsafe(gunichar c)
{
	return g_unichar_iscntrl(c) || c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

/* Random SSIDs, biased towards the octets that matter (controls,
 * backslash, UTF-8 lead and continuation octets, bidi sequences): the name
 * is UTF-8 without controls or bidi controls, and names exactly that SSID. */
static void
test_round_trip(void)
{
	static const gchar *const pieces[] = {
	        "\x00", "\x1b", "\x7f", "\\",   "x",    "u",    "\xc2",     "\x85",
	        "\xe2", "\x80", "\xae", "\xff", "\xc3", "\xa9", "\xc2\x9b", "\xf0\x9f\x98\x80",
	        "A"};

	for (guint round = 0; round < 2000; round++) {
		guint8 ssid[32];
		gsize len = 0;
		gsize want = (gsize)g_test_rand_int_range(0, 33);
		g_autofree gchar *d = NULL;
		g_autoptr(GByteArray) back = NULL;

		while (len < want) {
			gchar piece[6] = {0};
			gint pick = g_test_rand_int_range(0, G_N_ELEMENTS(pieces) + 2);
			gsize n;

			if (pick < (gint)G_N_ELEMENTS(pieces))
				g_strlcpy(piece, pieces[pick], sizeof(piece));
			else
				g_unichar_to_utf8(
				        bidi[g_test_rand_int_range(0, G_N_ELEMENTS(bidi))], piece);
			n = MIN(MAX(strlen(piece), 1), want - len);
			memcpy(ssid + len, piece, n);
			len += n;
		}
		d = joind_ssid_to_display(ssid, len);
		g_assert_true(g_utf8_validate(d, -1, NULL));
		for (const gchar *p = d; *p != '\0'; p = g_utf8_next_char(p))
			g_assert_false(is_unsafe(g_utf8_get_char(p)));
		back = undisplay(d);
		g_assert_cmpmem(back->data, back->len, ssid, len);
	}
}

/* ---- the same text on Network1.Name and KnownNetwork1.Name ------------- */

#define TEST_TYPE_STATION (test_station_get_type())
G_DECLARE_FINAL_TYPE(TestStation, test_station, TEST, STATION, JoindStation)

struct _TestStation {
	JoindStation parent_instance;
};

G_DEFINE_TYPE(TestStation, test_station, JOIND_TYPE_STATION)

static void
test_station_class_init(TestStationClass *klass)
{
}

static void
test_station_init(TestStation *self)
{
}

static gchar *
bus_name(GDBusConnection *conn, const gchar *path, const gchar *iface)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
	        test_bus_call_self(conn, path, "org.freedesktop.DBus.Properties", "Get",
	                           g_variant_new("(ss)", iface, "Name"), &error);
	g_autoptr(GVariant) value = NULL;

	g_assert_no_error(error);
	g_variant_get(reply, "(v)", &value);
	return g_variant_dup_string(value, NULL);
}

static void
remove_dir(const gchar *dir)
{
	g_autofree gchar *rm = g_strdup_printf("rm -rf '%s'", dir);

	g_assert_true(g_spawn_command_line_sync(rm, NULL, NULL, NULL, NULL));
	g_assert_false(g_file_test(dir, G_FILE_TEST_EXISTS));
}

/* A core on bus, with its state in dir and no plugins. */
static JoindCore *
start_core(GTestDBus *bus, const gchar *dir, GDBusConnection **conn)
{
	g_autofree gchar *conf = g_build_filename(dir, "main.conf", NULL);
	JoindCoreOptions options = {conf, dir, dir, "none", NULL};
	g_autoptr(GError) error = NULL;
	JoindCore *core;

	g_test_dbus_up(bus);
	*conn = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
	g_assert_no_error(error);
	core = joind_core_new(&options, &error);
	g_assert_no_error(error);
	g_assert_true(joind_core_start(core, *conn, &error));
	g_assert_no_error(error);
	return core;
}

static void
test_bus_names_agree(void)
{
	/* A backslash, a right-to-left override, a control and a non-UTF-8 octet. */
	static const guint8 ssid[] = {'a', '\\', 0xe2, 0x80, 0xae, 'b', 0x01, 0xff};
	const gchar *want = "a\\\\\\u202eb\\x01\\xff";
	g_autoptr(GTestDBus) bus = g_test_dbus_new(G_TEST_DBUS_NONE);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *dir = g_dir_make_tmp("joind-ssid-XXXXXX", &error);
	g_autoptr(GDBusConnection) conn = NULL;
	g_autoptr(JoindCore) core = NULL;
	g_autoptr(JoindDevice) device = NULL;
	g_autoptr(JoindStation) station = NULL;
	g_autoptr(JoindNetwork) network = NULL;
	g_autoptr(JoindProfile) profile = NULL;
	g_autoptr(GBytes) bytes = g_bytes_new(ssid, sizeof(ssid));
	g_autoptr(GKeyFile) contents = g_key_file_new();
	g_autofree gchar *network_name = NULL;
	g_autofree gchar *known_name = NULL;

	g_assert_no_error(error);
	core = start_core(bus, dir, &conn);
	g_assert_true(joind_core_save_network_profile(core, ssid, sizeof(ssid),
	                                              JOIND_PROFILE_TYPE_OPEN, contents, &error));
	g_assert_no_error(error);
	device = joind_device_new(9, "wlan9", JOIND_DEVICE_KIND_WIFI, "wifi");
	g_assert_true(joind_core_add_device(core, device, &error));
	g_assert_no_error(error);
	station = g_object_new(TEST_TYPE_STATION, NULL);
	joind_device_attach_station(device, station);
	network = g_object_new(JOIND_TYPE_NETWORK, "ssid", bytes, "network-type",
	                       JOIND_NETWORK_TYPE_OPEN, NULL);
	joind_station_add_network(station, network);

	g_assert_cmpstr(joind_network_get_object_path(network), ==,
	                "/net/joind/device/9/network/615ce280ae6201ff_open");
	network_name = bus_name(conn, joind_network_get_object_path(network), "net.joind.Network1");
	known_name =
	        bus_name(conn, "/net/joind/known/615ce280ae6201ff_open", "net.joind.KnownNetwork1");
	g_assert_cmpstr(network_name, ==, want);
	g_assert_cmpstr(known_name, ==, network_name);
	/* ... and the log lines, which name networks and profiles. */
	g_assert_cmpstr(joind_network_get_name(network), ==, want);
	profile =
	        joind_core_find_network_profile(core, ssid, sizeof(ssid), JOIND_PROFILE_TYPE_OPEN);
	g_assert_nonnull(profile);
	g_assert_cmpstr(joind_profile_get_name(profile), ==, want);

	joind_station_remove_network(station, network);
	joind_device_attach_station(device, NULL);
	joind_core_remove_device(core, device);
	joind_core_shutdown(core);
	g_clear_object(&core);
	g_clear_object(&conn);
	g_test_dbus_down(bus);
	remove_dir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/ssid-display/cases", test_cases);
	g_test_add_func("/ssid-display/controls", test_controls);
	g_test_add_func("/ssid-display/bidi", test_bidi);
	g_test_add_func("/ssid-display/longest", test_longest);
	g_test_add_func("/ssid-display/round-trip", test_round_trip);
	g_test_add_func("/ssid-display/bus-names-agree", test_bus_names_agree);
	return g_test_run();
}
