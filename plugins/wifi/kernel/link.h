/* link.h - the few rtnetlink facts the wifi plugin needs about its links:
 * whether they are up, their name and address, and setting them up; and
 * RFC 2863 operational state: a station's link is "dormant" while it is
 * not (yet) authorized and "up" once it carries traffic.
 *
 * As with WifiNl, what carries the requests is a small table of
 * operations (WifiLinkOps): link.c's kernel carrier (rtnetlink and
 * SIOC[GS]IFFLAGS), or a unit test that plays the link. Link changes reach
 * the manager through the WifiLinkFunc given to wifi_link_new(); a test
 * hands them to the station itself. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _WifiLink WifiLink;

/* A link changed (RTM_NEWLINK): flags are IFF_*; name and address
 * ("aa:bb:..") may be NULL when the message did not carry them. */
typedef void (*WifiLinkFunc)(gint ifindex, const gchar *name, const gchar *address, guint flags,
                             gpointer user_data);

/* What carries the requests; backend is the pointer given to
 * wifi_link_new_with_ops(). Each operation is the wifi_link_* function of
 * the same name. */
typedef struct {
	gboolean (*get_flags)(gpointer backend, const gchar *ifname, guint *flags, GError **error);
	gboolean (*set_up)(gpointer backend, const gchar *ifname, GError **error);
	void (*set_dormant_mode)(gpointer backend, gint ifindex, gboolean dormant);
	void (*set_oper_up)(gpointer backend, gint ifindex, gboolean up);
	/* Optional (a carrier without them cannot change addresses). */
	gboolean (*set_address)(gpointer backend, const gchar *ifname, const guint8 addr[6],
	                        GError **error);
	gboolean (*get_permanent_address)(gpointer backend, const gchar *ifname, guint8 addr[6],
	                                  GError **error);
	/* Optional (a carrier without it cannot change an interface's mode). */
	gboolean (*set_down)(gpointer backend, const gchar *ifname, GError **error);
	/* Optional: whether the kernel forgets ifname's neighbours when its
	 * carrier goes (wifi_neigh_evict_set(): the settings of which set to
	 * evict, those changed returned). */
	guint (*set_neigh_evict)(gpointer backend, const gchar *ifname, gboolean evict,
	                         guint which);
	void (*free)(gpointer backend);
} WifiLinkOps;

/* The kernel's links; func hears of every link change. */
WifiLink *wifi_link_new(WifiLinkFunc func, gpointer user_data, GError **error);
/* A WifiLink over another carrier; backend is freed with ops->free. */
WifiLink *wifi_link_new_with_ops(const WifiLinkOps *ops, gpointer backend);
void wifi_link_free(WifiLink *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WifiLink, wifi_link_free)

/* Current IFF_* flags of a link; FALSE (error set) when it is gone. */
gboolean wifi_link_get_flags(WifiLink *self, const gchar *ifname, guint *flags, GError **error);
/* Sets IFF_UP; the change arrives through the callback. */
gboolean wifi_link_set_up(WifiLink *self, const gchar *ifname, GError **error);
/* Clears IFF_UP (as a mode change needs); the change arrives through the
 * callback. */
gboolean wifi_link_set_down(WifiLink *self, const gchar *ifname, GError **error);

/* Sets the link's MAC address: down, set, and up again when it was up
 * (a radio refuses a new address while up). The changes arrive through
 * the callback. */
gboolean wifi_link_set_address(WifiLink *self, const gchar *ifname, const guint8 addr[6],
                               GError **error);
/* The hardware's own address (ethtool's permanent address). */
gboolean wifi_link_get_permanent_address(WifiLink *self, const gchar *ifname, guint8 addr[6],
                                         GError **error);

/* IFLA_LINKMODE: TRUE for IF_LINK_MODE_DORMANT (the kernel then says
 * "dormant" instead of "up" until wifi_link_set_oper_up()), FALSE for the
 * default. Both are sent without waiting (a refusal is logged). */
void wifi_link_set_dormant_mode(WifiLink *self, gint ifindex, gboolean dormant);
/* IFLA_OPERSTATE: IF_OPER_UP when up, else IF_OPER_DORMANT. */
void wifi_link_set_oper_up(WifiLink *self, gint ifindex, gboolean up);
/* Whether the kernel forgets ifname's neighbours (ARP, NDP) when its
 * carrier goes: the settings of which (WIFI_NEIGH_EVICT_*) set to evict;
 * returns those changed (0 on a carrier without the operation). */
guint wifi_link_set_neigh_evict(WifiLink *self, const gchar *ifname, gboolean evict, guint which);

G_END_DECLS
