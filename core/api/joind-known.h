/* joind-known.h - what joind learned about known networks (ABI 1.3).
 *
 * The core keeps, per known network (SSID + profile type), the frequencies
 * its BSSes were last connected on or seen on, most recent first, and the
 * time of the last connection, in <state-dir>/state.json. The wifi plugin
 * records what it learns here and reads it back to scan only the remembered
 * channels first after a start or a link loss. The last-connected time is
 * also what net.joind.KnownNetwork1.LastConnectedTime shows.
 */
#pragma once

#include <glib.h>

#include "joind-export.h"
#include "joind-profile.h"

G_BEGIN_DECLS

typedef struct _JoindCore JoindCore;

/* At most this many frequencies are remembered per network. */
#define JOIND_KNOWN_MAX_FREQUENCIES 8

/* A connection succeeded on freq (MHz): it moves to the front of the
 * network's frequencies and the last-connected time becomes now. Written
 * to state.json (atomically) before it returns; a failure to write is
 * logged, not fatal. */
JOIND_EXPORT void joind_core_note_connected(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                            JoindProfileType type, guint32 freq);
/* A BSS of a known network was seen on freq: it joins the frequencies (at
 * the back if new). state.json is only rewritten when the set changed. */
JOIND_EXPORT void joind_core_note_seen(JoindCore *self, const guint8 *ssid, gsize ssid_len,
                                       JoindProfileType type, guint32 freq);
/* The remembered frequencies, most recent first (element type guint32);
 * an empty array when none. Free with g_array_unref(). */
JOIND_EXPORT GArray *joind_core_get_known_frequencies(JoindCore *self, const guint8 *ssid,
                                                      gsize ssid_len, JoindProfileType type);
/* Unix time (seconds) of the last successful connection, 0 when never. */
JOIND_EXPORT gint64 joind_core_get_last_connected(JoindCore *self, const guint8 *ssid,
                                                  gsize ssid_len, JoindProfileType type);

G_END_DECLS
