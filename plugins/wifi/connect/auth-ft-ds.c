/* auth-ft-ds.c - fast transition over the DS (IEEE 802.11-2020 13.5.2)
 * as the connector's way to roam within a mobility domain whose target
 * advertises it (its MDE's "FT over the DS" bit): the FT Request (our
 * RSNE with PMKR0Name, the MDE, our FTE) goes in an FT Action frame to
 * the access point we are still associated with, which forwards it to
 * the target over the distribution system; the target's FT Response
 * comes back the same way. Then the reassociation to the target, as
 * over the air (auth-ft.c checks the answers, auth-ft-air.c keys). The
 * old link carries the exchange, so until the reassociation nothing is
 * lost: a current access point that refuses, does not forward or does
 * not answer in time leaves the transition to FT over the air. */
#include "auth-method.h"

#include <errno.h>
#include <string.h>

#include "action.h"
#include "frame.h"
#include "ft-action.h"
#include "joind-mac.h"
#include "sme.h"

/* hostapd forwards and answers through RRB in milliseconds; a current
 * access point that does not forward costs no more than this. */
#define FT_DS_TIMEOUT_MS 1000

static const guint8 match_ft_response[] = {WIFI_ACTION_FT, WIFI_FT_ACTION_RESPONSE};

typedef struct {
	guint timer;
	guint request; /* REGISTER_FRAME, then FRAME */
} FtDs;

static void
ds_release(WifiConnector *self)
{
	FtDs *ds = self->method_data;

	if (ds == NULL)
		return;
	g_clear_handle_id(&ds->timer, g_source_remove);
	if (ds->request != 0)
		wifi_nl_cancel(self->iface->nl, ds->request);
	g_free(ds);
	self->method_data = NULL;
}

/* The exchange through the current access point failed: FT over the
 * air with a fresh SNonce instead (the target may well answer it). */
static void
ds_fall_back(WifiConnector *self, const gchar *why)
{
	wifi_iface_info(self->iface, "“%s”: FT over the DS failed (%s): FT over the air instead",
	                wifi_attempt_get_name(self->cur), why);
	ds_release(self);
	self->cur->ft_over_ds = FALSE;
	g_clear_pointer(&self->keying, wifi_keying_free);
	self->method = &wifi_auth_ft_air;
	self->method->go(self, "FT over the DS failed");
}

static gboolean
ds_timeout(gpointer user_data)
{
	WifiConnector *self = user_data;
	FtDs *ds = self->method_data;
	g_autofree gchar *why =
	        g_strdup_printf("no FT Response within %u ms", (guint)FT_DS_TIMEOUT_MS);

	ds->timer = 0;
	ds_fall_back(self, why);
	return G_SOURCE_REMOVE;
}

static void
ds_sent(int error, gpointer user_data)
{
	WifiConnector *self = user_data;
	FtDs *ds = self->method_data;
	g_autofree gchar *why = NULL;

	ds->request = 0;
	if (error >= 0)
		return;
	why = g_strdup_printf("the FT Request was not sent: %s", g_strerror(-error));
	ds_fall_back(self, why);
}

/* The FT Request: the plan holds what an FT authentication request
 * would carry (wifi_attempt_ft_begin()). */
static void
ds_send(WifiConnector *self)
{
	const WifiRsnPlan *plan = &self->cur->plan;
	FtDs *ds = self->method_data;
	g_autoptr(GByteArray) ies = g_byte_array_new();
	g_autoptr(GBytes) body = NULL;
	g_autoptr(GBytes) frame = NULL;

	g_byte_array_append(ies, plan->own_rsne, (guint)plan->own_rsne_len);
	g_byte_array_append(ies, plan->own_mde, (guint)plan->own_mde_len);
	g_byte_array_append(ies, plan->own_fte, (guint)plan->own_fte_len);
	body = wifi_ft_action_request_build(self->cur->spa, self->cur->bss->bssid, ies->data,
	                                    ies->len);
	frame = wifi_action_build(self->roam_from, self->cur->spa, g_bytes_get_data(body, NULL),
	                          g_bytes_get_size(body));
	ds->request = wifi_frame_send(self->iface->nl, self->iface->ifindex, frame, ds_sent, self);
}

