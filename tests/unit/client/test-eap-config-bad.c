/* test-eap-config-bad.c - eap-config files that are malformed, hostile
 * (entities, a DOCTYPE, deep nesting, huge base64, a huge file, too many
 * elements) or incomplete: each refused with EAP_CONFIG_ERROR_INVALID and
 * a message naming the element, with its line:column where there is one.
 */
#include <string.h>

#include "eap-config.h"

#define ROOT_OPEN \
	"<?xml version=\"1.0\"?>\n<EAPIdentityProviderList>\n<EAPIdentityProvider ID=\"x\">\n"
#define ROOT_CLOSE "</EAPIdentityProvider>\n</EAPIdentityProviderList>\n"
#define METHOD_OPEN                                                                     \
	"<AuthenticationMethods>\n<AuthenticationMethod>\n<EAPMethod><Type>25</Type></" \
	"EAPMethod>\n"
#define METHOD_CLOSE "</AuthenticationMethod>\n</AuthenticationMethods>\n"
#define APPLIES                                                                \
	"<CredentialApplicability><IEEE80211><SSID>eduroam</SSID></IEEE80211>" \
	"</CredentialApplicability>\n"
/* A whole file with extra inside the method. */
#define IN_METHOD(extra) ROOT_OPEN METHOD_OPEN extra METHOD_CLOSE APPLIES ROOT_CLOSE

typedef struct {
	const gchar *name;
	const gchar *text;
	const gchar *expect; /* in the message */
} BadCase;

static const BadCase cases[] = {
        {"doctype-entity",
         "<?xml version=\"1.0\"?>\n<!DOCTYPE EAPIdentityProviderList [\n"
         "<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;&lol;&lol;\">]>\n"
         "<EAPIdentityProviderList/>",
         "line 2:"},
        {"doctype-says-so", "<!DOCTYPE x SYSTEM \"file:///etc/passwd\"><x/>", "DOCTYPE"},
        {"unknown-entity",
         IN_METHOD("<ClientSideCredential><OuterIdentity>&xxe;"
                   "</OuterIdentity></ClientSideCredential>"),
         "xxe"},
        {"wrong-root", "<EAPIdentityProvider/>", "<EAPIdentityProvider>: an eap-config file"},
        {"attribute-twice",
         "<?xml version=\"1.0\"?>\n<EAPIdentityProviderList>\n"
         "<EAPIdentityProvider ID=\"a\" ID=\"b\">\n" ROOT_CLOSE,
         "line 3:1: <EAPIdentityProvider>: the attribute ID is given twice"},
        {"two-roots", "<EAPIdentityProviderList/><EAPIdentityProviderList/>", NULL},
        {"empty", "", NULL},
        {"unclosed", ROOT_OPEN METHOD_OPEN, NULL},
        {"no-provider", "<EAPIdentityProviderList></EAPIdentityProviderList>",
         "holds no <EAPIdentityProvider>"},
        {"no-methods", ROOT_OPEN APPLIES ROOT_CLOSE, "line 3:"},
        {"no-methods-named", ROOT_OPEN APPLIES ROOT_CLOSE, "<AuthenticationMethods>"},
        {"no-type",
         ROOT_OPEN "<AuthenticationMethods><AuthenticationMethod>"
                   "</AuthenticationMethod></AuthenticationMethods>" APPLIES ROOT_CLOSE,
         "<AuthenticationMethod> has no <EAPMethod><Type>"},
        {"no-applicability", ROOT_OPEN METHOD_OPEN METHOD_CLOSE ROOT_CLOSE,
         "<CredentialApplicability>"},
        {"type-not-number",
         IN_METHOD("<InnerAuthenticationMethod><EAPMethod><Type>mschap"
                   "</Type></EAPMethod></InnerAuthenticationMethod>"),
         "line 7:"},
        {"type-too-big",
         IN_METHOD("<InnerAuthenticationMethod><EAPMethod><Type>256"
                   "</Type></EAPMethod></InnerAuthenticationMethod>"),
         "<Type>: “256” is not a method type"},
        {"type-twice", IN_METHOD("<EAPMethod><Type>21</Type></EAPMethod>"), "a second <Type>"},
        {"both-inner",
         IN_METHOD("<InnerAuthenticationMethod><EAPMethod><Type>26</Type>"
                   "</EAPMethod><NonEAPAuthMethod><Type>1</Type>"
                   "</NonEAPAuthMethod></InnerAuthenticationMethod>"),
         "names both"},
        {"ca-not-base64",
         IN_METHOD("<ServerSideCredential><CA format=\"X.509\" "
                   "encoding=\"base64\">MII$$$==</CA></ServerSideCredential>"),
         "<CA>: not base64"},
        {"ca-bad-padding",
         IN_METHOD("<ServerSideCredential><CA>AB=C</CA>"
                   "</ServerSideCredential>"),
         "padded wrongly"},
        {"ca-empty", IN_METHOD("<ServerSideCredential><CA> </CA></ServerSideCredential>"),
         "<CA>: not base64"},
        {"ca-format",
         IN_METHOD("<ServerSideCredential><CA format=\"PEM\">QUJD</CA>"
                   "</ServerSideCredential>"),
         "only format=\"X.509\""},
        {"client-cert-format",
         IN_METHOD("<ClientSideCredential><ClientCertificate format=\"PKCS12\" "
                   "encoding=\"hex\">00</ClientCertificate></ClientSideCredential>"),
         "<ClientCertificate encoding=\"hex\">"},
        {"server-id-semicolon",
         IN_METHOD("<ServerSideCredential><ServerID>a.example;b</ServerID>"
                   "</ServerSideCredential>"),
         "<ServerID>: “a.example;b” is not a server name"},
        {"outer-identity-twice",
         IN_METHOD("<ClientSideCredential><OuterIdentity>a</OuterIdentity>"
                   "<OuterIdentity>b</OuterIdentity></ClientSideCredential>"),
         "<OuterIdentity>: given twice"},
        {"outer-identity-control",
         IN_METHOD("<ClientSideCredential><OuterIdentity>a\tb</OuterIdentity>"
                   "</ClientSideCredential>"),
         "control character"},
        {"hint-not-bool",
         IN_METHOD("<ClientSideCredential><InnerIdentityHint>yes"
                   "</InnerIdentityHint></ClientSideCredential>"),
         "<InnerIdentityHint>: “yes” is not true or false"},
        {"ssid-too-long",
         ROOT_OPEN METHOD_OPEN METHOD_CLOSE
         "<CredentialApplicability><IEEE80211><SSID>0123456789abcdef0123456789abcdefX"
         "</SSID></IEEE80211></CredentialApplicability>" ROOT_CLOSE,
         "longer than an SSID may be"},
        {"ssid-empty",
         ROOT_OPEN METHOD_OPEN METHOD_CLOSE
         "<CredentialApplicability><IEEE80211><SSID></SSID></IEEE80211>"
         "</CredentialApplicability>" ROOT_CLOSE,
         "<SSID>: empty"},
        {"not-utf8", "<EAPIdentityProviderList>\xff\xfe</EAPIdentityProviderList>", NULL},
        /* GMarkup sets an error for this one and still returns TRUE. */
        {"doctype-not-utf8",
         "<?xml version=\"1.0\"?>\n<!DOCTYPE \x80\x80 a>\n<EAPIdentityProviderList/>",
         "Invalid UTF-8"},
};

