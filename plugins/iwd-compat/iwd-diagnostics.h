/* iwd-diagnostics.h - net.connman.iwd.StationDiagnostic: iwd's
 * GetDiagnostics() dictionary from the facts joind's device gives
 * (joind_device_get_diagnostics()).
 */
#pragma once

#include "iwd-iface.h"

G_BEGIN_DECLS

extern const IwdMethod iwd_diagnostic_methods[];

/* iwd's dictionary (a{sv}, floating) for a device's diagnostics, NULL when
 * they name no connection. Keys as iwd 2.3 has them: ConnectedBss (s),
 * Frequency (u), Channel (q), Security (s, "WPA2-Personal", ...), and when
 * known RSSI and AverageRSSI (n, dBm), TxBitrate (u, 100 kbit/s),
 * PairwiseCipher (s), ConnectedTime (u, seconds). */
GVariant *iwd_diagnostics_from_joind(GVariant *diagnostics);

G_END_DECLS
