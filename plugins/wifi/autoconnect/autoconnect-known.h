/* autoconnect-known.h - what autoconnect learns from the core about the
 * networks it may join: which profiles let a network autoconnect, the
 * frequencies remembered for them (the quick scan), and where they were
 * seen (state.json).
 */
#pragma once

#include "autoconnect-retry.h"
#include "joind.h"
#include "network.h"

G_BEGIN_DECLS

/* Known, AutoConnect not false, and joinable without asking anyone. */
gboolean wifi_known_autoconnects(JoindProfile *profile);

/* The remembered frequencies of every network that autoconnects, most
 * recently connected first (NULL: none). */
GArray *wifi_known_quick_freqs(JoindCore *core);
/* Remembers the frequencies the known networks among networks were seen
 * on by the last scan. */
void wifi_known_note_seen(JoindCore *core, GPtrArray *networks);
/* networks (JoindNetwork) as the chooser sees them (WifiAutoCandidate);
 * blocked ones as retry says. */
GArray *wifi_known_candidates(GPtrArray *networks, WifiAutoRetry *retry);

G_END_DECLS
