/* joind-port.h - an IEEE 802.1X supplicant port on a wired device.
 *
 * The wired plugin subclasses JoindPort8021x and attaches one to each
 * ethernet device with joind_device_attach_port(); the core then publishes
 * net.joind.Port8021x1 on the device's object, mirrors the properties and
 * routes Reauthenticate()/Logoff() to the class methods after the caller has
 * passed the authorisation gate.
 */
#pragma once

#include <gio/gio.h>

#include "joind-device.h"
#include "joind-export.h"

G_BEGIN_DECLS

typedef enum {
	JOIND_PORT_STATE_IDLE,           /* no profile, or logged off */
	JOIND_PORT_STATE_CONNECTING,     /* EAPOL-Start sent, waiting for the authenticator */
	JOIND_PORT_STATE_AUTHENTICATING, /* EAP conversation running */
	JOIND_PORT_STATE_AUTHENTICATED,
	JOIND_PORT_STATE_HELD, /* held period after a failure */
	JOIND_PORT_STATE_FAILED,
	/* the last value, which name tables are checked against */
	JOIND_PORT_STATE_LAST = JOIND_PORT_STATE_FAILED,
} JoindPortState;

#define JOIND_TYPE_PORT_8021X (joind_port_8021x_get_type())
JOIND_EXPORT
G_DECLARE_DERIVABLE_TYPE(JoindPort8021x, joind_port_8021x, JOIND, PORT_8021X, GObject)

struct _JoindPort8021xClass {
	GObjectClass parent_class;
	gboolean (*reauthenticate)(JoindPort8021x *self, GError **error);
	gboolean (*logoff)(JoindPort8021x *self, GError **error);
	gpointer padding[8];
};

JOIND_EXPORT JoindPortState joind_port_8021x_get_state(JoindPort8021x *self);
JOIND_EXPORT void joind_port_8021x_set_state(JoindPort8021x *self, JoindPortState state);
JOIND_EXPORT const gchar *joind_port_8021x_get_profile(JoindPort8021x *self);
JOIND_EXPORT void joind_port_8021x_set_profile(JoindPort8021x *self, const gchar *profile);
JOIND_EXPORT const gchar *joind_port_8021x_get_eap_method(JoindPort8021x *self);
JOIND_EXPORT void joind_port_8021x_set_eap_method(JoindPort8021x *self, const gchar *method);
JOIND_EXPORT void joind_port_8021x_set_identity(JoindPort8021x *self, const gchar *identity);
JOIND_EXPORT const gchar *joind_port_8021x_get_last_error(JoindPort8021x *self);
JOIND_EXPORT void joind_port_8021x_set_last_error(JoindPort8021x *self, const gchar *sentence);
JOIND_EXPORT gboolean joind_port_8021x_reauthenticate(JoindPort8021x *self, GError **error);
JOIND_EXPORT gboolean joind_port_8021x_logoff(JoindPort8021x *self, GError **error);

JOIND_EXPORT const gchar *joind_port_state_to_string(JoindPortState state);

/* Attach (or with NULL, detach) the port of a device; the device keeps a
 * reference. Attach before or after joind_core_add_device(), either works. */
JOIND_EXPORT void joind_device_attach_port(JoindDevice *device, JoindPort8021x *port);
JOIND_EXPORT JoindPort8021x *joind_device_get_port(JoindDevice *device);

G_END_DECLS
