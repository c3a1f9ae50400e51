/* iwd-server.h - the iwd front end: owns net.connman.iwd on a bus
 * connection of its own, with its ObjectManager at "/" (iwd's layout),
 * the daemon's objects at /net/connman/iwd, and an Adapter, Device and
 * KnownNetwork object per part of the core's model.
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _IwdServer IwdServer;

/* Fails (with a sentence saying what to do) when the name is owned by
 * another process, such as iwd itself, or the bus refuses it. */
IwdServer *iwd_server_new(JoindCore *core, GError **error);
void iwd_server_free(IwdServer *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IwdServer, iwd_server_free)

G_END_DECLS
