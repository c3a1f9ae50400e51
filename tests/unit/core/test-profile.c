/* test-profile.c - profile file names, parsing, checking and wired matching. */
#include <string.h>

#include <glib/gstdio.h>

#include "eap-gtc.h"
#include "eap-md5.h"
#include "eap-mschapv2.h"
#include "eap-peap.h"
#include "eap-pwd.h"
#include "eap-tls.h"
#include "eap-ttls.h"
#include "joind-error.h"
#include "joind-profile-keys.h"
#include "joind-keyfile.h"
#include "joind-profile-private.h"
#include "joind-profile-store.h"
#include "profile-keys.h"

#define PATH "/var/lib/joind/test.psk"

/* ---- File names ---------------------------------------------------------- */

static void
assert_filename(const gchar *ssid, gsize len, JoindProfileType type, const gchar *expected)
{
	g_autofree gchar *name = joind_profile_ssid_to_filename((const guint8 *)ssid, len, type);
	g_autoptr(GBytes) back = NULL;
	JoindProfileType back_type = JOIND_PROFILE_TYPE_WIRED;

	g_assert_cmpstr(name, ==, expected);
	if (expected == NULL)
		return;
	g_assert_true(joind_profile_filename_to_ssid(name, &back, &back_type));
	g_assert_cmpint(back_type, ==, type);
	g_assert_cmpmem(g_bytes_get_data(back, NULL), g_bytes_get_size(back), ssid, len);
}

static void
test_filename_plain(void)
{
	assert_filename("home", 4, JOIND_PROFILE_TYPE_PSK, "home.psk");
	assert_filename("My Net_1-2", 10, JOIND_PROFILE_TYPE_OPEN, "My Net_1-2.open");
	assert_filename("corp", 4, JOIND_PROFILE_TYPE_8021X, "corp.8021x");
	assert_filename(" lead", 5, JOIND_PROFILE_TYPE_PSK, " lead.psk");
	assert_filename("abcdefghijklmnopqrstuvwxyz012345", 32, JOIND_PROFILE_TYPE_PSK,
	                "abcdefghijklmnopqrstuvwxyz012345.psk");
}

static void
test_filename_hex(void)
{
	/* iwd: anything but ASCII letters, digits, space, '-' and '_' is hex. */
	assert_filename("caf\xc3\xa9", 5, JOIND_PROFILE_TYPE_PSK, "=636166c3a9.psk");
	assert_filename("a.b", 3, JOIND_PROFILE_TYPE_OPEN, "=612e62.open");
	assert_filename("a/b", 3, JOIND_PROFILE_TYPE_PSK, "=612f62.psk");
	assert_filename("=", 1, JOIND_PROFILE_TYPE_PSK, "=3d.psk");
	assert_filename("Guest!", 6, JOIND_PROFILE_TYPE_8021X, "=477565737421.8021x");
	/* Not UTF-8, with a NUL byte inside. */
	assert_filename("\xff\x00\x41", 3, JOIND_PROFILE_TYPE_8021X, "=ff0041.8021x");
	assert_filename("\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f"
	                "\x90\x91\x92\x93\x94\x95\x96\x97\x98\x99\x9a\x9b\x9c\x9d\x9e\x9f",
	                32, JOIND_PROFILE_TYPE_PSK,
	                "=808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f.psk");
	/* No SSID, too long, or a wired type: no name. */
	assert_filename("", 0, JOIND_PROFILE_TYPE_PSK, NULL);
	assert_filename("abcdefghijklmnopqrstuvwxyz0123456", 33, JOIND_PROFILE_TYPE_PSK, NULL);
	assert_filename("office", 6, JOIND_PROFILE_TYPE_WIRED, NULL);
}

static void
test_filename_roundtrip(void)
{
	/* Every single byte, then random SSIDs of every length. */
	for (guint b = 0; b < 256; b++) {
		guint8 ssid[1] = {(guint8)b};
		g_autofree gchar *name =
		        joind_profile_ssid_to_filename(ssid, 1, JOIND_PROFILE_TYPE_OPEN);
		g_autoptr(GBytes) back = NULL;

		g_assert_nonnull(name);
		g_assert_true(joind_profile_filename_to_ssid(name, &back, NULL));
		g_assert_cmpmem(g_bytes_get_data(back, NULL), g_bytes_get_size(back), ssid, 1);
	}
	for (guint i = 0; i < 2000; i++) {
		guint8 ssid[32];
		gsize len = (gsize)g_test_rand_int_range(1, 33);
		g_autofree gchar *name = NULL;
		g_autoptr(GBytes) back = NULL;

		for (gsize j = 0; j < len; j++)
			ssid[j] = (guint8)g_test_rand_int_range(0, 256);
		name = joind_profile_ssid_to_filename(ssid, len, JOIND_PROFILE_TYPE_PSK);
		g_assert_nonnull(name);
		g_assert_null(strchr(name, '/'));
		g_assert_true(joind_profile_filename_to_ssid(name, &back, NULL));
		g_assert_cmpmem(g_bytes_get_data(back, NULL), g_bytes_get_size(back), ssid, len);
	}
}

static void
test_filename_rejects(void)
{
	static const gchar *const names[] = {
	        "home.txt",  /* not a profile type */
	        ".home.psk", /* hidden: our own temporary files */
	        ".=6869.psk.X1Y2Z3",
	        "home",            /* no type */
	        "home.psk~",       /* editor backup */
	        "home.psk.AB12CD", /* g_file_set_contents() temporary */
	        "=.psk",           /* no hex */
	        "=6.psk",          /* odd number of digits */
	        "=zz.psk",         /* not hex */
	        "=4A4B.psk",       /* upper case: not the name joind or iwd write */
	        "=686f6d65.psk",   /* "home" must be written as it is */
	        "caf\xc3\xa9.psk", /* must be written in hex */
	        "a b!.open",
	        "abcdefghijklmnopqrstuvwxyz0123456.psk", /* 33 bytes */
	        "=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20.psk", /* 33 */
	        "",
	};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autoptr(GBytes) ssid = NULL;
		if (joind_profile_filename_to_ssid(names[i], &ssid, NULL))
			g_error("“%s” was taken as a profile name", names[i]);
		g_assert_null(ssid);
	}
}

/* ---- Parsing good files -------------------------------------------------- */

static JoindProfile *
parse(const gchar *path, JoindProfileType type, const gchar *text, GError **error)
{
	g_autoptr(GBytes) ssid = NULL;

	if (type != JOIND_PROFILE_TYPE_WIRED)
		ssid = g_bytes_new("test", 4);
	return joind_profile_parse(path, type, ssid, (const guint8 *)text, strlen(text), error);
}

static JoindProfile *
parse_ok(JoindProfileType type, const gchar *text)
{
	g_autoptr(GError) error = NULL;
	JoindProfile *profile = parse(PATH, type, text, &error);

	g_assert_no_error(error);
	g_assert_nonnull(profile);
	return profile;
}

