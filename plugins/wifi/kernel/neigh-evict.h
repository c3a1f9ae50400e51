/* neigh-evict.h - whether the kernel forgets an interface's neighbours (its
 * ARP and NDP entries) when the carrier goes: net.ipv4.conf.IF.
 * arp_evict_nocarrier and net.ipv6.conf.IF.ndisc_evict_nocarrier (Linux
 * 5.16 and later; on by default). mac80211 drops the carrier for the
 * moment of every reassociation, so a roam turns the eviction off for its
 * duration and back on afterwards. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_NEIGH_EVICT_IPV4 (1u << 0) /* arp_evict_nocarrier */
#define WIFI_NEIGH_EVICT_IPV6 (1u << 1) /* ndisc_evict_nocarrier */
#define WIFI_NEIGH_EVICT_ALL  (WIFI_NEIGH_EVICT_IPV4 | WIFI_NEIGH_EVICT_IPV6)

/* Sets each of the settings in which (WIFI_NEIGH_EVICT_*) of ifname to
 * evict, under sysctl_root (/proc/sys; a test's directory); returns those
 * it changed. One already so, missing (an older kernel, no IPv6) or not
 * writable is left as it is and not counted, so that giving the result
 * back with the other value restores only what was changed. */
guint wifi_neigh_evict_set(const gchar *sysctl_root, const gchar *ifname, gboolean evict,
                           guint which);

G_END_DECLS