static void
ds_registered(int error, gpointer user_data)
{
	WifiConnector *self = user_data;
	FtDs *ds = self->method_data;
	g_autofree gchar *why = NULL;

	ds->request = 0;
	if (wifi_frame_register_status(error) >= 0) {
		ds_send(self);
		return;
	}
	why = g_strdup_printf("the kernel does not pass FT Responses up: %s", g_strerror(-error));
	ds_fall_back(self, why);
}

/* AUTHENTICATING entered: the kernel passes FT Responses up, then the
 * request goes. */
static void
ds_authenticate(WifiConnector *self)
{
	FtDs *ds = g_new0(FtDs, 1);

	ds_release(self);
	self->method_data = ds;
	ds->timer = g_timeout_add(FT_DS_TIMEOUT_MS, ds_timeout, self);
	ds->request = wifi_frame_register(self->iface->nl, self->iface->ifindex,
	                                  WIFI_FRAME_TYPE_ACTION, match_ft_response,
	                                  sizeof(match_ft_response), ds_registered, self);
}

static void
ds_go(WifiConnector *self, const gchar *reason)
{
	g_autoptr(GError) error = NULL;
	gchar via[JOIND_MAC_STRING_LEN];

	if (!wifi_attempt_ft_begin(self->cur, &error)) {
		wifi_auth_ft_fall_back(self, error->message);
		return;
	}
	/* No FT authentication frame goes to the target: the request
	 * travels in the action frame. */
	self->cur->plan.ft_over_air = FALSE;
	self->cur->ft_over_ds = TRUE;
	wifi_iface_info(self->iface, "“%s”: FT over the DS through %s",
	                wifi_attempt_get_name(self->cur),
	                joind_mac_to_string(self->roam_from, via));
	wifi_auth_open_go(self, reason);
}

/* Whether frame (an action frame the kernel passed up) is our FT
 * Response, from the current access point about our target; *ft is it. */
static gboolean
ds_is_response(WifiConnector *self, struct nlattr **attrs, WifiFtAction *ft)
{
	WifiActionFrame action;
	const guint8 *data;
	gsize len = 0;

	data = wifi_frame_from_event(attrs, &len);
	return data != NULL && wifi_action_parse(data, len, &action, NULL) &&
	       memcmp(action.sa, self->roam_from, 6) == 0 &&
	       wifi_ft_action_parse(action.body, action.body_len, ft, NULL) &&
	       ft->action == WIFI_FT_ACTION_RESPONSE && memcmp(ft->sta, self->cur->spa, 6) == 0 &&
	       memcmp(ft->target, self->cur->bss->bssid, 6) == 0;
}

static gboolean
ds_rx_action(WifiConnector *self, struct nlattr **attrs)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *refused = NULL;
	WifiFtAction ft;

	if (self->method_data == NULL || !ds_is_response(self, attrs, &ft))
		return FALSE;
	if (ft.status != 0) {
		refused = wifi_sme_refusal_message("FT Request", FALSE, ft.status);
		ds_fall_back(self, refused);
		return TRUE;
	}
	if (!wifi_attempt_ft_authenticated(self->cur, ft.ies, ft.ies_len, &error)) {
		ds_fall_back(self, error->message);
		return TRUE;
	}
	ds_release(self);
	connector_enter(self, connector_association_state(self), "FT over the DS accepted");
	return TRUE;
}

/* The reassociation failed: the target had answered, so only a full
 * reassociation is left. */
static gboolean
ds_refused(WifiConnector *self, guint8 cmd, gboolean timed_out, guint16 status)
{
	g_autofree gchar *message = wifi_sme_refusal_message("FT reassociation", timed_out, status);

	if (self->cur->ft_air == NULL)
		return FALSE;
	wifi_auth_ft_fall_back(self, message);
	return TRUE;
}

const WifiAuthMethod wifi_auth_ft_ds = {
        .name = "FT over the DS",
        .has_credentials = TRUE,
        .tries_other_bss = FALSE,
        .go = ds_go,
        .authenticate = ds_authenticate,
        .rx_authenticate = wifi_auth_nothing_to_read,
        .rx_action = ds_rx_action,
        .refused = ds_refused,
        .keying_failed = wifi_auth_no_second_try,
        .release = ds_release,
};
