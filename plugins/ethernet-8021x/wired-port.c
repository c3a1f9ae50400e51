/* wired-port.c - the 802.1X port of one Ethernet device. */
#include "wired-port.h"

#include "wired-operstate.h"
#include "wired-socket.h"

struct _WiredPort {
	JoindPort8021x parent;
	JoindCore *core;
	JoindDevice *device; /* weak: the device holds the port */
	gint ifindex;
	gchar *ifname;
	gchar *address;
	gboolean enabled; /* admin up with carrier */
	WiredSocket *socket;
	WiredPae *pae;
	WiredOperstateSocket *oper_socket; /* the manager's; NULL once released */
	WiredOperstate operstate;          /* last asked for */
	gboolean stopping;                 /* joind is stopping */
};

G_DEFINE_TYPE(WiredPort, wired_port, JOIND_TYPE_PORT_8021X)

/* ---- PAE callbacks -------------------------------------------------------- */

static gboolean
port_pae_send(WiredPae *pae, guint8 type, const guint8 *body, gsize len, gpointer user_data,
              GError **error)
{
	WiredPort *self = user_data;

	if (self->socket == NULL) {
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "%s: no EAPOL socket to send %s on", self->ifname,
		            wired_eapol_type_to_string(type));
		return FALSE;
	}
	return wired_socket_send(self->socket, type, body, len, error);
}

/* The link's operational state follows the PAE: dormant while a profile
 * applies and the port is not authorised, up once it is; a port without a
 * profile is left in (or given back) the default link mode. */
static void
port_sync_operstate(WiredPort *self)
{
	WiredOperstate want;

	if (wired_pae_get_state(self->pae) == WIRED_PAE_DISABLED)
		want = self->stopping && self->operstate != WIRED_OPERSTATE_DEFAULT
		               ? WIRED_OPERSTATE_STOPPED
		               : WIRED_OPERSTATE_DEFAULT;
	else
		want = wired_pae_is_authorised(self->pae) ? WIRED_OPERSTATE_UP
		                                          : WIRED_OPERSTATE_DORMANT;
	if (want == self->operstate || self->oper_socket == NULL)
		return;
	self->operstate = want;
	wired_operstate_socket_set(self->oper_socket, self->ifindex, self->ifname, want);
}

static void
port_pae_changed(WiredPae *pae, gpointer user_data)
{
	JoindPort8021x *port = user_data;
	JoindProfile *profile = wired_pae_get_profile(pae);

	joind_port_8021x_set_profile(port,
	                             profile != NULL ? joind_profile_get_path(profile) : NULL);
	joind_port_8021x_set_eap_method(port, wired_pae_get_method(pae));
	joind_port_8021x_set_identity(port, wired_pae_get_identity(pae));
	joind_port_8021x_set_last_error(port, wired_pae_get_last_error(pae));
	joind_port_8021x_set_state(port, wired_pae_get_port_state(pae));
	port_sync_operstate(WIRED_PORT(port));
}

static const WiredPaeCallbacks port_pae_callbacks = {
        .send = port_pae_send,
        .changed = port_pae_changed,
};

/* ---- socket --------------------------------------------------------------- */

static void
port_frame_received(const WiredEapolFrame *frame, gpointer user_data)
{
	WiredPort *self = user_data;

	joind_dev_debug(self->ifname, "received %s (%zu octets)",
	                wired_eapol_type_to_string(frame->pdu.type), frame->pdu.body_len);
	wired_pae_rx(self->pae, &frame->pdu);
}

static void
port_apply_address(WiredPort *self)
{
	guint8 mac[WIRED_ETH_ALEN];

	if (self->socket == NULL)
		return;
	if (!wired_eapol_parse_address(self->address, mac)) {
		joind_dev_warning(self->ifname, "cannot send EAPOL from link address \"%s\"",
		                  self->address != NULL ? self->address : "");
		return;
	}
	wired_socket_set_address(self->socket, mac);
}

static gboolean
port_open_socket(WiredPort *self, GError **error)
{
	guint mtu;

	if (self->socket != NULL)
		return TRUE;
	self->socket =
	        wired_socket_new(self->ifindex, self->ifname, port_frame_received, self, error);
	if (self->socket == NULL)
		return FALSE;
	port_apply_address(self);
	/* EAP rides in EAPOL, whose header takes 4 octets of the frame. */
	mtu = wired_socket_get_mtu(self->socket);
	wired_pae_set_mtu(self->pae, MAX(mtu, 1000) - WIRED_EAPOL_HLEN);
	return TRUE;
}

/* ---- profile -------------------------------------------------------------- */

