/* wired-settings.h - the main.conf keys the ethernet-8021x plugin reads. */
#pragma once

#include "joind-plugin.h"

G_BEGIN_DECLS

/* Declared from the plugin's init(); ends with an entry whose group is NULL. */
extern const JoindConfigKey wired_settings[];

G_END_DECLS