static void
test_parse_open(void)
{
	g_autoptr(JoindProfile) p = parse_ok(JOIND_PROFILE_TYPE_OPEN, "# a cafe\n"
	                                                              "[Settings]\n"
	                                                              "AutoConnect=false\n"
	                                                              "Hidden = true\n"
	                                                              "\n"
	                                                              "[IPv4]\n"
	                                                              "Address=192.0.2.10\n");

	g_assert_cmpint(joind_profile_get_profile_type(p), ==, JOIND_PROFILE_TYPE_OPEN);
	g_assert_cmpstr(joind_profile_get_name(p), ==, "test");
	g_assert_cmpstr(joind_profile_get_path(p), ==, PATH);
	g_assert_false(joind_profile_get_boolean(p, "Settings", "AutoConnect", TRUE));
	g_assert_true(joind_profile_get_boolean(p, "Settings", "Hidden", FALSE));
	g_assert_true(joind_profile_get_boolean(p, "Settings", "Missing", TRUE));
	g_assert_cmpuint(joind_profile_get_line(p, "Settings", "Hidden"), ==, 4);
	g_assert_cmpuint(joind_profile_get_line(p, "IPv4", "Address"), ==, 7);
	g_assert_cmpuint(joind_profile_get_line(p, "IPv4", "Gateway"), ==, 0);
	g_assert_true(joind_profile_has_key(p, "IPv4", "Address"));
	g_assert_false(joind_profile_holds_secrets(p));
	g_assert_null(joind_profile_get_warnings(p));
	g_assert_false(joind_profile_matches_link(p, "eth0", "02:00:00:00:00:01"));
}

static void
test_parse_psk(void)
{
	g_autoptr(JoindProfile) a =
	        parse_ok(JOIND_PROFILE_TYPE_PSK, "[Security]\n"
	                                         "Passphrase=\\scorrect horse\n");
	g_autoptr(JoindProfile) b =
	        parse_ok(JOIND_PROFILE_TYPE_PSK,
	                 "[Security]\r\nPreSharedKey="
	                 "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af\r\n");
	g_autoptr(JoindProfile) c = parse_ok(
	        JOIND_PROFILE_TYPE_PSK,
	        "[Security]\nPassphrase=12345678\n"
	        "PreSharedKey=0DC0D6EB90555ED6419756B9A15EC3E3209B63DF707DD508D14581F8982721AF\n"
	        "[Settings]\nAutoConnect=1\nHidden=0\n");
	g_autofree gchar *pass = joind_profile_get_string(a, "Security", "Passphrase");
	g_autofree gchar *psk = joind_profile_get_string(b, "Security", "PreSharedKey");

	g_assert_cmpstr(pass, ==, " correct horse"); /* iwd's \s: a leading space */
	g_assert_cmpuint(strlen(psk), ==, 64);
	g_assert_true(joind_profile_holds_secrets(a));
	g_assert_true(joind_profile_get_boolean(c, "Settings", "AutoConnect", FALSE));
	g_assert_false(joind_profile_get_boolean(c, "Settings", "Hidden", TRUE));
}

/* Without a secret (NetworkManager's file for a secret it keeps to
 * itself): known, the secret asked of an agent at connect. */
static void
test_parse_psk_without_secret(void)
{
	g_autoptr(JoindProfile) a =
	        parse_ok(JOIND_PROFILE_TYPE_PSK, "[Settings]\nAutoConnect=false\n");
	g_autoptr(JoindProfile) b = parse_ok(JOIND_PROFILE_TYPE_PSK, "# empty\n[Security]\n");
	g_autoptr(JoindProfile) c = parse_ok(JOIND_PROFILE_TYPE_PSK, "");

	g_assert_false(joind_profile_has_key(a, "Security", "Passphrase"));
	g_assert_false(joind_profile_has_key(b, "Security", "PreSharedKey"));
	g_assert_false(joind_profile_holds_secrets(c));
	g_assert_false(joind_profile_get_boolean(a, "Settings", "AutoConnect", TRUE));
}

static const gchar eap_tls_text[] = "[Security]\n"
                                    "EAP-Method=TLS\n"
                                    "EAP-Identity=host/laptop.example.com\n"
                                    "EAP-TLS-CACert=embed:ca\n"
                                    "EAP-TLS-ClientCert=/etc/joind/certs/client.pem\n"
                                    "EAP-TLS-ClientKey=/etc/joind/certs/client.key\n"
                                    "EAP-TLS-ClientKeyPassphrase=hunter22\n"
                                    "EAP-TLS-ServerDomainMask=radius.example.com\n"
                                    "EAP-TLS-Version-Min=1.2\n"
                                    "EAP-TLS-Version-Max=1.3\n"
                                    "\n"
                                    "[@pem@ca]\n"
                                    "-----BEGIN CERTIFICATE-----\n"
                                    "MIIBszCCAVmgAwIBAgIUKj0=\n"
                                    "-----END CERTIFICATE-----\n"
                                    "[Settings]\n"
                                    "AutoConnect=true\n";

static void
test_parse_8021x(void)
{
	g_autoptr(JoindProfile) p = parse_ok(JOIND_PROFILE_TYPE_8021X, eap_tls_text);
	g_autoptr(JoindProfile) peap =
	        parse_ok(JOIND_PROFILE_TYPE_8021X, "[Security]\n"
	                                           "EAP-Method=peap\n"
	                                           "EAP-PEAP-CACert=/etc/ssl/ca.pem\n"
	                                           "EAP-PEAP-Phase2-Method=MSCHAPV2\n"
	                                           "EAP-PEAP-Phase2-Identity=alice\n"
	                                           "EAP-PEAP-Phase2-Password=wonderland\n");
	g_autoptr(JoindProfile) ttls =
	        parse_ok(JOIND_PROFILE_TYPE_8021X, "[Security]\n"
	                                           "EAP-Method=TTLS\n"
	                                           "EAP-TTLS-Phase2-Method=Tunneled-PAP\n");
	g_autofree gchar *method = joind_profile_get_string(p, "Security", "EAP-Method");
	const gchar *pem = joind_profile_get_embedded_pem(p, "ca");

	g_assert_cmpstr(method, ==, "TLS");
	g_assert_cmpstr(pem, ==,
	                "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUKj0=\n"
	                "-----END CERTIFICATE-----\n");
	g_assert_null(joind_profile_get_embedded_pem(p, "other"));
	g_assert_null(joind_profile_get_embedded_pem(peap, "ca"));
	/* Line numbers skip nothing, embedded PEM included. */
	g_assert_cmpuint(joind_profile_get_line(p, "Settings", "AutoConnect"), ==, 17);
	g_assert_true(joind_profile_get_boolean(p, "Settings", "AutoConnect", FALSE));
	g_assert_true(joind_profile_holds_secrets(peap));
	g_assert_false(joind_profile_holds_secrets(ttls));
}

static void
test_parse_display_name(void)
{
	g_autoptr(GBytes) ssid = g_bytes_new("\xff\x00"
	                                     "A\\\n\xc3\xa9",
	                                     7);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) p =
	        joind_profile_parse("/s/=ff00415c0ac3a9.open", JOIND_PROFILE_TYPE_OPEN, ssid,
	                            (const guint8 *)"", 0, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(joind_profile_get_name(p), ==, "\\xff\\x00A\\\\\\x0a\xc3\xa9");
	g_assert_true(joind_profile_get_ssid(p) == ssid ||
	              g_bytes_equal(joind_profile_get_ssid(p), ssid));
}

