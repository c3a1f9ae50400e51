/* mode-link.h - what the owners of the modes other than the station's
 * (the access point, the ad-hoc network) do alike with their interface's
 * link: the device is powered while the link is up, which they set up
 * themselves (joind never deletes or recreates the interface), and a
 * rename or new address reaches the interface and its device.
 */
#pragma once

#include "iface.h"
#include "joind.h"

G_BEGIN_DECLS

void wifi_mode_set_powered(JoindDevice *device, gboolean up);
/* Sets the link up and the device powered, unless blocked names the
 * rfkill switch's reason (then owner, "the access point", waits: logged). */
void wifi_mode_link_up(WifiIface *iface, JoindDevice *device, const gchar *blocked,
                       const gchar *owner);
/* rtnetlink news of the link (name and address NULL when unchanged).
 * Returns TRUE when the link went down while powered (and is still down:
 * not the echo of a mode switch's own link down): the owner stops. */
gboolean wifi_mode_link_changed(WifiIface *iface, JoindDevice *device, const gchar *name,
                                const gchar *address, guint flags);

G_END_DECLS