static void
port_use_profile(WiredPort *self, JoindProfile *profile)
{
	const gchar *path =
	        self->device != NULL ? joind_device_get_object_path(self->device) : NULL;
	g_autoptr(GError) error = NULL;

	if (profile == NULL) {
		wired_pae_set_profile(self->pae, NULL, NULL);
		g_clear_pointer(&self->socket, wired_socket_free);
		return;
	}
	joind_dev_info(self->ifname, "using profile %s", joind_profile_get_path(profile));
	if (!port_open_socket(self, &error)) {
		g_warning("%s", error->message);
		wired_pae_fail_profile(self->pae, profile, path, error->message);
		return;
	}
	wired_pae_set_profile(self->pae, profile, path);
}

void
wired_port_match_profile(WiredPort *self, const JoindProfile *changed)
{
	g_autoptr(JoindProfile) profile =
	        joind_core_find_wired_profile(self->core, self->ifname, self->address);
	JoindProfile *current = wired_pae_get_profile(self->pae);

	if (profile == current && (changed == NULL || changed != current))
		return;
	/* Credentials remembered from the agent change nothing that matters. */
	if (profile != NULL && current != NULL && profile == changed &&
	    wired_pae_adopt_profile(self->pae, profile))
		return;
	if (profile == NULL)
		joind_dev_info(self->ifname, "no profile matches any more");
	port_use_profile(self, profile);
}

/* ---- link ----------------------------------------------------------------- */

void
wired_port_update_link(WiredPort *self, const gchar *name, const gchar *address, gboolean admin_up,
                       gboolean carrier)
{
	gboolean renamed = g_strcmp0(self->ifname, name) != 0;
	gboolean readdressed = g_strcmp0(self->address, address) != 0;

	if (renamed) {
		g_free(self->ifname);
		self->ifname = g_strdup(name);
		wired_pae_set_ifname(self->pae, name);
	}
	if (readdressed) {
		g_free(self->address);
		self->address = g_strdup(address);
		port_apply_address(self);
	}
	/* [Match] goes by name and address. */
	if (renamed || readdressed)
		wired_port_match_profile(self, NULL);
	if (self->enabled != (admin_up && carrier)) {
		self->enabled = admin_up && carrier;
		joind_dev_debug(self->ifname, "link %s",
		                self->enabled ? "up with carrier" : "down");
		wired_pae_set_port_enabled(self->pae, self->enabled);
	}
}

void
wired_port_release(WiredPort *self, const gchar *reason)
{
	wired_pae_disable(self->pae, reason);
	g_clear_pointer(&self->socket, wired_socket_free);
	self->oper_socket = NULL;
}

void
wired_port_shutdown(WiredPort *self)
{
	self->stopping = TRUE;
	wired_pae_shutdown(self->pae);
}

WiredPae *
wired_port_get_pae(WiredPort *self)
{
	return self->pae;
}

/* ---- D-Bus methods -------------------------------------------------------- */

static gboolean
wired_port_reauthenticate(JoindPort8021x *port, GError **error)
{
	return wired_pae_reauthenticate(WIRED_PORT(port)->pae, error);
}

static gboolean
wired_port_logoff(JoindPort8021x *port, GError **error)
{
	return wired_pae_logoff(WIRED_PORT(port)->pae, error);
}

/* ---- object --------------------------------------------------------------- */

static void
wired_port_finalize(GObject *object)
{
	WiredPort *self = WIRED_PORT(object);

	g_clear_pointer(&self->pae, wired_pae_free);
	g_clear_pointer(&self->socket, wired_socket_free);
	g_free(self->ifname);
	g_free(self->address);
	if (self->device != NULL)
		g_object_remove_weak_pointer(G_OBJECT(self->device), (gpointer *)&self->device);
	G_OBJECT_CLASS(wired_port_parent_class)->finalize(object);
}

static void
wired_port_class_init(WiredPortClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = wired_port_finalize;
	JOIND_PORT_8021X_CLASS(klass)->reauthenticate = wired_port_reauthenticate;
	JOIND_PORT_8021X_CLASS(klass)->logoff = wired_port_logoff;
}

static void
wired_port_init(WiredPort *self)
{
}

WiredPort *
wired_port_new(JoindCore *core, JoindDevice *device, const WiredPaeTimers *timers,
               WiredOperstateSocket *oper_socket)
{
	WiredPort *self = g_object_new(WIRED_TYPE_PORT, NULL);

	self->core = core;
	self->oper_socket = oper_socket;
	self->operstate = WIRED_OPERSTATE_DEFAULT;
	self->device = device;
	g_object_add_weak_pointer(G_OBJECT(device), (gpointer *)&self->device);
	self->ifindex = joind_device_get_ifindex(device);
	self->ifname = g_strdup(joind_device_get_name(device));
	self->address = g_strdup(joind_device_get_address(device));
	self->pae = wired_pae_new(core, self->ifname, timers, &port_pae_callbacks, self);
	return self;
}