/* ---- Parsing bad files --------------------------------------------------- */

typedef struct {
	JoindProfileType type;
	const gchar *text;
	const gchar *expected; /* a fragment of the message, with the line */
	const gchar *secret;   /* must not appear in the message */
	gsize len;             /* 0: strlen(text) */
} BadCase;

static const BadCase bad_cases[] = {
        /* Syntax. */
        {JOIND_PROFILE_TYPE_OPEN, "[Settings\n", PATH ":1: malformed group header", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "\n[]\n", PATH ":2: empty group name", NULL},
        {JOIND_PROFILE_TYPE_PSK, "Passphrase=Zq9SecretW\n", PATH ":1: key outside of any [Group]",
         "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\n\nmy password is Zq9SecretW\n", PATH ":3: expected",
         "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\nPass phrase=Zq9SecretW\n",
         PATH ":2: invalid key name", "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\n=Zq9SecretW\n", PATH ":2: the key before",
         "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nHidden=true\n\xff\n",
         PATH ":3: the text is not valid UTF-8", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nHidden=t\0rue\n",
         PATH ":2: the file holds a NUL byte", NULL, sizeof("[Settings]\nHidden=t\0rue\n") - 1},
        {JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=TLS\n[@pem@]\n",
         PATH ":3: an embedded PEM", NULL},
        {JOIND_PROFILE_TYPE_8021X, "[@pem@a]\nx\n[@pem@a]\ny\n", PATH ":3: this embedded PEM name",
         NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nEncoding=latin1\n", PATH ":2: Encoding=", NULL},
        /* Values of known keys. */
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nAlwaysRandomizeAddress=perhaps\n",
         PATH ":2: AlwaysRandomizeAddress: “perhaps” is not a boolean", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nTransitionDisable=1x\n",
         PATH ":2: TransitionDisable: “1x” is not a boolean", NULL},
        /* joind's own: opportunistic key caching. */
        {JOIND_PROFILE_TYPE_8021X, "[Settings]\nOKC=sometimes\n",
         PATH ":2: OKC: “sometimes” is not a boolean", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nAddressOverride=02:00:5e:10:00\n",
         PATH ":2: AddressOverride: “02:00:5e:10:00” is not a MAC address", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nAddressOverride=01:00:5e:10:00:01\n",
         PATH ":2: AddressOverride: “01:00:5e:10:00:01” is a multicast address", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nDisabledTransitionModes=personal,wep\n",
         PATH ":2: DisabledTransitionModes: “wep” is not a transition mode", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-FastReauthentication=sometimes\n",
         PATH ":3: EAP-TLS-FastReauthentication: “sometimes” is not a boolean", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=PEAP\nEAP-PEAP-Phase2-Method=MD5\n"
         "EAP-PEAP-ServerKeyPin=sha256/x=\n",
         PATH ":4: EAP-PEAP-ServerKeyPin: after “sha256/” comes the base64", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TTLS\nEAP-TTLS-Phase2-Method=Tunneled-PAP\n"
         "EAP-TTLS-ServerKeyPin=sha1/x\n",
         PATH ":4: EAP-TTLS-ServerKeyPin: a pin starts with “sha256/”", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientKeyBundle=/b.p12\nEAP-TLS-ClientKey=/k\n",
         PATH ":3: EAP-TLS-ClientKeyBundle: the bundle holds the certificate and the key", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\nAutoConnect=maybe\n",
         PATH ":2: AutoConnect: “maybe” is not a boolean", NULL},
        {JOIND_PROFILE_TYPE_OPEN, "[Settings]\n\nHidden=2\n",
         PATH ":3: Hidden: “2” is not a boolean", NULL},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\nPassphrase=Zq9Sec\n",
         PATH ":2: Passphrase: a WPA passphrase is 8 to 63", "Zq9Sec"},
        {JOIND_PROFILE_TYPE_PSK,
         "[Security]\nPassphrase=Zq9SecretW-"
         "0123456789012345678901234567890123456789012345678901234\n",
         PATH ":2: Passphrase:", "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\nPassphrase=Zq9SecretW\xc3\xa9\n",
         PATH ":2: Passphrase:", "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\nPassphrase=Zq9SecretW\\q\n",
         PATH ":2: Passphrase: invalid escape sequence", "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_PSK, "[Security]\n\nPreSharedKey=Zq9Secret0123\n",
         PATH ":3: PreSharedKey: expected 64 hexadecimal digits", "Zq9Secret"},
        {JOIND_PROFILE_TYPE_PSK,
         "[Security]\nPreSharedKey="
         "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721ag\n",
         PATH ":2: PreSharedKey:", "0dc0d6eb90555ed"},
        {JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Identity=alice\nEAP-Password=Zq9SecretW\n",
         PATH ":1: EAP-Method= is missing", "Zq9SecretW"},
        {JOIND_PROFILE_TYPE_8021X, "[Settings]\nAutoConnect=true\n",
         PATH ": EAP-Method= is missing", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientKey=pkcs11:token=t;label=k\n",
         PATH ":3: EAP-TLS-ClientKey: “label” is not an RFC 7512 path attribute", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientKey=pkcs11:object=k?pin-value=Zq9 Pin\n",
         PATH ":3: EAP-TLS-ClientKey: the value of “pin-value” has a character", "Zq9"},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientCert=pkcs11:object=k;type=private\n",
         PATH ":3: EAP-TLS-ClientCert: type=private names no certificate", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientKey=handle:0x80000001\n",
         PATH ":3: EAP-TLS-ClientKey: a TPM key handle is “handle:0x81”", NULL},
        {JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=TLS\nEAP-TLS-ClientKey=embed:key\n",
         PATH ":3: EAP-TLS-ClientKey: “embed:key” names no embedded PEM", NULL},
        {JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=TLS\nEAP-TLS-Version-Max=1.4\n",
         PATH ":3: EAP-TLS-Version-Max: “1.4” is not a TLS version", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=TLS\nEAP-TLS-Version-Min=1.3\nEAP-TLS-Version-Max=1.2\n",
         PATH ":3: EAP-TLS-Version-Min is above EAP-TLS-Version-Max", NULL},
        {JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=TLS\nEAP-TLS-ServerDomainMask=\n",
         PATH ":3: EAP-TLS-ServerDomainMask is empty", NULL},
        {JOIND_PROFILE_TYPE_8021X,
         "[Security]\nEAP-Method=MD5\nEAP-Identity=a\nEAP-Password=Zq9Secret\\\n",
         PATH ":4: EAP-Password: invalid escape", "Zq9Secret"},
        /* Wired [Match]. */
        {JOIND_PROFILE_TYPE_WIRED,
         "[Match]\nMACAddress=02:00:00:zz:00:01\n[Security]\nEAP-Method=MD5\n",
         PATH ":2: MACAddress: “02:00:00:zz:00:01” is not a MAC address", NULL},
        {JOIND_PROFILE_TYPE_WIRED, "[Match]\nInterface=  \n[Security]\nEAP-Method=MD5\n",
         PATH ":2: Interface= is empty", NULL},
        {JOIND_PROFILE_TYPE_WIRED, "[Match]\nInterface=eth0\n", PATH ": EAP-Method= is missing",
         NULL},
};

