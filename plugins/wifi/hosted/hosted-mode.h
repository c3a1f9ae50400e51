/* hosted-mode.h - the owner of an interface in a mode that hosts a
 * network (access point, ad hoc), as the manager sees it (mode.h): one
 * owner for both, told by a WifiHostedModeKind (its WifiModeOps.data)
 * which model it holds.
 *
 * It makes the model, attaches it to the interface's device before the
 * device says it is powered (a client that waits for Powered, such as
 * NetworkManager, finds the model's interface then), brings the link up
 * (an access point must be up to beacon) and stops the network when the
 * link goes down or the radio is blocked.
 */
#pragma once

#include "mode.h"

G_BEGIN_DECLS

typedef struct {
	const gchar *mode;        /* "access point": "in access point mode" */
	const gchar *a_network;   /* "an access point": "... needs the interface's address" */
	const gchar *the_network; /* "the access point", waiting for rfkill (mode-link.h) */
	/* The model (its JoindAccessPoint or JoindAdHoc) for the interface,
	 * whose address is given. */
	gpointer (*model_new)(const WifiModeSetup *setup, const guint8 address[6]);
	/* Attaches model to device, or with NULL detaches it. */
	void (*attach)(JoindDevice *device, gpointer model);
	/* The network ends with the model (its waiting calls fail). */
	void (*shutdown)(gpointer model, const gchar *reason);
	void (*stop)(gpointer model, const gchar *reason);
	void (*handle_event)(gpointer model, guint8 cmd, struct nlattr **attrs);
} WifiHostedModeKind;

/* The calls of every hosted mode's WifiModeOps, whose data is its
 * WifiHostedModeKind. */
extern const WifiModeCalls wifi_hosted_mode_calls;

G_END_DECLS
