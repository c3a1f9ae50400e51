/* mode.h - the seam between the manager and the owner of an interface's
 * mode. An interface has one nl80211 mode at a time (station, and access
 * point and ad hoc to come); the manager keeps a table of owners, one per
 * mode, hands each interface to the owner of its mode and reaches that
 * owner only through these operations. The owners never know each other.
 */
#pragma once

#include <netlink/attr.h>

#include "iface.h"
#include "joind.h"

G_BEGIN_DECLS

/* What an owner is given with an interface. */
typedef struct {
	JoindCore *core;
	WifiIface *iface;
	/* The interface's device, which stays while its mode changes: the
	 * owner attaches its station or access point to it, and sets it
	 * powered as the link comes up and goes down. */
	JoindDevice *device;
	const gchar *address; /* the interface's MAC address, or NULL */
	const gchar *blocked; /* why an rfkill switch blocks the radio, or NULL */
	gconstpointer data;   /* the mode's WifiModeOps.data */
} WifiModeSetup;

/* What the manager calls an owner with. */
typedef struct {
	/* Takes the interface: made and started; NULL and error when it
	 * cannot (the interface is then left alone). */
	gpointer (*take)(const WifiModeSetup *setup, GError **error);
	/* Gives the interface back: stopped and freed. */
	void (*release)(gpointer owner);
	/* nl80211 events of the interface. */
	void (*handle_event)(gpointer owner, guint8 cmd, struct nlattr **attrs);
	/* rtnetlink: the link's name, address or flags changed. */
	void (*link_changed)(gpointer owner, const gchar *name, const gchar *address, guint flags);
	/* Events were lost: ask the kernel again. */
	void (*resync)(gpointer owner);
	/* The radio's rfkill switch (reason NULL when unblocked). */
	void (*set_blocked)(gpointer owner, gboolean blocked, const gchar *reason);
	/* The system resumed from sleep. */
	void (*resumed)(gpointer owner);
} WifiModeCalls;

/* The owner of one mode. Owners of modes alike share their calls (the
 * access point's and the ad-hoc network's are hosted/'s) and tell them
 * apart by data. */
typedef struct {
	const gchar *name; /* for log lines: "station" */
	guint32 iftype;    /* NL80211_IFTYPE_* */
	const WifiModeCalls *calls;
	gconstpointer data; /* the owner's own, handed to take in WifiModeSetup */
} WifiModeOps;

G_END_DECLS
