/* test-station.h - the supplicant side of the handshake tests: a
 * WifiHandshake configured to match a TestAuth, whose callbacks record the
 * frames it sends, the keys it installs and its transitions; and the
 * checks the tests share. */
#pragma once

#include <glib.h>

#include "rsn-handshake.h"
#include "test-authenticator.h"

G_BEGIN_DECLS

typedef struct {
	WifiKeyKind kind;
	guint id, cipher;
	GBytes *key, *seq;
	gboolean has_addr;
} Installed;

typedef struct {
	WifiHandshake *hs;
	GPtrArray *sent;      /* GBytes */
	GPtrArray *installed; /* Installed */
	GString *states;
	GString *ptk_when_sent; /* y/n per frame sent: was a TK installed? */
} Sta;

/* A supplicant configured to match the authenticator (own RSNE and the
 * AP's RSNXE as hex, the latter may be NULL). */
Sta *sta_new(TestAuth *a, const gchar *own_rsne_hex, const gchar *ap_rsnxe_hex);
void sta_free(Sta *sta);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Sta, sta_free)

/* The recording callbacks (user_data is the Sta). */
void sta_send(const guint8 *frame, gsize len, gpointer user_data);
void sta_install(const WifiHandshakeKey *key, gpointer user_data);
GBytes *last_sent(Sta *sta);
/* Feeds a frame and checks the outcome (and error code when not accepted). */
void sta_rx(Sta *sta, GBytes *frame, WifiHandshakeRx expect, gint code);
void auth_accepts(gboolean (*check)(TestAuth *, GBytes *, gchar **), TestAuth *a, GBytes *frame);
/* Messages 1 to 4, each side checking the other. */
void run_4way(Sta *sta, TestAuth *a);
Installed *installed(Sta *sta, guint i);
void assert_installed(Installed *k, WifiKeyKind kind, guint id, guint cipher, const guint8 *key,
                      gsize len);

G_END_DECLS