static void
test_parse_bad(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const BadCase *c = &bad_cases[i];
		gsize len = c->len != 0 ? c->len : strlen(c->text);
		g_autoptr(GBytes) ssid = g_bytes_new("test", 4);
		g_autoptr(GError) error = NULL;
		g_autoptr(JoindProfile) p = joind_profile_parse(
		        PATH, c->type, c->type == JOIND_PROFILE_TYPE_WIRED ? NULL : ssid,
		        (const guint8 *)c->text, len, &error);

		g_test_message("case %u: %s", i, c->expected);
		g_assert_null(p);
		g_assert_nonnull(error);
		if (strstr(error->message, c->expected) == NULL)
			g_error("case %u: expected “%s” in “%s”", i, c->expected, error->message);
		if (c->secret != NULL && strstr(error->message, c->secret) != NULL)
			g_error("case %u: the secret leaked into “%s”", i, error->message);
	}
}

/* A method no loaded plugin provides refuses the profile, naming it; so
 * does a method where it cannot run. Tunnels check their inner method. */
static void
test_parse_unknown_method_refused(void)
{
	const gchar *cases[][2] = {
	        {"[Security]\nEAP-Method=FOO\n",
	         PATH ":2: EAP-Method: EAP method FOO is not available: no loaded plugin provides "
	              "it (available: MD5, TLS, PEAP, TTLS, MSCHAPV2, GTC, PWD)"},
	        {"[Security]\nEAP-Identity=x\nEAP-Method=MD5,SIM\n",
	         PATH ":3: EAP-Method: EAP method SIM is not available"},
	        {"[Security]\nEAP-Method=PEAP\nEAP-PEAP-Phase2-Method=Tunneled-PAP\n",
	         PATH ":3: EAP-PEAP-Phase2-Method: EAP method Tunneled-PAP is not available"},
	        {"[Security]\nEAP-Method=PEAP\nEAP-PEAP-Phase2-Method=TLS\n",
	         PATH ":3: EAP-PEAP-Phase2-Method: EAP method TLS cannot be used inside"},
	        {"[Security]\nEAP-Method=TTLS\n",
	         PATH ": EAP-TTLS-Phase2-Method is missing: the profile names no EAP method"},
	        {"[Security]\nEAP-Method=TTLS\nEAP-TTLS-Phase2-Method=AKA\n",
	         PATH ":3: EAP-TTLS-Phase2-Method: EAP method AKA is not available"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JoindProfile) p =
		        parse(PATH, JOIND_PROFILE_TYPE_8021X, cases[i][0], &error);

		g_assert_null(p);
		g_assert_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE);
		if (strstr(error->message, cases[i][1]) == NULL)
			g_error("case %u: expected “%s” in “%s”", i, cases[i][1], error->message);
	}
}

/* A method's own profile check: its sentence keeps the file and line. */
static gboolean
level_check_profile(JoindProfile *profile, const gchar *prefix, GError **error)
{
	g_autofree gchar *key = g_strconcat(prefix, "Level", NULL);
	g_autofree gchar *value = joind_profile_get_string(profile, "Security", key);
	g_autofree gchar *where = NULL;

	if (value == NULL || g_str_equal(value, "high") || g_str_equal(value, "low"))
		return TRUE;
	where = joind_profile_describe_key(profile, "Security", key);
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS, "%s: not high or low", where);
	return FALSE;
}

static gpointer
level_state_new(JoindEapSession *session, GError **error)
{
	return g_new0(guint8, 1);
}

static JoindEapMethodResult
level_handle(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data, gsize len,
             GByteArray *response, GError **error)
{
	return JOIND_EAP_METHOD_DISCARD;
}

static void
test_parse_method_check(void)
{
	static const JoindEapMethodOps level_ops = {
	        .type = 250,
	        .name = "LEVEL",
	        .flags = JOIND_EAP_METHOD_FLAG_OUTER | JOIND_EAP_METHOD_FLAG_INNER,
	        .state_new = level_state_new,
	        .state_free = g_free,
	        .handle_request = level_handle,
	        .check_profile = level_check_profile,
	};
	const gchar *cases[][2] = {
	        {"[Security]\nEAP-Method=LEVEL\n# x\nEAP-Level=medium\n",
	         PATH ":4: EAP-Level: not high or low"},
	        /* Inside a tunnel the method reads its keys under the tunnel's prefix. */
	        {"[Security]\nEAP-Method=PEAP\nEAP-PEAP-Phase2-Method=LEVEL\n"
	         "EAP-PEAP-Phase2-Level=0\n",
	         PATH ":4: EAP-PEAP-Phase2-Level: not high or low"},
	};

	g_assert_true(joind_eap_register_method(&level_ops, NULL));
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JoindProfile) p =
		        parse(PATH, JOIND_PROFILE_TYPE_8021X, cases[i][0], &error);

		g_assert_null(p);
		g_assert_nonnull(error);
		g_assert_cmpstr(error->message, ==, cases[i][1]);
	}
	g_clear_object(&(JoindProfile *){parse_ok(
	        JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=LEVEL\nEAP-Level=low\n")});
	joind_eap_unregister_method(&level_ops);
}

static void
test_parse_all_problems(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) p = parse(PATH, JOIND_PROFILE_TYPE_PSK,
	                                  "[Settings]\n"
	                                  "Hidden=yes\n"
	                                  "[Security]\n"
	                                  "Passphrase=Zq9\n"
	                                  "[Settings]\n"
	                                  "AutoConnect=maybe\n",
	                                  &error);
	g_auto(GStrv) lines = NULL;

	g_assert_null(p);
	g_assert_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE);
	lines = g_strsplit(error->message, "\n", -1);
	/* Every problem, one per line, in the order of the file. */
	g_assert_cmpuint(g_strv_length(lines), ==, 3);
	g_assert_true(g_str_has_prefix(lines[0], PATH ":2: Hidden:"));
	g_assert_true(g_str_has_prefix(lines[1], PATH ":4: Passphrase:"));
	g_assert_true(g_str_has_prefix(lines[2], PATH ":6: AutoConnect:"));
	g_assert_null(strstr(error->message, "Zq9"));
}

/* Unknown keys and groups: a warning each, with its line; the file is
 * used and the keys stay in it. [Network], [IPv4] and [IPv6] are iwd's IP
 * configuration: no warning, a debug line. */
