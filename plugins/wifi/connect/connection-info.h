/* connection-info.h - one connected link as plain facts: what the
 * connector fills (wifi_connector_get_connection_info()) and the
 * diagnostics report, so that neither includes the other.
 */
#pragma once

#include <glib.h>

#include "sta-info.h"

G_BEGIN_DECLS

/* One connected link, as the diagnostics report it. */
typedef struct {
	guint8 bssid[6];
	guint32 freq;                /* MHz */
	guint akm;                   /* WifiAkmSuite; 0 for an open network */
	guint pairwise_cipher;       /* WifiCipherSuite; 0 when open */
	guint group_cipher;          /* WifiCipherSuite; 0 when open */
	guint group_mgmt_cipher;     /* WifiCipherSuite; 0 without MFP */
	gboolean mfp;                /* management frame protection in use */
	guint sae_group;             /* SAE: its group; 0 without SAE */
	gboolean sae_h2e;            /* SAE: hash-to-element, else hunting and pecking */
	guint owe_group;             /* OWE: its Diffie-Hellman group; 0 without OWE */
	gboolean ft;                 /* fast transition: in the mobility domain below */
	guint8 mdid[2];              /* as on the air */
	const gchar *transition;     /* the FT roam the link came from ("FT over the air",
	                              * "FT over the DS"), or NULL */
	gint64 connect_started_real; /* µs since the epoch */
	gint64 connected_mono;       /* µs, g_get_monotonic_time() */
	gboolean has_sta;            /* the kernel's facts below are there */
	WifiStaInfo sta;
	/* 802.1X: the EAP method (empty otherwise), the identity sent in the
	 * clear (the outer identity), whether a cached PMKSA skipped EAP (or,
	 * with SAE, the SAE exchange). */
	gchar eap_method[32];
	gchar eap_identity[254];
	gboolean pmksa_used;
	/* A TLS-based method: the TLS version and cipher, the server
	 * certificate's subject and pin; empty otherwise (and when a cached
	 * PMKSA stood in: no TLS ran). */
	gchar tls_version[16];
	gchar tls_cipher[64];
	gchar server_subject[512];
	gchar server_pin[64];
} WifiConnectionInfo;

G_END_DECLS
