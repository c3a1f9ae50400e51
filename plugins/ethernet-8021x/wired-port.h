/* wired-port.h - the 802.1X port of one Ethernet device.
 *
 * A JoindPort8021x subclass that ties together the device's link state, the
 * profile that matches it, the raw EAPOL socket (open only while a profile
 * matches: ports without one are left completely alone) and the supplicant
 * PAE, and mirrors the PAE onto the port's D-Bus properties.
 */
#pragma once

#include "joind.h"
#include "wired-operstate.h"
#include "wired-pae.h"

G_BEGIN_DECLS

#define WIRED_TYPE_PORT (wired_port_get_type())
G_DECLARE_FINAL_TYPE(WiredPort, wired_port, WIRED, PORT, JoindPort8021x)

/* oper_socket: the manager's, for the link's operational state (NULL: the
 * state is left alone); used until wired_port_release(). */
WiredPort *wired_port_new(JoindCore *core, JoindDevice *device, const WiredPaeTimers *timers,
                          WiredOperstateSocket *oper_socket);
/* The link changed: name, address, admin state, carrier. */
void wired_port_update_link(WiredPort *self, const gchar *name, const gchar *address,
                            gboolean admin_up, gboolean carrier);
/* Look the matching profile up again. changed is the profile the core
 * reported as edited (NULL for a plain re-match): if it is the one in use
 * the port authenticates again. */
void wired_port_match_profile(WiredPort *self, const JoindProfile *changed);
/* joind is stopping: EAPOL-Logoff where a conversation was going on. */
void wired_port_shutdown(WiredPort *self);
/* Drop the profile, the socket and the timers (the link went away, the
 * plugin is unloading). */
void wired_port_release(WiredPort *self, const gchar *reason);
WiredPae *wired_port_get_pae(WiredPort *self);

G_END_DECLS