static void
test_parse_unknown_keys(void)
{
	g_autoptr(JoindProfile) p = NULL;
	g_auto(GStrv) lines = NULL;

	g_test_expect_message("joind", G_LOG_LEVEL_DEBUG,
	                      PATH ": [Network], [IPv4]: IP configuration is left to the network "
	                           "manager");
	p = parse_ok(JOIND_PROFILE_TYPE_PSK, "[Settings]\n"
	                                     "AutoConect=true\n"
	                                     "[Security]\n"
	                                     "Passphrase=12345678\n"
	                                     "SomethingNew=1\n"
	                                     "EAP-Method=TLS\n"
	                                     "[Network]\n"
	                                     "NameResolvingService=systemd\n"
	                                     "[IPv4]\n"
	                                     "Address=192.0.2.10\n"
	                                     "[Proxy]\n"
	                                     "Url=http://proxy\n"
	                                     "[Match]\n"
	                                     "Interface=eth0\n");
	g_test_assert_expected_messages();
	g_assert_true(joind_profile_has_key(p, "Network", "NameResolvingService"));
	g_assert_true(joind_profile_has_key(p, "Security", "SomethingNew"));
	lines = g_strsplit(joind_profile_get_warnings(p), "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 5);
	g_assert_true(g_str_has_prefix(lines[0], PATH ":2: [Settings] AutoConect is not a key"));
	g_assert_true(g_str_has_prefix(lines[1], PATH ":5: [Security] SomethingNew is not a key "
	                                              "of a .psk profile"));
	g_assert_true(g_str_has_prefix(lines[2], PATH ":6: [Security] EAP-Method is not a key "
	                                              "of a .psk profile"));
	g_assert_true(g_str_has_prefix(lines[3], PATH ":11: [Proxy] is not a group"));
	g_assert_true(g_str_has_prefix(lines[4], PATH ":13: [Match] is not a group joind knows "
	                                              "in a WiFi profile"));
}

/* In an 802.1X profile: misspelt EAP keys, keys of another kind of
 * profile, TLS keys where no TLS runs. */
static void
test_parse_unknown_eap_keys(void)
{
	g_autoptr(JoindProfile) p =
	        parse_ok(JOIND_PROFILE_TYPE_8021X, "[Security]\n"
	                                           "EAP-Method=PEAP\n"
	                                           "EAP-PEAP-CaCert=/ca.pem\n"
	                                           "EAP-PEAP-Phase2-Method=MD5\n"
	                                           "EAP-PEAP-Phase2-Pasword=x\n"
	                                           "EAP-MD5-CACert=/ca.pem\n"
	                                           "EAP-TLS-Phase2-Identity=x\n"
	                                           "Passphrase=12345678\n"
	                                           "EAP-PEAP-Phase2-TTLS-Phase2-Identity=ok\n");
	g_auto(GStrv) lines = g_strsplit(joind_profile_get_warnings(p), "\n", -1);
	const guint expected[] = {3, 5, 6, 7, 8};

	g_assert_cmpuint(g_strv_length(lines), ==, G_N_ELEMENTS(expected));
	for (guint i = 0; i < G_N_ELEMENTS(expected); i++) {
		g_autofree gchar *start = g_strdup_printf(PATH ":%u: [Security] ", expected[i]);

		g_assert_true(g_str_has_prefix(lines[i], start));
		g_assert_nonnull(strstr(lines[i], "is not a key of a .8021x profile joind knows"));
	}
}

/* The [Security] groups of test_parse_iwd_keys(). */
static const gchar *const iwd_security[] = {
        "Passphrase=12345678\nPreSharedKey="
        "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af\n",
        "EAP-Method=TLS\nEAP-Identity=me\nEAP-TLS-CACert=embed:ca\n"
        "EAP-TLS-ClientCert=/c.pem\nEAP-TLS-ClientKey=embed:key\n"
        "EAP-TLS-ClientKeyPassphrase=x\nEAP-TLS-ServerDomainMask=*.example.com\n"
        "EAP-TLS-FastReauthentication=false\n",
        "EAP-Method=TLS\nEAP-Identity=me\nEAP-TLS-ClientKeyBundle=/b.p12\n"
        "EAP-TLS-ClientKeyPassphrase=x\nEAP-TLS-ServerKeyPin="
        "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n",
        "EAP-Method=TTLS\nEAP-Identity=anon\nEAP-TTLS-CACert=/ca.pem\n"
        "EAP-TTLS-ServerDomainMask=r.example.com\nEAP-TTLS-FastReauthentication=true\n"
        "EAP-TTLS-Phase2-Method=Tunneled-MSCHAPv2\nEAP-TTLS-Phase2-Identity=u\n"
        "EAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=MSCHAPV2\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password-Hash="
        "8846f7eaee8fb117ad06bdd830b7586c\n",
        "EAP-Method=PEAP\nEAP-Identity=anon\nEAP-PEAP-CACert=embed:ca\n"
        "EAP-PEAP-ServerDomainMask=r.example.com\nEAP-PEAP-FastReauthentication=true\n"
        "EAP-PEAP-ClientCert=embed:key\nEAP-PEAP-ClientKey=embed:key\n"
        "EAP-PEAP-Phase2-Method=GTC\nEAP-PEAP-Phase2-Identity=u\n"
        "EAP-PEAP-Phase2-Password=p\n",
        "EAP-Method=MSCHAPV2\nEAP-Identity=u\nEAP-Password-Hash="
        "8846f7eaee8fb117ad06bdd830b7586c\n",
        "EAP-Method=MSCHAPV2\nEAP-Identity=u\nEAP-Password=p\n",
        "EAP-Method=MD5\nEAP-Identity=u\nEAP-Password=p\n",
        "EAP-Method=PWD\nEAP-Identity=u\nEAP-Password=p\n",
        /* Every Phase2-Method value the page lists: TTLS's own methods
         * and the EAP methods, whose keys take the Phase2- prefix. */
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=Tunneled-PAP\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=Tunneled-CHAP\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=Tunneled-MSCHAP\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=MD5\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=TTLS\nEAP-TTLS-CACert=/ca.pem\nEAP-TTLS-Phase2-Method=GTC\n"
        "EAP-TTLS-Phase2-Identity=u\nEAP-TTLS-Phase2-Password=p\n",
        "EAP-Method=PEAP\nEAP-PEAP-CACert=/ca.pem\nEAP-PEAP-Phase2-Method=MSCHAPV2\n"
        "EAP-PEAP-Phase2-Identity=u\nEAP-PEAP-Phase2-Password-Hash="
        "8846f7eaee8fb117ad06bdd830b7586c\n",
        "EAP-Method=PEAP\nEAP-PEAP-CACert=/ca.pem\nEAP-PEAP-Phase2-Method=MD5\n"
        "EAP-PEAP-Phase2-Identity=u\nEAP-PEAP-Phase2-Password=p\n",
};

/* iwd.network(5) of iwd 2.3, every key, in the profiles it belongs to: no
 * problem, no warning. The page's EAP-Method values are all here but
 * AKA, AKA' and SIM, which need a SIM card iwd reaches through oFono
 * (refused as unavailable methods, test_parse_unknown_method_refused). */
static void
test_parse_iwd_keys(void)
{
	static const gchar settings[] = "[Settings]\n"
	                                "AutoConnect=true\n"
	                                "Hidden=false\n"
	                                "AlwaysRandomizeAddress=false\n"
	                                "AddressOverride=02:00:5e:10:00:01\n"
	                                "TransitionDisable=true\n"
	                                "DisabledTransitionModes=personal,enterprise, open\n"
	                                "[Network]\nMulticastDNS=resolve\n"
	                                "[IPv4]\nAddress=192.0.2.2\nGateway=192.0.2.1\n"
	                                "DNS=192.0.2.1 192.0.2.53\nNetmask=255.255.255.0\n"
	                                "Broadcast=192.0.2.255\nDomainName=example.com\n"
	                                "SendHostname=true\n"
	                                "[IPv6]\nEnabled=true\nAddress=2001:db8::2/64\n"
	                                "Gateway=2001:db8::1\nDNS=2001:db8::53\n"
	                                "DomainName=example.com\n";
	static const gchar pems[] = "[@pem@ca]\n-----BEGIN CERTIFICATE-----\nAA==\n"
	                            "-----END CERTIFICATE-----\n"
	                            "[@pem@key]\n-----BEGIN PRIVATE KEY-----\nAA==\n"
	                            "-----END PRIVATE KEY-----\n";

	for (gsize i = 0; i < G_N_ELEMENTS(iwd_security); i++) {
		JoindProfileType type = i == 0 ? JOIND_PROFILE_TYPE_PSK : JOIND_PROFILE_TYPE_8021X;
		g_autofree gchar *text =
		        g_strconcat(settings, "[Security]\n", iwd_security[i], pems, NULL);
		g_autoptr(JoindProfile) p = parse_ok(type, text);

		g_assert_cmpstr(joind_profile_get_warnings(p), ==, NULL);
	}
}

/* embed:NAME works in every certificate and key setting, outer and inner,
 * and names a [@pem@NAME] group of the file. */
static void
test_parse_embed_every_key(void)
{
	const gchar *prefixes[] = {"EAP-TLS-", "EAP-PEAP-", "EAP-TTLS-", "EAP-TTLS-Phase2-TLS-",
	                           "EAP-PEAP-Phase2-PEAP-"};
	const gchar *keys[] = {"CACert", "ClientCert", "ClientKey", "ClientKeyBundle"};

	for (gsize i = 0; i < G_N_ELEMENTS(prefixes); i++) {
		for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
			g_autofree gchar *good =
			        g_strdup_printf("[Security]\nEAP-Method=MD5\n%s%s=embed:pem\n"
			                        "[@pem@pem]\n-----BEGIN CERTIFICATE-----\n-----END "
			                        "CERTIFICATE-----\n",
			                        prefixes[i], keys[k]);
			g_autofree gchar *bad =
			        g_strdup_printf("[Security]\nEAP-Method=MD5\n%s%s=embed:other\n"
			                        "[@pem@pem]\n-----BEGIN CERTIFICATE-----\n-----END "
			                        "CERTIFICATE-----\n",
			                        prefixes[i], keys[k]);
			g_autofree gchar *expected = g_strdup_printf(
			        PATH ":3: %s%s: “embed:other” names no embedded PEM", prefixes[i],
			        keys[k]);
			g_autoptr(JoindProfile) p = parse_ok(JOIND_PROFILE_TYPE_8021X, good);
			g_autoptr(GError) error = NULL;
			g_autoptr(JoindProfile) q =
			        parse(PATH, JOIND_PROFILE_TYPE_8021X, bad, &error);

			g_assert_null(joind_profile_get_warnings(p));
			g_assert_null(q);
			g_assert_nonnull(error);
			if (!g_str_has_prefix(error->message, expected))
				g_error("\"%s\" does not start with \"%s\"", error->message,
				        expected);
		}
	}
}

