/* joind-port-private.h - what only the core does to an 802.1X port. */
#pragma once

#include "joind-port.h"

/* What the D-Bus export of the port runs after each property change (NULL:
 * nothing). A hook rather than a "notify" handler: a handler cost about
 * 350 bytes of heap per port. */
typedef void (*JoindPortChangedFunc)(JoindPort8021x *port, GParamSpec *pspec, gpointer data);
void joind_port_8021x_set_changed_func(JoindPort8021x *self, JoindPortChangedFunc func,
                                       gpointer data);
