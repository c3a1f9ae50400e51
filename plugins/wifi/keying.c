/* keying.c - the key step of a connection (see keying.h). */
#include "keying.h"

#include <string.h>

#include "eapol-socket.h"
#include "joind.h"

struct _WifiKeying {
	WifiIface *iface;
	WifiHandshake *hs;
	WifiEapolSocket *eapol_socket; /* the AF_PACKET path */
	guint8 aa[6];
	WifiKeyingFunc func;
	gpointer user_data;
	guint authorize_request;
	gboolean authorized; /* the port is open: later group keys are rekeys */
};

static void
keying_report(WifiKeying *self, const GError *error)
{
	if (error == NULL)
		self->authorized = TRUE;
	self->func(error, self->user_data);
}

static void
log_failure(int error, gpointer user_data)
{
	if (error < 0)
		g_warning("%s: %s", (const gchar *)user_data, g_strerror(-error));
}

static void
keying_send(const guint8 *frame, gsize len, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;
	g_autoptr(GError) error = NULL;
	struct nl_msg *msg;

	if (self->eapol_socket != NULL) {
		/* The kernel encrypts once a pairwise key is in; the handshake
		 * sends message 4 before it installs the first one. */
		if (!wifi_eapol_socket_send(self->eapol_socket, self->aa, frame, len, &error))
			g_warning("%s: %s", iface->name, error->message);
		return;
	}
	/* Before the first pairwise key, frames go out in the clear. */
	msg = wifi_rsn_msg_eapol(iface->nl, iface->ifindex, self->aa, frame, len,
	                         !wifi_handshake_has_ptk(self->hs));
	wifi_nl_send(iface->nl, msg, NULL, log_failure,
	             g_strdup_printf("%s: sending EAPOL", iface->name), g_free);
}

static const gchar *
key_kind_name(WifiKeyKind kind)
{
	switch (kind) {
	case WIFI_KEY_KIND_PAIRWISE:
		return "pairwise key (TK)";
	case WIFI_KEY_KIND_GROUP:
		return "group key (GTK)";
	case WIFI_KEY_KIND_GROUP_MGMT:
		return "group management key (IGTK)";
	default:
		return "key";
	}
}

static void
keying_install_key(const WifiHandshakeKey *key, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;
	struct nl_msg *set_default;

	/* Once the port is open, a new group key is a rekey: said at info
	 * level so that a log shows the link living through them. */
	if (self->authorized && key->kind != WIFI_KEY_KIND_PAIRWISE)
		g_info("%s: rekey: new %s, key ID %u (%s)", iface->name, key_kind_name(key->kind),
		       key->key_id, wifi_cipher_suite_to_string(key->cipher));
	else
		g_debug("%s: installing the %s, key ID %u (%s)", iface->name,
		        key_kind_name(key->kind), key->key_id,
		        wifi_cipher_suite_to_string(key->cipher));
	wifi_nl_send(iface->nl, wifi_rsn_msg_new_key(iface->nl, iface->ifindex, key), NULL,
	             log_failure, g_strdup_printf("%s: NEW_KEY", iface->name), g_free);
	/* Requests run in order: SET_KEY finds the key NEW_KEY added. */
	set_default = wifi_rsn_msg_set_default_key(iface->nl, iface->ifindex, key);
	if (set_default != NULL)
		wifi_nl_send(iface->nl, set_default, NULL, log_failure,
		             g_strdup_printf("%s: SET_KEY", iface->name), g_free);
}

static void
authorized(int error, gpointer user_data)
{
	WifiKeying *self = user_data;
	g_autoptr(GError) local = NULL;

	self->authorize_request = 0;
	if (error < 0)
		local = g_error_new(JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "Cannot authorize the port: %s", g_strerror(-error));
	keying_report(self, local);
}

static void
keying_state_changed(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	WifiKeying *self = user_data;
	WifiIface *iface = self->iface;

	if (new_state != WIFI_HANDSHAKE_STATE_COMPLETE)
		return;
	if (old_state == WIFI_HANDSHAKE_STATE_COMPLETE) {
		g_info("%s: group key renewed", iface->name);
		return;
	}
	g_info("%s: 4-way handshake complete, authorizing the port", iface->name);
	self->authorize_request =
	        wifi_nl_send(iface->nl, wifi_rsn_msg_authorize(iface->nl, iface->ifindex, self->aa),
	                     NULL, authorized, self, NULL);
}

