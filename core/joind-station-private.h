/* joind-station-private.h - what only the core does to stations and
 * networks. */
#pragma once

#include "joind-station.h"

G_BEGIN_DECLS

void joind_network_set_object_path(JoindNetwork *self, const gchar *path);
void joind_network_set_device(JoindNetwork *self, JoindDevice *device);
void joind_station_set_device(JoindStation *self, JoindDevice *device);

G_END_DECLS
