/* diagnostics.h - what a connected link is, for Daemon1.GetDiagnostics()
 * (and so `joinctl station DEV show`): BSSID, frequency and channel, RSSI,
 * security (AKM), ciphers, MFP, when the connect started and how long the
 * link has been up; for 802.1X the EAP method, the outer identity,
 * whether a cached PMKSA stood in for EAP and, for TLS-based methods, the
 * TLS version and cipher and the server certificate's subject and pin.
 *
 * The RSSI is asked of the kernel (NL80211_CMD_GET_STATION) when the
 * diagnostics are asked for, never polled.
 */
#pragma once

#include <gio/gio.h>

#include "connection-info.h"
#include "nl80211.h"

G_BEGIN_DECLS

/* The security of a link by its AKM suite, in Network1.Type's words:
 * "open" (0), "psk", "psk-sha256", "8021x", "8021x-sha256", "sae", ...
 * (ciphers: wifi_cipher_suite_to_string()). */
const gchar *wifi_diagnostics_security_name(guint akm);

/* The a{sv} of a link (floating): bssid, frequency, channel, rssi_dbm
 * (when the kernel told), security ("sae-h2e" for SAE with hash-to-element),
 * sae_group, sae_h2e and pmksa_cached (SAE skipped) for SAE, owe_group
 * (OWE), pairwise_cipher,
 * group_cipher, mfp, connect_started (ISO 8601, UTC), connected_seconds (at
 * now_mono) ...; for 802.1X eap_method, eap_identity (when one was sent),
 * pmksa_cached (EAP skipped) and for a TLS-based method tls_version,
 * tls_cipher, server_subject and server_pin. */
GVariant *wifi_diagnostics_connection(const WifiConnectionInfo *info, gint64 now_mono);

/* A server refused for want of trust, for the station's diagnostics (and
 * so `joinctl station DEV show`): from the EAP session's report
 * (joind-eap.h) the certificate's subject, issuer, not_before, not_after,
 * pin and pin_setting (and names, domain_mask_setting when its names were
 * what failed), with network: the profile's name, which `joinctl
 * known-networks trust NAME` (the way through the failure sentence
 * names) takes. NULL (floating otherwise)
 * when report is NULL or says the server was trusted: a failure for
 * another reason leaves nothing to pin. Certificates are public: nothing
 * here is a secret. */
GVariant *wifi_diagnostics_refused_server(GVariant *report, const gchar *network);

/* For the station's diagnostics: a maybe-a{sv} (a full reference from
 * finish, never NULL), Nothing (JSON null) when info is NULL (not
 * connected), so no stale link facts are ever shown. Otherwise the link
 * of info with the kernel's facts, asked now with NL80211_CMD_GET_STATION
 * through nl: without them when the kernel fails, does not answer before
 * nl's deadline or cancellable is cancelled. Never blocks. */
void wifi_diagnostics_link_async(WifiNl *nl, guint32 ifindex, const WifiConnectionInfo *info,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data);
GVariant *wifi_diagnostics_link_finish(GAsyncResult *result);

G_END_DECLS