static const WifiHandshakeCallbacks keying_callbacks = {keying_send, keying_install_key,
                                                        keying_state_changed};

static void
on_socket_frame(const guint8 *src, const guint8 *frame, gsize len, gpointer user_data)
{
	wifi_keying_rx(user_data, src, frame, len);
}

static gboolean
keying_open_eapol(WifiKeying *self, gboolean control_port_nl, GError **error)
{
	WifiIface *iface = self->iface;

	if (control_port_nl) {
		g_info("%s: EAPOL over the nl80211 control port", iface->name);
		return TRUE;
	}
	self->eapol_socket = wifi_eapol_socket_new(iface->ifindex, on_socket_frame, self, error);
	if (self->eapol_socket == NULL)
		return FALSE;
	g_info("%s: EAPOL over AF_PACKET (%s)", iface->name,
	       wifi_wiphy_can_control_port_nl80211(iface->wiphy)
	               ? "main.conf: ControlPortOverNL80211=false"
	               : "the radio cannot carry EAPOL over nl80211");
	return TRUE;
}

WifiKeying *
wifi_keying_new(WifiIface *iface, const WifiKeyingConfig *config, WifiKeyingFunc func,
                gpointer user_data, GError **error)
{
	const WifiRsnPlan *plan = config->plan;
	WifiHandshakeConfig hs = {
	        .akm = plan->akm,
	        .pairwise_cipher = plan->pairwise_cipher,
	        .group_cipher = plan->group_cipher,
	        .group_mgmt_cipher = plan->group_mgmt_cipher,
	        .pmk = config->pmk,
	        .pmk_len = config->pmk_len,
	        .own_rsne = plan->own_rsne,
	        .own_rsne_len = plan->own_rsne_len,
	        .own_rsnxe = plan->own_rsnxe_len > 0 ? plan->own_rsnxe : NULL,
	        .own_rsnxe_len = plan->own_rsnxe_len,
	        .ap_rsne = plan->ap_rsne,
	        .ap_rsne_len = plan->ap_rsne_len,
	        .ap_rsnxe = plan->ap_rsnxe,
	        .ap_rsnxe_len = plan->ap_rsnxe_len,
	};
	WifiKeying *self = g_new0(WifiKeying, 1);

	self->iface = wifi_iface_ref(iface);
	self->func = func;
	self->user_data = user_data;
	memcpy(self->aa, config->aa, 6);
	memcpy(hs.spa, config->spa, 6);
	memcpy(hs.aa, config->aa, 6);
	self->hs = wifi_handshake_new(&hs, &keying_callbacks, self, error);
	if (self->hs == NULL || !keying_open_eapol(self, config->control_port_nl, error)) {
		wifi_keying_free(self);
		return NULL;
	}
	return self;
}

void
wifi_keying_free(WifiKeying *self)
{
	if (self == NULL)
		return;
	wifi_nl_cancel(self->iface->nl, self->authorize_request);
	g_clear_pointer(&self->eapol_socket, wifi_eapol_socket_free);
	g_clear_pointer(&self->hs, wifi_handshake_free);
	wifi_iface_unref(self->iface);
	g_free(self);
}

void
wifi_keying_rx(WifiKeying *self, const guint8 *src, const guint8 *frame, gsize len)
{
	g_autoptr(GError) error = NULL;

	if (src != NULL && memcmp(src, self->aa, 6) != 0)
		return;
	switch (wifi_handshake_rx(self->hs, frame, len, &error)) {
	case WIFI_HANDSHAKE_RX_ACCEPTED:
		break;
	case WIFI_HANDSHAKE_RX_DROPPED:
		g_debug("%s: EAPOL frame dropped: %s", self->iface->name, error->message);
		break;
	case WIFI_HANDSHAKE_RX_FAILED:
		keying_report(self, error);
		break;
	}
}

GError *
wifi_keying_abort(WifiKeying *self, WifiHandshakeAbort cause, guint16 reason)
{
	GError *error = NULL;

	wifi_handshake_abort(self->hs, cause, reason, &error);
	if (error == NULL)
		error = g_error_new_literal(JOIND_ERROR, JOIND_ERROR_FAILED,
		                            "The key handshake failed.");
	return error;
}

gboolean
wifi_keying_handshake_done(WifiKeying *self)
{
	return wifi_handshake_get_state(self->hs) == WIFI_HANDSHAKE_STATE_COMPLETE;
}