/* iwd's systemd-creds encryption: refused, saying so. */
static void
test_parse_encrypted_security(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) p =
	        parse(PATH, JOIND_PROFILE_TYPE_PSK,
	              "[Settings]\nAutoConnect=true\n[Security]\nEncryptedSalt=c2FsdA==\n"
	              "EncryptedSecurity=aGVsbG8gd29ybGQ=\n",
	              &error);

	g_assert_null(p);
	g_assert_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE);
	g_assert_true(g_str_has_prefix(error->message, PATH ":4: EncryptedSalt: "));
	g_assert_nonnull(strstr(error->message, PATH ":5: EncryptedSecurity: "));
	g_assert_nonnull(strstr(error->message, "joind does not support systemd-creds encrypted "
	                                        "profiles"));
}

/* [IPv4], [IPv6], [Network] and unknown groups come through a rewrite of
 * the file as they were. */
static void
test_rewrite_keeps_ip_groups(void)
{
	const gchar *text = "[Security]\n"
	                    "Passphrase=12345678\n"
	                    "[IPv4]\n"
	                    "Address=192.0.2.2\n"
	                    "# the router\n"
	                    "Gateway=192.0.2.1\n"
	                    "[IPv6]\n"
	                    "Enabled=false\n"
	                    "[Network]\n"
	                    "MulticastDNS=true\n"
	                    "[Vendor]\n"
	                    "X=y\n";
	const gchar *const keys[] = {"Hidden", NULL};
	const gchar *const values[] = {"true", NULL};
	g_autofree gchar *expected = g_strconcat(text, "\n[Settings]\nHidden=true\n", NULL);
	g_autofree gchar *out = NULL;
	gsize len = 0;

	out = joind_keyfile_set_strings(text, strlen(text), "Settings", keys, values, &len);
	g_assert_cmpstr(out, ==, expected);
}

