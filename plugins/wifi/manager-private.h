/* manager-private.h - what manager.c and manager-mode.c share: the
 * manager's tables and a managed interface with the owner of its mode. */
#pragma once

#include "address.h"
#include "joind-observer.h"
#include "link.h"
#include "manager.h"
#include "mode.h"
#include "nl80211.h"
#include "rfkill.h"
#include "sleep.h"

struct _WifiManager {
	JoindCore *core;
	WifiNl *nl;
	WifiLink *link;
	WifiRfkill *rfkill; /* NULL without /dev/rfkill */
	WifiSleep *sleep;
	guint listener;
	GHashTable *wiphys;      /* id -> WifiWiphy */
	GHashTable *owned;       /* ifindex -> Owned: each managed interface */
	GHashTable *pending;     /* ifindex -> Interface waiting for its wiphy */
	GHashTable *fetching;    /* wiphy ids being dumped */
	GHashTable *ignored;     /* ifindex set, reported once */
	GHashTable *resync_seen; /* ifindex set of the listing after lost events */
	gchar **allow;
	gchar **deny;
};

/* A managed interface, its device and the owner of its mode. */
typedef struct {
	WifiManager *manager;
	const WifiModeOps *ops; /* of its mode */
	gpointer owner;         /* NULL between two modes */
	WifiIface *iface;
	JoindDevice *device; /* published while the interface is managed */
	gboolean switching;  /* a Device1.Mode write is under way */
} Owned;

/* The owner of interfaces of iftype, NULL for none. */
const WifiModeOps *wifi_manager_mode_owner(guint32 iftype);
JoindDeviceMode wifi_manager_iftype_mode(guint32 iftype);
/* ops takes the interface (its owner gave it back before). */
gboolean wifi_manager_take(WifiManager *self, Owned *owned, const WifiModeOps *ops, GError **error);
/* The interface is in ops's mode now: the old owner gives it back and
 * ops takes it (why is for the log). */
void wifi_manager_switch_owner(WifiManager *self, Owned *owned, const WifiModeOps *ops,
                               const gchar *why);
/* Device1.Mode written (WifiDeviceModeFunc; user_data the manager). */
void wifi_manager_set_mode(gpointer user_data, JoindDevice *device, JoindDeviceMode mode,
                           GTask *task);
