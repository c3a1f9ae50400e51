/* hosted-mode.c - the owner of an interface in access point or ad-hoc mode
 * (see hosted-mode.h). */
#include "hosted-mode.h"

#include "joind-mac.h"
#include "mode-link.h"

typedef struct {
	const WifiHostedModeKind *kind;
	WifiIface *iface;
	JoindDevice *device;
	gpointer model;
} HostedOwner;

static gpointer
hosted_take(const WifiModeSetup *setup, GError **error)
{
	const WifiHostedModeKind *kind = setup->data;
	guint8 address[JOIND_MAC_LEN];
	HostedOwner *o;

	if (setup->address == NULL || !joind_mac_parse(setup->address, address)) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		            "%s needs the interface's address", kind->a_network);
		return NULL;
	}
	o = g_new0(HostedOwner, 1);
	o->kind = kind;
	o->iface = wifi_iface_ref(setup->iface);
	o->device = g_object_ref(setup->device);
	o->model = kind->model_new(setup, address);
	wifi_iface_info(setup->iface, "in %s mode", kind->mode);
	kind->attach(o->device, o->model);
	wifi_mode_link_up(o->iface, o->device, setup->blocked, kind->the_network);
	return o;
}

static void
hosted_release(gpointer owner)
{
	HostedOwner *o = owner;
	g_autofree gchar *reason = g_strdup_printf("the interface left %s mode", o->kind->mode);

	o->kind->shutdown(o->model, reason);
	o->kind->attach(o->device, NULL);
	g_object_unref(o->model);
	g_object_unref(o->device);
	wifi_iface_unref(o->iface);
	g_free(o);
}

static void
hosted_handle_event(gpointer owner, guint8 cmd, struct nlattr **attrs)
{
	HostedOwner *o = owner;

	o->kind->handle_event(o->model, cmd, attrs);
}

static void
hosted_link_changed(gpointer owner, const gchar *name, const gchar *address, guint flags)
{
	HostedOwner *o = owner;

	if (wifi_mode_link_changed(o->iface, o->device, name, address, flags))
		o->kind->stop(o->model, "the link went down");
}

static void
hosted_resync(gpointer owner)
{
	HostedOwner *o = owner;

	/* Frames and EAPOL were lost with the events: the handshakes
	 * retransmit (ours as the authenticator too), and a station whose
	 * association was lost asks again. */
	wifi_iface_info(o->iface, "%s: nl80211 events were lost", o->kind->mode);
}

static void
hosted_set_blocked(gpointer owner, gboolean blocked, const gchar *reason)
{
	HostedOwner *o = owner;
	g_autofree gchar *why = NULL;

	if (!blocked) {
		wifi_mode_link_up(o->iface, o->device, NULL, o->kind->the_network);
		return;
	}
	why = g_strdup_printf("the radio is blocked: %s", reason);
	wifi_mode_set_powered(o->device, FALSE);
	o->kind->stop(o->model, why);
}

static void
hosted_resumed(gpointer owner)
{
	(void)owner;
}

const WifiModeCalls wifi_hosted_mode_calls = {
        .take = hosted_take,
        .release = hosted_release,
        .handle_event = hosted_handle_event,
        .link_changed = hosted_link_changed,
        .resync = hosted_resync,
        .set_blocked = hosted_set_blocked,
        .resumed = hosted_resumed,
};
