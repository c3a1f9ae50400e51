/* iwd-known.h - known networks under iwd's API: a net.connman.iwd.
 * KnownNetwork object at /net/connman/iwd/<ssid-hex>_<type> per WiFi
 * profile, following the core's profile store.
 */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _IwdKnown IwdKnown;

IwdKnown *iwd_known_new(JoindCore *core, GDBusObjectManagerServer *manager);
void iwd_known_free(IwdKnown *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IwdKnown, iwd_known_free)

/* Reads LastConnectedTime again (after a connection). */
void iwd_known_refresh(IwdKnown *self);

G_END_DECLS
