/* joinctl-standin.h - a stand-in for joind, played by a test process, for
 * joinctl commands on objects that exist only with hardware a test bus
 * lacks (stations and networks need a radio, 802.1X ports a link), for the
 * known networks that go with those networks, and for joinctl's agent. It owns
 * net.joind on a private bus and implements data/net.joind.xml with the
 * generated skeletons; what it does on each call is written below, simply.
 */
#pragma once

#include "joinctl-dbus-generated.h"

G_BEGIN_DECLS

typedef struct {
	GTestDBus *bus;
	GDBusConnection *owner; /* owns net.joind */
	GDBusObjectManagerServer *manager;
	JoindDBusAgentManager1 *agent_manager;
	JoindDBusDaemon1 *daemon;
	gboolean name_acquired;
	/* The agent last registered, and whether it unregistered. */
	gchar *agent_sender;
	gchar *agent_path;
	gboolean unregistered;
	/* The secret Connect and Reauthenticate expect from the agent. */
	gchar *expected_secret;
	guint scans;
	guint agent_requests;
} Standin;

Standin *standin_new(void);
void standin_free(Standin *s);

/* /net/joind/device/<ifindex>: Device1 (wifi) + Station1 (disconnected). */
JoindDBusObjectSkeleton *standin_add_station(Standin *s, guint ifindex, const gchar *name);
/* A network under a station: Connect asks the agent for the passphrase
 * (psk) and connects when it is expected_secret, else fails with
 * AuthenticationFailed; open networks connect at once. */
JoindDBusObjectSkeleton *standin_add_network(Standin *s, JoindDBusObjectSkeleton *station,
                                             const gchar *ssid, const gchar *type, gint16 strength);
/* /net/joind/known/<hex>_<type>: KnownNetwork1; Forget removes it. */
JoindDBusObjectSkeleton *standin_add_known(Standin *s, const gchar *ssid, const gchar *type);
/* Device1 (ethernet) + Port8021x1: Reauthenticate asks the agent for the
 * private key passphrase, then authenticated or failed with a LastError. */
JoindDBusObjectSkeleton *standin_add_port(Standin *s, guint ifindex, const gchar *name);

G_END_DECLS
