/* joind-known-state.h - the core's memory of known networks (state.json).
 *
 * Private to the core; plugins reach it through core/api/joind-known.h.
 */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

typedef struct _JoindKnownState JoindKnownState;

/* state_dir may be NULL (nothing is persisted then). */
JoindKnownState *joind_known_state_new(const gchar *state_dir);
void joind_known_state_free(JoindKnownState *self);
void joind_known_state_note_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                      JoindProfileType type, guint32 freq, gint64 now);
void joind_known_state_note_seen(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, guint32 freq);
GArray *joind_known_state_get_frequencies(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                          JoindProfileType type);
gint64 joind_known_state_get_last_connected(JoindKnownState *self, const guint8 *ssid,
                                            gsize ssid_len, JoindProfileType type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindKnownState, joind_known_state_free)

G_END_DECLS
