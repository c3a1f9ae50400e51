/* fake-link.h - a WifiLink whose kernel is the unit test: it answers the
 * station's and the connector's link requests from what the test set, and
 * records what they asked. Link changes the test hands to the station
 * itself (wifi_station_link_changed()), as the manager would. */
#pragma once

#include "link.h"

typedef struct {
	guint flags;        /* IFF_* the link has; set_up adds IFF_UP */
	gboolean refuse_up; /* set_up fails */
	guint n_set_up;
	gint dormant;        /* the last link mode asked for: -1 none, else 0/1 */
	gint oper_up;        /* the last operational state asked for: -1 none, else 0/1 */
	guint8 address[6];   /* set_address writes it */
	guint8 permanent[6]; /* get_permanent_address answers it */
	guint n_set_address;
	gint neigh_evict;  /* the last eviction asked for: -1 none, else 0/1 */
	guint neigh_which; /* and the settings it named (all "changed") */
} FakeLink;

/* The WifiLink to put into the WifiIface; *fake stays valid until the
 * WifiLink is freed. */
WifiLink *fake_link_new(FakeLink **fake);
