/* joind-log.h - log lines an administrator can filter in the journal.
 *
 * State changes, failures and authorisations are logged through GLib's
 * structured logging with fields of their own, so that under systemd
 * `journalctl -u joind JOIND_DEVICE=wlan0` (or MESSAGE_ID=..., JOIND_STATE=...)
 * finds them; outside the journal they read as ordinary timestamped lines
 * (ABI 1.5).
 */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

/* What a line reports; each kind has a fixed MESSAGE_ID (joind(8)). */
typedef enum {
	JOIND_LOG_STATE_CHANGE,  /* a state machine moved on */
	JOIND_LOG_FAILURE,       /* a connection or authentication failed */
	JOIND_LOG_AUTHORIZATION, /* a port opened: 802.1X or WPA keys, or access was decided */
} JoindLogKind;

#define JOIND_LOG_ID_STATE_CHANGE  "bca9a7c4b596415aa1a5a105320ef380"
#define JOIND_LOG_ID_FAILURE       "ed7d1daa02eb4353ba7c0cbb528a8738"
#define JOIND_LOG_ID_AUTHORIZATION "797099737bd34803af36c3ae9d562c85"

/* Whom a line is about; every member may be NULL (no such field). */
typedef struct {
	const gchar *plugin;  /* JOIND_PLUGIN: the plugin's name, "wifi" */
	const gchar *device;  /* JOIND_DEVICE: the interface name */
	const gchar *network; /* JOIND_NETWORK: the network's display name */
	const gchar *machine; /* JOIND_MACHINE: which of the device's state machines,
	                       * "connection" (ABI 3.1) */
} JoindLogSubject;

/* Logs "DEVICE: MACHINE OLD -> NEW (REASON)" (parts that are NULL left out)
 * in domain at level, with JOIND_STATE=NEW, the subject's fields and kind's
 * MESSAGE_ID. JOIND_MACHINE tells the connector's "authenticating" from
 * 802.1X's on the same interface. */
JOIND_EXPORT void joind_log_state_change(const gchar *domain, GLogLevelFlags level,
                                         JoindLogKind kind, const JoindLogSubject *subject,
                                         const gchar *old_state, const gchar *new_state,
                                         const gchar *reason);

/* Logs "DEVICE: MESSAGE" in domain at level with JOIND_DEVICE=DEVICE, so
 * that `journalctl JOIND_DEVICE=wlan0` finds every line about the
 * interface and not only its state changes. device may be NULL (then the
 * line has neither prefix nor field). */
JOIND_EXPORT void joind_log_device(const gchar *domain, GLogLevelFlags level, const gchar *device,
                                   const gchar *format, ...) G_GNUC_PRINTF(4, 5);

/* The usual levels, in the including file's G_LOG_DOMAIN. */
#define joind_dev_debug(device, ...) \
	joind_log_device(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, (device), __VA_ARGS__)
#define joind_dev_info(device, ...) \
	joind_log_device(G_LOG_DOMAIN, G_LOG_LEVEL_INFO, (device), __VA_ARGS__)
#define joind_dev_message(device, ...) \
	joind_log_device(G_LOG_DOMAIN, G_LOG_LEVEL_MESSAGE, (device), __VA_ARGS__)
#define joind_dev_warning(device, ...) \
	joind_log_device(G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, (device), __VA_ARGS__)

G_END_DECLS
