/* joind-hosted.h - what the core's two models of a network this device
 * hosts (JoindAccessPoint, JoindAdHoc) keep and do alike: started, name,
 * security and the list of its members (the access point's stations, the
 * ad-hoc network's peers), their properties and signals, and the answers
 * of a class method a subclass does not implement.
 *
 * Each model keeps a JoindHosted in its private data, numbers its own
 * properties after JOIND_HOSTED_N_PROPS, and passes its props and signals
 * arrays to these functions.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
	gboolean started;
	gchar *name;
	gchar *security;
	GPtrArray *members; /* gchar *, lower case, NULL-terminated */
} JoindHosted;

/* Property ids: 0 is GObject's. */
enum {
	JOIND_HOSTED_PROP_STARTED = 1,
	JOIND_HOSTED_PROP_NAME,
	JOIND_HOSTED_PROP_SECURITY,
	JOIND_HOSTED_PROP_MEMBERS,
	JOIND_HOSTED_N_PROPS
};

enum { JOIND_HOSTED_SIGNAL_JOINED, JOIND_HOSTED_SIGNAL_LEFT, JOIND_HOSTED_N_SIGNALS };

void joind_hosted_init(JoindHosted *hosted);
void joind_hosted_clear(JoindHosted *hosted);

/* Fills props[STARTED..MEMBERS] ("started", "name", "security" and the
 * GStrv named members), installs all n_props of props (the model's own
 * after them) and makes the two signals (joined, left: one string, the
 * member's address). The names must be static strings. */
void joind_hosted_class_install(GObjectClass *klass, GParamSpec **props, guint n_props,
                                guint *signals, const gchar *members, const gchar *joined,
                                const gchar *left);

/* get_property for the shared ids; FALSE for another. */
gboolean joind_hosted_get_property(const JoindHosted *hosted, guint id, GValue *value);

/* Sets name and security (both cleared when stopped), then started,
 * notifying each that changed. The caller freezes notifications around
 * it when it changes properties of its own with them. */
void joind_hosted_set_started(JoindHosted *hosted, GObject *object, GParamSpec **props,
                              gboolean started, const gchar *name, const gchar *security);

/* A member joined or left: the members property and the signal, when the
 * list changed. */
void joind_hosted_member_joined(JoindHosted *hosted, GObject *object, GParamSpec **props,
                                const guint *signals, const gchar *address);
void joind_hosted_member_left(JoindHosted *hosted, GObject *object, GParamSpec **props,
                              const guint *signals, const gchar *address);

/* What a class method the subclass does not implement answers: a
 * NotSupported error saying message, on a task of source object self. */
void joind_hosted_refuse(gpointer self, GAsyncReadyCallback callback, gpointer user_data,
                         const gchar *message);
/* The end of any class method: TRUE, or FALSE with error. */
gboolean joind_hosted_finish(gpointer self, GAsyncResult *result, GError **error);

G_END_DECLS
