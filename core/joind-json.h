/* joind-json.h - one JSON object member in one call, for the core's
 * diagnostics (Daemon1.GetDiagnostics). Private to the core.
 */
#pragma once

#include <json-glib/json-glib.h>

static inline void
joind_json_add_string(JsonBuilder *b, const gchar *member, const gchar *value)
{
	json_builder_set_member_name(b, member);
	json_builder_add_string_value(b, value);
}

static inline void
joind_json_add_int(JsonBuilder *b, const gchar *member, gint64 value)
{
	json_builder_set_member_name(b, member);
	json_builder_add_int_value(b, value);
}

static inline void
joind_json_add_bool(JsonBuilder *b, const gchar *member, gboolean value)
{
	json_builder_set_member_name(b, member);
	json_builder_add_boolean_value(b, value);
}

/* Opens a member whose value is an array; close it with json_builder_end_array(). */
static inline void
joind_json_begin_array(JsonBuilder *b, const gchar *member)
{
	json_builder_set_member_name(b, member);
	json_builder_begin_array(b);
}

/* Opens a member whose value is an object; close it with json_builder_end_object(). */
static inline void
joind_json_begin_object(JsonBuilder *b, const gchar *member)
{
	json_builder_set_member_name(b, member);
	json_builder_begin_object(b);
}
