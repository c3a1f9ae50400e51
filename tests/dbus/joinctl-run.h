/* joinctl-run.h - running the built joinctl from a test. */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct {
	gint status; /* exit status, or -1 when it died of a signal */
	gchar *out;
	gchar *err;
} Run;

void run_clear(Run *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Run, run_clear)

/* build/client/joinctl */
gchar *joinctl_path(void);
/* Runs joinctl with the NULL-terminated arguments after env (pairs of
 * name, value, NULL-terminated; may be NULL), stdin from /dev/null. The
 * default main context keeps running meanwhile, so a stand-in daemon in the
 * test process answers it. */
void run_joinctl(Run *r, const gchar *const *env, ...) G_GNUC_NULL_TERMINATED;
#define JOINCTL(r, ...) run_joinctl(r, NULL, __VA_ARGS__, NULL)
/* Parses text as JSON (failing the test when it is not). */
JsonNode *parse_json(const gchar *text);

G_END_DECLS
