/* wired-manager.h - one JoindDevice per Ethernet port, kept in step with
 * the kernel's links. */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

typedef struct _WiredManager WiredManager;

WiredManager *wired_manager_new(JoindCore *core, GError **error);
/* Removes every device it published. */
void wired_manager_free(WiredManager *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(WiredManager, wired_manager_free)

G_END_DECLS
