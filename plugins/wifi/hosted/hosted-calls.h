/* hosted-calls.h - the API calls a network this device hosts (the access
 * point, the ad-hoc network) keeps waiting, and the answers both give
 * alike: a Start waits until the network is up, a Stop until it is down;
 * a Start while it is not idle, or a second Stop, is refused Busy. Every
 * task's result is a boolean (joind-access-point.h, joind-adhoc.h).
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct {
	const gchar *what; /* "access point": for sentences, "The %s ..." */
	GTask *start;      /* waiting for the network to be up */
	GTask *stop;       /* waiting for it to be down */
} WifiHostedCalls;

/* Ends *task with error (taken, also when there is no task) or success. */
void wifi_hosted_task_done(GTask **task, GError *error);

/* A Start's task of source object self, or NULL when it was refused
 * Busy: the network is not idle (state names what it is; NULL: closed) or
 * another Start waits. */
GTask *wifi_hosted_calls_new_start(WifiHostedCalls *calls, gpointer self, gboolean idle,
                                   const gchar *state, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
/* Copies ssid into ssid_out (32 octets) when it has 1 to 32 octets;
 * otherwise answers task InvalidArgs, drops it and returns FALSE. */
gboolean wifi_hosted_take_ssid(GTask *task, const gchar *ssid, guint8 *ssid_out, gsize *ssid_len);

/* A Stop: FALSE when it is answered already (TRUE when the network is
 * idle, Busy when a Stop waits); TRUE when it waits and the caller stops
 * the network. */
gboolean wifi_hosted_calls_stop(WifiHostedCalls *calls, gpointer self, gboolean idle,
                                GCancellable *cancellable, GAsyncReadyCallback callback,
                                gpointer user_data);

/* The network is up: the Start succeeds. */
void wifi_hosted_calls_up(WifiHostedCalls *calls);
/* The network is down: a waiting Start fails with code ("The %s did not
 * start: reason."), a waiting Stop succeeds. */
void wifi_hosted_calls_down(WifiHostedCalls *calls, JoindErrorCode code, const gchar *reason);

G_END_DECLS
