/* profile-keys.h - the profile keys the WiFi plugin reads, with the kind of
 * value each takes: the core checks every profile with them as it reads
 * it, whether or not this module is open (joind-profile.h). */
#pragma once

#include "joind.h"

G_BEGIN_DECLS

extern const JoindProfileKey wifi_profile_keys[];

G_END_DECLS