static void
test_parse_load_file(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("joind-profile-XXXXXX", NULL);
	g_autofree gchar *path = g_build_filename(dir, "home.psk", NULL);
	g_autofree gchar *missing = g_build_filename(dir, "none.psk", NULL);
	g_autoptr(GBytes) ssid = g_bytes_new("home", 4);
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) p = NULL;

	g_assert_true(g_file_set_contents(path, "[Security]\nPassphrase=12345678\n", -1, NULL));
	p = joind_profile_load(path, JOIND_PROFILE_TYPE_PSK, ssid, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(joind_profile_get_name(p), ==, "home");
	g_assert_null(joind_profile_load(missing, JOIND_PROFILE_TYPE_PSK, ssid, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
	g_assert_nonnull(strstr(error->message, missing));
	g_unlink(path);
	g_rmdir(dir);
}

/* ---- Wired matching ------------------------------------------------------ */

static JoindProfile *
wired(const gchar *match)
{
	g_autofree gchar *text = g_strconcat(match, "[Security]\nEAP-Method=MD5\n", NULL);
	g_autoptr(GError) error = NULL;
	JoindProfile *p =
	        parse("/var/lib/joind/wired/office.8021x", JOIND_PROFILE_TYPE_WIRED, text, &error);

	g_assert_no_error(error);
	return p;
}

static void
test_wired_glob(void)
{
	g_autoptr(JoindProfile) p = wired("[Match]\nInterface=enp*s0 veth?\n");

	g_assert_cmpstr(joind_profile_get_name(p), ==, "office");
	g_assert_null(joind_profile_get_ssid(p));
	g_assert_null(joind_profile_get_warnings(p));
	g_assert_true(joind_profile_matches_link(p, "enp3s0", NULL));
	g_assert_true(joind_profile_matches_link(p, "enp0s0", "02:00:00:00:00:01"));
	g_assert_true(joind_profile_matches_link(p, "veth1", NULL));
	g_assert_false(joind_profile_matches_link(p, "veth12", NULL));
	g_assert_false(joind_profile_matches_link(p, "enp3s1", NULL));
	g_assert_false(joind_profile_matches_link(p, "eth0", NULL));
	g_assert_false(joind_profile_matches_link(p, NULL, "02:00:00:00:00:01"));
}

static void
test_wired_mac(void)
{
	g_autoptr(JoindProfile) p =
	        wired("[Match]\nMACAddress=02:00:5E:10:00:0A 02-00-5e-10-00-0b\n");

	/* Case-insensitive, either separator. */
	g_assert_true(joind_profile_matches_link(p, "eth0", "02:00:5e:10:00:0a"));
	g_assert_true(joind_profile_matches_link(p, NULL, "02:00:5E:10:00:0A"));
	g_assert_true(joind_profile_matches_link(p, "x", "02:00:5E:10:00:0B"));
	g_assert_false(joind_profile_matches_link(p, "eth0", "02:00:5e:10:00:0c"));
	g_assert_false(joind_profile_matches_link(p, "eth0", NULL));
	g_assert_false(joind_profile_matches_link(p, "eth0", "garbage"));
}

static void
test_wired_both(void)
{
	g_autoptr(JoindProfile) p =
	        wired("[Match]\nInterface=eth*\nMACAddress=02:00:00:aa:bb:cc\n");

	g_assert_true(joind_profile_matches_link(p, "eth1", "02:00:00:AA:BB:CC"));
	g_assert_false(joind_profile_matches_link(p, "eth1", "02:00:00:aa:bb:cd"));
	g_assert_false(joind_profile_matches_link(p, "enp1s0", "02:00:00:aa:bb:cc"));
}

static void
test_wired_no_match(void)
{
	g_autoptr(JoindProfile) none = wired("");
	g_autoptr(JoindProfile) empty = wired("[Match]\n");
	g_autoptr(JoindProfile) unknown = wired("[Match]\nName=eth0\n");

	/* Loaded, reported, and matching nothing. */
	g_assert_nonnull(strstr(joind_profile_get_warnings(none),
	                        "/var/lib/joind/wired/office.8021x: no Interface= or MACAddress="));
	g_assert_nonnull(
	        strstr(joind_profile_get_warnings(empty), "office.8021x:1: no Interface="));
	g_assert_nonnull(strstr(joind_profile_get_warnings(unknown),
	                        "office.8021x:2: [Match] Name= is not a match joind knows"));
	g_assert_false(joind_profile_matches_link(none, "eth0", "02:00:00:aa:bb:cc"));
	g_assert_false(joind_profile_matches_link(empty, "eth0", "02:00:00:aa:bb:cc"));
	g_assert_false(joind_profile_matches_link(unknown, "eth0", "02:00:00:aa:bb:cc"));
}

/* ---- Key files ----------------------------------------------------------- */

static void
test_keyfile_find_line(void)
{
	const gchar *text = "[A]\n"
	                    "Key=1\n"
	                    "[B]\n"
	                    "Key=2\n"
	                    "  Key2 = x\n"
	                    "[A]\n"
	                    "Key\t= 3\n";

	/* GKeyFile uses the last value of a key: so does the line. */
	g_assert_cmpuint(joind_keyfile_find_line(text, "A", "Key"), ==, 7);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", "Key"), ==, 4);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", "Key2"), ==, 5);
	g_assert_cmpuint(joind_keyfile_find_line(text, "B", NULL), ==, 3);
	g_assert_cmpuint(joind_keyfile_find_line(text, "C", NULL), ==, 0);
	g_assert_cmpuint(joind_keyfile_find_line(text, "A", "Ke"), ==, 0);
	g_assert_cmpuint(joind_keyfile_find_line(NULL, "A", "Key"), ==, 0);
}

static void
test_keyfile_values(void)
{
	const gchar *text =
	        "[A]\r\nKey = value with trailing space \r\n[@pem@x]\r\nabc=\r\n[B]\nK=v";
	g_autoptr(GError) error = NULL;
	GHashTable *pems = NULL;
	g_autoptr(GKeyFile) kf =
	        joind_keyfile_parse("f", (const guint8 *)text, strlen(text), &pems, &error);
	g_autofree gchar *value = NULL;
	g_autofree gchar *last = NULL;

	g_assert_no_error(error);
	value = g_key_file_get_string(kf, "A", "Key", NULL);
	last = g_key_file_get_string(kf, "B", "K", NULL);
	g_assert_cmpstr(value, ==, "value with trailing space ");
	g_assert_cmpstr(last, ==, "v");
	g_assert_false(g_key_file_has_key(kf, "@pem@x", "abc", NULL));
	g_assert_cmpstr(g_hash_table_lookup(pems, "x"), ==, "abc=\n");
	g_hash_table_unref(pems);
}

/* Values set in place, added after the group's last key, escaped so that
 * they read back the same; comments, other groups, embedded PEMs and CRLF
 * lines elsewhere kept as they were. */
static void
test_keyfile_set_strings(void)
{
	const gchar *text = "# note\n"
	                    "[Match]\n"
	                    "Interface=en*\n"
	                    "[Security]\n"
	                    "EAP-Method=MD5\n"
	                    "EAP-Identity = bob\r\n"
	                    "# after\n"
	                    "\n"
	                    "[@pem@ca]\n"
	                    "-----BEGIN CERTIFICATE-----\n"
	                    "EAP-Identity=not a key\n"
	                    "-----END CERTIFICATE-----\n"
	                    "[Settings]\n"
	                    "X=1";
	const gchar *const keys[] = {"EAP-Identity", "EAP-Password", "EAP-Other", NULL};
	const gchar *const values[] = {"alice", " se\\cr\net", "o", NULL};
	const gchar *expected = "# note\n"
	                        "[Match]\n"
	                        "Interface=en*\n"
	                        "[Security]\n"
	                        "EAP-Method=MD5\n"
	                        "EAP-Identity=alice\n"
	                        "EAP-Password=\\sse\\\\cr\\net\n"
	                        "EAP-Other=o\n"
	                        "# after\n"
	                        "\n"
	                        "[@pem@ca]\n"
	                        "-----BEGIN CERTIFICATE-----\n"
	                        "EAP-Identity=not a key\n"
	                        "-----END CERTIFICATE-----\n"
	                        "[Settings]\n"
	                        "X=1\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(GKeyFile) kf = NULL;
	g_autofree gchar *out = NULL;
	g_autofree gchar *password = NULL;
	gsize len = 0;

	out = joind_keyfile_set_strings(text, strlen(text), "Security", keys, values, &len);
	g_assert_cmpstr(out, ==, expected);
	g_assert_cmpuint(len, ==, strlen(expected));
	kf = joind_keyfile_parse("f", (const guint8 *)out, len, NULL, &error);
	g_assert_no_error(error);
	password = g_key_file_get_string(kf, "Security", "EAP-Password", NULL);
	g_assert_cmpstr(password, ==, values[1]);
}

