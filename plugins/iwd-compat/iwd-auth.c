/* iwd-auth.c - the gate's rules for net.connman.iwd.*: the same polkit
 * actions as net.joind's for the same operations. A Device or Adapter
 * Powered write sets the link up or down, which takes a station off the
 * air like a disconnect (NetworkManager's radio switch is this write).
 * A Device Mode write, AccessPoint and AdHoc run an access point or an
 * ad-hoc network: the hotspot action, as net.joind's Device1.Mode,
 * AccessPoint1 and AdHoc1. */
#include "iwd-auth.h"

const JoindAuthRule iwd_auth_rules[] = {
        {"net.connman.iwd.Daemon", "GetInfo", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.AgentManager", NULL, JOIND_AUTH_ACTION_AGENT, NULL},
        {"net.connman.iwd.Adapter", NULL, JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.Device", "Mode", JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {"net.connman.iwd.Device", NULL, JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.AccessPoint", NULL, JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {"net.connman.iwd.AdHoc", NULL, JOIND_AUTH_ACTION_HOTSPOT, NULL},
        {"net.connman.iwd.Station", NULL, JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.StationDiagnostic", NULL, JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.Network", "Connect", JOIND_AUTH_ACTION_CONNECT, NULL},
        {"net.connman.iwd.KnownNetwork", NULL, JOIND_AUTH_ACTION_KNOWN, JOIND_AUTH_ACTION_PROFILE},
        {NULL, NULL, NULL, NULL},
};
