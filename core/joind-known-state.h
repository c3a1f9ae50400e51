/* joind-known-state.h - the core's memory of known networks (state.json).
 *
 * Private to the core; plugins reach it through core/api/joind-known.h.
 * Each known network (SSID + profile type) has an entry keyed by its id,
 * "<ssid-hex>_<open|psk|8021x>" (the last part of its KnownNetwork1 path),
 * holding the frequencies it was connected on or seen on (most recent
 * first, at most JOIND_KNOWN_MAX_FREQUENCIES), the time of the last
 * connection and whether joind itself wrote the profile. The file:
 *
 *   {"version": 1,
 *    "networks": {"486f6d65_psk": {"frequencies": [2437, 5180],
 *                                  "last_connected": "2026-12-03T11:00:00Z",
 *                                  "source": "user"}}}
 *
 * Every change is written at once (atomically), and only a change is.
 */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

#define JOIND_KNOWN_STATE_VERSION 1

typedef struct _JoindKnownState JoindKnownState;

/* "<ssid-hex>_<type>", or NULL for an empty or over-long SSID or a wired
 * type. */
gchar *joind_known_network_id(const guint8 *ssid, gsize ssid_len, JoindProfileType type);
/* The id of a network profile's entry (NULL for a wired profile). */
gchar *joind_known_network_id_for_profile(JoindProfile *profile);
/* The SSID (into ssid, which holds JOIND_KNOWN_SSID_MAX_LEN bytes) and
 * type an id names; FALSE when it is not one joind_known_network_id()
 * gives. */
#define JOIND_KNOWN_SSID_MAX_LEN 32
gboolean joind_known_network_id_parse(const gchar *id, guint8 *ssid, gsize *ssid_len,
                                      JoindProfileType *type);
/* ISO 8601 in UTC ("2026-12-03T11:00:00Z"); "" for 0 (never). */
gchar *joind_known_time_to_string(gint64 unix_time);

/* state_dir may be NULL (nothing is read or written then). */
JoindKnownState *joind_known_state_new(const gchar *state_dir);
void joind_known_state_free(JoindKnownState *self);
/* Reads <state-dir>/state.json. A missing file is an empty memory; one
 * that cannot be parsed or has the wrong shape is reported (path and why),
 * renamed to state.json.bad and replaced by an empty memory. Never fails. */
void joind_known_state_load(JoindKnownState *self);
const gchar *joind_known_state_get_path(JoindKnownState *self);

/* The mutations below write the file before they return when the memory
 * changed (a failure to write is logged once per distinct reason). */
void joind_known_state_note_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                      JoindProfileType type, guint32 freq, gint64 now);
void joind_known_state_note_seen(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, guint32 freq);
/* Did joind write this network's profile itself (Source "user") or was
 * it dropped in (Source "admin", the default)? */
void joind_known_state_set_user_saved(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                      JoindProfileType type, gboolean user_saved);
/* Forgets the network (its profile is gone). */
void joind_known_state_remove(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                              JoindProfileType type);
/* Forgets every network whose id is not in ids (a set of ids): profiles
 * deleted while joind was not running. */
void joind_known_state_retain(JoindKnownState *self, GHashTable *ids);

GArray *joind_known_state_get_frequencies(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                          JoindProfileType type);
gint64 joind_known_state_get_last_connected(JoindKnownState *self, const guint8 *ssid,
                                            gsize ssid_len, JoindProfileType type);
gboolean joind_known_state_get_user_saved(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                          JoindProfileType type);
/* How many networks are remembered. */
guint joind_known_state_get_n_networks(JoindKnownState *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(JoindKnownState, joind_known_state_free)

G_END_DECLS
