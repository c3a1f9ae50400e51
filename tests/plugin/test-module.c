/* test-module.c - plugins for the loader tests (some misbehave on
 * purpose), built several times with different TEST_MODULE_* defines. */
#include "joind.h"

#ifdef TEST_MODULE_BAD_ABI
/* A plugin from a future, incompatible joind: only the first two fields
 * may be trusted, so the rest of this struct is deliberately garbage. */
__attribute__((visibility("default"))) extern const guint32 joind_plugin_descriptor[4];
const guint32 joind_plugin_descriptor[4] = {99, 4, 0xdead, 0xbeef};
#elif defined(TEST_MODULE_EAP)
/* An EAP method plugin: opened only when a profile names TESTLAZY. */
static gpointer
test_eap_state_new(JoindEapSession *session, GError **error)
{
	return g_new0(guint8, 1);
}

static JoindEapMethodResult
test_eap_handle_request(JoindEapSession *session, gpointer state, guint8 id, const guint8 *data,
                        gsize len, GByteArray *response, GError **error)
{
	return joind_eap_method_fail(error, JOIND_ERROR_AUTHENTICATION_FAILED,
	                             "the test method never succeeds");
}

static const JoindEapMethodOps test_eap_ops = {
        .type = 200,
        .name = "TESTLAZY",
        .flags = JOIND_EAP_METHOD_FLAG_OUTER,
        .state_new = test_eap_state_new,
        .state_free = g_free,
        .handle_request = test_eap_handle_request,
};

JOIND_EAP_METHOD_PLUGIN_DEFINE(TEST_MODULE_NAME, "An EAP method opened on demand", test_eap_ops);
#else

#ifdef TEST_MODULE_ENABLED_BY
/* Opened only when main.conf says [TestLazy] Enabled=true. */
static const JoindConfigKey test_module_keys[] = {
        {"TestLazy", "Enabled", JOIND_CONFIG_BOOL, "false", 0, 0, NULL},
        {NULL, NULL, 0, NULL, 0, 0, NULL},
};
#define TEST_MODULE_KEYS         test_module_keys
#define TEST_MODULE_FLAGS        JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED
#define TEST_MODULE_PROFILE_KEYS NULL
#elif defined(TEST_MODULE_WITH_RADIO)
/* A profile key of its own, checked while the module is still closed. */
static const JoindProfileKey test_module_profile_keys[] = {
        {JOIND_PROFILE_KEY_IN(JOIND_PROFILE_TYPE_OPEN), "Settings", "TestRadioFlag",
         JOIND_PROFILE_KEY_BOOL, NULL, NULL},
        {0, NULL, NULL, 0, NULL, NULL},
};
#define TEST_MODULE_KEYS         NULL
#define TEST_MODULE_PROFILE_KEYS test_module_profile_keys
#define TEST_MODULE_FLAGS        JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO
#else
#define TEST_MODULE_KEYS         NULL
#define TEST_MODULE_PROFILE_KEYS NULL
#define TEST_MODULE_FLAGS        0
#endif

static gboolean
test_module_init(JoindCore *core, GError **error)
{
#ifdef TEST_MODULE_INIT_FAILS
	g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                    "the test plugin refuses to start");
	return FALSE;
#else
	g_info("test plugin %s started", TEST_MODULE_NAME);
	return TRUE;
#endif
}

static void
test_module_shutdown(JoindCore *core)
{
}

JOIND_PLUGIN_DEFINE_KEYS(TEST_MODULE_NAME, "A plugin for the loader tests", TEST_MODULE_PRIORITY,
                         test_module_init, test_module_shutdown, NULL, TEST_MODULE_KEYS,
                         TEST_MODULE_PROFILE_KEYS, TEST_MODULE_FLAGS);
#endif