static void
expect_refused(const gchar *text, gsize len, const gchar *expect)
{
	g_autoptr(GError) error = NULL;
	EapConfig *config = eap_config_parse((const guint8 *)text, len, &error);

	g_assert_null(config);
	g_assert_error(error, EAP_CONFIG_ERROR, EAP_CONFIG_ERROR_INVALID);
	if (expect != NULL && strstr(error->message, expect) == NULL)
		g_error("“%s” expected in “%s”", expect, error->message);
}

static void
test_case(gconstpointer data)
{
	const BadCase *c = data;

	expect_refused(c->text, strlen(c->text), c->expect);
}

/* ---- made at run time: large and deep -------------------------------------- */

static void
test_deep(void)
{
	g_autoptr(GString) text = g_string_new("<EAPIdentityProviderList>");

	for (guint i = 0; i < 10000; i++)
		g_string_append(text, "<a>");
	expect_refused(text->str, text->len, "<a>: elements nest deeper than 16");
}

static void
test_huge_base64(void)
{
	g_autoptr(GString) text = g_string_new(ROOT_OPEN METHOD_OPEN "<ServerSideCredential><CA>");

	for (guint i = 0; i < EAP_CONFIG_MAX_BASE64 / 4 + 1; i++)
		g_string_append(text, "QUJD");
	g_string_append(text, "</CA></ServerSideCredential>" METHOD_CLOSE APPLIES ROOT_CLOSE);
	g_assert_cmpuint(text->len, <, EAP_CONFIG_MAX_FILE);
	expect_refused(text->str, text->len, "<CA>: its text is longer than 131072 bytes");
}

static void
test_huge_file(void)
{
	gsize len = EAP_CONFIG_MAX_FILE + 1;
	g_autofree gchar *text = g_malloc(len);

	memset(text, ' ', len);
	expect_refused(text, len, "more than an eap-config file may");
}

static void
test_too_many_ssids(void)
{
	g_autoptr(GString) text =
	        g_string_new(ROOT_OPEN METHOD_OPEN METHOD_CLOSE "<CredentialApplicability>");

	for (guint i = 0; i <= EAP_CONFIG_MAX_ITEMS; i++)
		g_string_append_printf(text, "<IEEE80211><SSID>net%u</SSID></IEEE80211>", i);
	g_string_append(text, "</CredentialApplicability>" ROOT_CLOSE);
	expect_refused(text->str, text->len, "<SSID>: more than 64");
}

/* Text in elements joinctl does not read is bounded by the file's size
 * only, and a file within every limit is taken. */
static void
test_limits_taken(void)
{
	g_autoptr(GString) text = g_string_new(ROOT_OPEN METHOD_OPEN "<ServerSideCredential><CA>");
	g_autoptr(EapConfig) config = NULL;
	g_autoptr(GError) error = NULL;

	for (guint i = 0; i < EAP_CONFIG_MAX_BASE64 / 4; i++)
		g_string_append(text, "QUJD");
	g_string_append(text, "</CA></ServerSideCredential>" METHOD_CLOSE APPLIES
	                      "<ProviderInfo><Description>");
	for (guint i = 0; i < 100000; i++)
		g_string_append(text, "words ");
	g_string_append(text, "</Description></ProviderInfo>" ROOT_CLOSE);
	config = eap_config_parse((const guint8 *)text->str, text->len, &error);
	g_assert_no_error(error);
	g_assert_nonnull(config);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *path = g_strconcat("/eap-config/bad/", cases[i].name, NULL);

		g_test_add_data_func(path, &cases[i], test_case);
	}
	g_test_add_func("/eap-config/bad/deep", test_deep);
	g_test_add_func("/eap-config/bad/huge-base64", test_huge_base64);
	g_test_add_func("/eap-config/bad/huge-file", test_huge_file);
	g_test_add_func("/eap-config/bad/too-many-ssids", test_too_many_ssids);
	g_test_add_func("/eap-config/limits-taken", test_limits_taken);
	return g_test_run();
}
