/* sme.h - the userspace SME of one connect: CMD_AUTHENTICATE (open
 * system), its AUTHENTICATE event, CMD_ASSOCIATE (with our RSN element and
 * the control port attributes), its ASSOCIATE event.
 *
 * joind uses it when the radio lists CMD_AUTHENTICATE and CMD_ASSOCIATE and
 * main.conf does not say UserspaceSME=false; otherwise CMD_CONNECT lets
 * cfg80211 do the same. What follows the association (the 4-way
 * handshake, keys, the authorized port) is the same on both paths, and so
 * is the end: cfg80211 sends a CONNECT event after the association
 * response too (the connector ignores it then) and a DISCONNECT event when
 * an associated link goes down.
 */
#pragma once

#include "bss.h"
#include "iface.h"
#include "rsn.h"

G_BEGIN_DECLS

typedef struct _WifiSme WifiSme;

typedef enum {
	WIFI_SME_RESULT_ASSOCIATED,
	WIFI_SME_RESULT_NO_ANSWER, /* authentication or association timed out */
	WIFI_SME_RESULT_REFUSED,   /* a status code other than success */
	WIFI_SME_RESULT_KERNEL,    /* the kernel refused a command (kernel_error) */
} WifiSmeResult;

/* How the sequence ended (once per wifi_sme_start()); status is the
 * access point's status code for REFUSED, kernel_error a negative errno for
 * KERNEL; stage says which step ("authentication", "association"). */
typedef void (*WifiSmeFunc)(WifiSmeResult result, const gchar *stage, guint16 status,
                            int kernel_error, gpointer user_data);

WifiSme *wifi_sme_new(WifiIface *iface, WifiSmeFunc func, gpointer user_data);
/* Cancels the sequence (no callback after this). */
void wifi_sme_free(WifiSme *self);

/* Starts authenticating to bss; plan is NULL for an open network. The
 * SME keeps a reference to bss; plan is copied. */
void wifi_sme_start(WifiSme *self, WifiBss *bss, const WifiRsnPlan *plan, gboolean control_port_nl);
/* Forgets the sequence under way (the connector deauthenticates). */
void wifi_sme_reset(WifiSme *self);
/* Whether an AUTHENTICATE or ASSOCIATE event is awaited. */
gboolean wifi_sme_is_pending(const WifiSme *self);

/* AUTHENTICATE and ASSOCIATE events of the interface; FALSE when the
 * event was not the one awaited (e.g. of an earlier attempt). */
gboolean wifi_sme_handle_event(WifiSme *self, guint8 cmd, struct nlattr **attrs);

/* The attributes of the commands (for tests, which build messages
 * without a socket). */
void wifi_sme_put_authenticate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss);
void wifi_sme_put_associate(struct nl_msg *msg, guint32 ifindex, const WifiBss *bss,
                            const WifiRsnPlan *plan, gboolean control_port_nl);
void wifi_sme_put_deauthenticate(struct nl_msg *msg, guint32 ifindex, const guint8 *bssid,
                                 guint16 reason);

/* "success", "refused" and so on for a few IEEE 802.11 status codes, else
 * "status N" (in buf). */
const gchar *wifi_sme_status_to_string(guint16 status, gchar buf[16]);

G_END_DECLS
