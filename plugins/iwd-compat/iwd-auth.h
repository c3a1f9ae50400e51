/* iwd-auth.h - which polkit action each call on iwd's interfaces needs
 * (the core's gate asks; joind-auth-rule.h). */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

/* Declared by the server before it exports anything. */
extern const JoindAuthRule iwd_auth_rules[];

G_END_DECLS
