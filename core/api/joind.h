/* joind.h - everything a plugin may include, in one header. */
#pragma once

#include "joind-agent.h"
#include "joind-auth-rule.h"
#include "joind-core.h"
#include "joind-crypto.h"
#include "joind-device.h"
#include "joind-eap.h"
#include "joind-error.h"
#include "joind-known.h"
#include "joind-log.h"
#include "joind-mac.h"
#include "joind-observer.h"
#include "joind-plugin.h"
#include "joind-port.h"
#include "joind-profile.h"
#include "joind-secret.h"
#include "joind-station.h"
