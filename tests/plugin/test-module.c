/* test-module.c - plugins that misbehave on purpose, built several times
 * with different TEST_MODULE_* defines. */
#include "joind.h"

#ifdef TEST_MODULE_BAD_ABI
/* A plugin from a future, incompatible joind: only the first two fields
 * may be trusted, so the rest of this struct is deliberately garbage. */
__attribute__((visibility("default"))) extern const guint32 joind_plugin_descriptor[4];
const guint32 joind_plugin_descriptor[4] = {JOIND_PLUGIN_ABI_MAJOR + 98, 4, 0xdead, 0xbeef};
#else

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

JOIND_PLUGIN_DEFINE(TEST_MODULE_NAME, "A plugin for the loader tests", TEST_MODULE_PRIORITY,
                    test_module_init, test_module_shutdown);
#endif
