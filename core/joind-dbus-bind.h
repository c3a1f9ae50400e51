/* joind-dbus-bind.h - what the core's D-Bus exports share to bind model
 * properties onto skeletons. Private to the core.
 */
#pragma once

#include <glib-object.h>

/* Defines fn, a GBindingTransformFunc from an int (enum) property to the
 * D-Bus string to_string() gives for it. */
#define JOIND_DBUS_ENUM_TRANSFORM(fn, to_string)                                                  \
	static gboolean fn(GBinding *binding, const GValue *from, GValue *to, gpointer user_data) \
	{                                                                                         \
		g_value_set_string(to, to_string(g_value_get_int(from)));                         \
		return TRUE;                                                                      \
	}