/* A group the text lacks is appended; an empty text gets just it. */
static void
test_keyfile_set_strings_new_group(void)
{
	const gchar *const keys[] = {"A", "B", NULL};
	const gchar *const values[] = {"1", "2", NULL};
	g_autofree gchar *out = NULL;
	g_autofree gchar *empty = NULL;

	out = joind_keyfile_set_strings("[G]\nK=v", 7, "Security", keys, values, NULL);
	g_assert_cmpstr(out, ==, "[G]\nK=v\n\n[Security]\nA=1\nB=2\n");
	empty = joind_keyfile_set_strings("", 0, "Security", keys, values, NULL);
	g_assert_cmpstr(empty, ==, "[Security]\nA=1\nB=2\n");
}

static void
test_parse_remember_credentials(void)
{
	g_autoptr(JoindProfile) p =
	        parse_ok(JOIND_PROFILE_TYPE_8021X, "[Security]\nEAP-Method=MD5\n"
	                                           "EAP-RememberCredentials=true\n");
	g_autoptr(GError) error = NULL;
	g_autoptr(JoindProfile) bad = parse(PATH, JOIND_PROFILE_TYPE_8021X,
	                                    "[Security]\nEAP-Method=MD5\n"
	                                    "EAP-RememberCredentials=often\n",
	                                    &error);

	g_assert_true(joind_profile_get_boolean(p, "Security", "EAP-RememberCredentials", FALSE));
	g_assert_null(bad);
	g_assert_error(error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE);
	g_assert_nonnull(strstr(error->message, ":3: EAP-RememberCredentials"));
	g_assert_nonnull(strstr(error->message, "not a boolean"));
}

static gchar *
changes_of(const gchar *a_text, const gchar *b_text)
{
	g_autoptr(JoindProfile) a = parse_ok(JOIND_PROFILE_TYPE_WIRED, a_text);
	g_autoptr(JoindProfile) b = parse_ok(JOIND_PROFILE_TYPE_WIRED, b_text);
	g_auto(GStrv) changed = joind_profile_security_changes(a, b);

	return changed != NULL ? g_strjoinv(",", changed) : g_strdup("(other)");
}

static void
test_security_changes(void)
{
	const gchar *base = "[Match]\nInterface=en*\n[Security]\nEAP-Method=MD5\n";
	g_autofree gchar *with_pw = g_strconcat(base, "EAP-Password=x\n", NULL);
	const gchar *other_match =
	        "[Match]\nInterface=eth*\n[Security]\nEAP-Method=MD5\nEAP-Password=x\n";
	g_autofree gchar *with_pem = g_strconcat(base, "[@pem@a]\nabc\n", NULL);
	g_autofree gchar *same = changes_of(base, base);
	g_autofree gchar *added = changes_of(base, with_pw);
	g_autofree gchar *removed = changes_of(with_pw, base);
	g_autofree gchar *method = NULL;
	g_autofree gchar *match = changes_of(with_pw, other_match);
	g_autofree gchar *pem = changes_of(base, with_pem);
	g_autofree gchar *comment = NULL;

	g_assert_cmpstr(same, ==, "");
	g_assert_cmpstr(added, ==, "EAP-Password");
	g_assert_cmpstr(removed, ==, "EAP-Password");
	method = changes_of(with_pw, "[Match]\nInterface=en*\n[Security]\nEAP-Method=GTC\n"
	                             "EAP-Password=y\n");
	g_assert_cmpstr(method, ==, "EAP-Method,EAP-Password");
	g_assert_cmpstr(match, ==, "(other)");
	g_assert_cmpstr(pem, ==, "(other)");
	comment = changes_of(base, "# hello\n[Match]\nInterface=en*\n[Security]\n"
	                           "EAP-Method=MD5\n");
	g_assert_cmpstr(comment, ==, "");
}

int
main(int argc, char **argv)
{
	const JoindEapMethodOps *const methods[] = {&eap_md5_ops,  &eap_tls_ops,      &eap_peap_ops,
	                                            &eap_ttls_ops, &eap_mschapv2_ops, &eap_gtc_ops,
	                                            &eap_pwd_ops};

	g_test_init(&argc, &argv, NULL);
	/* As the plugin loader declares them from the WiFi plugin's manifest. */
	joind_profile_keys_declare(wifi_profile_keys);
	/* What the method plugins register in the daemon before profiles load. */
	for (gsize i = 0; i < G_N_ELEMENTS(methods); i++)
		g_assert_true(joind_eap_register_method(methods[i], NULL));

	g_test_add_func("/profile/filename/plain", test_filename_plain);
	g_test_add_func("/profile/filename/hex", test_filename_hex);
	g_test_add_func("/profile/filename/roundtrip", test_filename_roundtrip);
	g_test_add_func("/profile/filename/rejects", test_filename_rejects);
	g_test_add_func("/profile/parse/open", test_parse_open);
	g_test_add_func("/profile/parse/psk", test_parse_psk);
	g_test_add_func("/profile/parse/psk-without-secret", test_parse_psk_without_secret);
	g_test_add_func("/profile/parse/8021x", test_parse_8021x);
	g_test_add_func("/profile/parse/display-name", test_parse_display_name);
	g_test_add_func("/profile/parse/unknown-method-refused", test_parse_unknown_method_refused);
	g_test_add_func("/profile/parse/method-check", test_parse_method_check);
	g_test_add_func("/profile/parse/bad", test_parse_bad);
	g_test_add_func("/profile/parse/all-problems", test_parse_all_problems);
	g_test_add_func("/profile/parse/unknown-keys", test_parse_unknown_keys);
	g_test_add_func("/profile/parse/iwd-keys", test_parse_iwd_keys);
	g_test_add_func("/profile/parse/unknown-eap-keys", test_parse_unknown_eap_keys);
	g_test_add_func("/profile/parse/embed-every-key", test_parse_embed_every_key);
	g_test_add_func("/profile/parse/encrypted-security", test_parse_encrypted_security);
	g_test_add_func("/profile/keyfile/rewrite-keeps-ip-groups", test_rewrite_keeps_ip_groups);
	g_test_add_func("/profile/parse/load-file", test_parse_load_file);
	g_test_add_func("/profile/wired/glob", test_wired_glob);
	g_test_add_func("/profile/wired/mac", test_wired_mac);
	g_test_add_func("/profile/wired/both", test_wired_both);
	g_test_add_func("/profile/wired/no-match", test_wired_no_match);
	g_test_add_func("/profile/keyfile/find-line", test_keyfile_find_line);
	g_test_add_func("/profile/keyfile/values", test_keyfile_values);
	g_test_add_func("/profile/keyfile/set-strings", test_keyfile_set_strings);
	g_test_add_func("/profile/keyfile/set-strings/new-group",
	                test_keyfile_set_strings_new_group);
	g_test_add_func("/profile/parse/remember-credentials", test_parse_remember_credentials);
	g_test_add_func("/profile/security-changes", test_security_changes);
	return g_test_run();
}
