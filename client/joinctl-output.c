/* joinctl-output.c - how joinctl prints: aligned tables and "label value"
 * fields for people, JSON (json-glib) for scripts.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "joinctl-field.h"
#include "joinctl.h"

struct _JoinctlTable {
	guint n_columns;
	GPtrArray *rows; /* of gchar ** (n_columns strings); row 0 is the header */
};

JoinctlTable *
joinctl_table_new(guint n_columns, ...)
{
	JoinctlTable *table = g_new0(JoinctlTable, 1);
	gchar **header = g_new0(gchar *, n_columns + 1);
	va_list args;

	va_start(args, n_columns);
	for (guint i = 0; i < n_columns; i++)
		header[i] = g_strdup(va_arg(args, const gchar *));
	va_end(args);
	table->n_columns = n_columns;
	table->rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	g_ptr_array_add(table->rows, header);
	return table;
}

/* n_columns strings; NULL prints as "-". */
void
joinctl_table_add(JoinctlTable *table, ...)
{
	gchar **row = g_new0(gchar *, table->n_columns + 1);
	va_list args;

	va_start(args, table);
	for (guint i = 0; i < table->n_columns; i++) {
		const gchar *cell = va_arg(args, const gchar *);
		row[i] = g_strdup(cell != NULL && *cell != '\0' ? cell : "-");
	}
	va_end(args);
	g_ptr_array_add(table->rows, row);
}

static void
print_padded(const gchar *text, guint width)
{
	glong len = g_utf8_strlen(text, -1);

	fputs(text, stdout);
	for (glong i = len; i < (glong)width; i++)
		fputc(' ', stdout);
}

void
joinctl_table_print(JoinctlTable *table)
{
	g_autofree guint *widths = g_new0(guint, table->n_columns);

	for (guint r = 0; r < table->rows->len; r++) {
		gchar **row = g_ptr_array_index(table->rows, r);
		for (guint c = 0; c < table->n_columns; c++)
			widths[c] = MAX(widths[c], (guint)g_utf8_strlen(row[c], -1));
	}
	for (guint r = 0; r < table->rows->len; r++) {
		gchar **row = g_ptr_array_index(table->rows, r);
		for (guint c = 0; c < table->n_columns; c++) {
			if (c + 1 == table->n_columns)
				fputs(row[c], stdout);
			else
				print_padded(row[c], widths[c] + 2);
		}
		fputc('\n', stdout);
	}
}

void
joinctl_table_free(JoinctlTable *table)
{
	g_ptr_array_unref(table->rows);
	g_free(table);
}

void
joinctl_print_field(const gchar *label, const gchar *value)
{
	g_autoptr(GString) line = g_string_new(NULL);

	joinctl_append_field(line, label, value);
	fputs(line->str, stdout);
}

const gchar *
joinctl_yes_no(gboolean value)
{
	return value ? _("yes") : _("no");
}

void
joinctl_print_json(JsonNode *node, gboolean pretty)
{
	g_autoptr(JsonGenerator) generator = json_generator_new();
	g_autofree gchar *text = NULL;

	json_generator_set_pretty(generator, pretty);
	json_generator_set_indent(generator, 2);
	json_generator_set_root(generator, node);
	text = json_generator_to_data(generator, NULL);
	printf("%s\n", text);
	fflush(stdout);
}

void
joinctl_json_add_string(JsonBuilder *builder, const gchar *key, const gchar *value)
{
	json_builder_set_member_name(builder, key);
	json_builder_add_string_value(builder, value != NULL ? value : "");
}

void
joinctl_json_add_bool(JsonBuilder *builder, const gchar *key, gboolean value)
{
	json_builder_set_member_name(builder, key);
	json_builder_add_boolean_value(builder, value);
}

JsonNode *
joinctl_json_from_variant(GVariant *value)
{
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_VARIANT)) {
		g_autoptr(GVariant) inner = g_variant_get_variant(value);
		return joinctl_json_from_variant(inner);
	}
	return json_gvariant_serialize(value);
}

/* Every cached property of an interface proxy, keyed by its D-Bus name. */
JsonNode *
joinctl_json_properties(GDBusProxy *proxy)
{
	g_auto(GStrv) names = g_dbus_proxy_get_cached_property_names(proxy);
	g_autoptr(JsonBuilder) builder = json_builder_new();

	json_builder_begin_object(builder);
	for (guint i = 0; names != NULL && names[i] != NULL; i++) {
		g_autoptr(GVariant) value = g_dbus_proxy_get_cached_property(proxy, names[i]);
		if (value == NULL)
			continue;
		json_builder_set_member_name(builder, names[i]);
		json_builder_add_value(builder, joinctl_json_from_variant(value));
	}
	json_builder_end_object(builder);
	return json_builder_get_root(builder);
}

/* Strings and object paths as they are, anything else in GVariant text. */
gchar *
joinctl_format_value(GVariant *value)
{
	if (g_variant_is_of_type(value, G_VARIANT_TYPE_STRING) ||
	    g_variant_is_of_type(value, G_VARIANT_TYPE_OBJECT_PATH)) {
		const gchar *s = g_variant_get_string(value, NULL);
		if (*s == '\0' || strpbrk(s, " \t\n\"'") != NULL)
			return g_variant_print(value, FALSE);
		return g_strdup(s);
	}
	return g_variant_print(value, FALSE);
}

JsonObject *
joinctl_json_object_member(JsonObject *object, const gchar *key)
{
	JsonNode *node = object != NULL ? json_object_get_member(object, key) : NULL;

	return node != NULL && JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
}

JsonArray *
joinctl_json_array_member(JsonObject *object, const gchar *key)
{
	JsonNode *node = object != NULL ? json_object_get_member(object, key) : NULL;

	return node != NULL && JSON_NODE_HOLDS_ARRAY(node) ? json_node_get_array(node) : NULL;
}

/* A member of a description as text: strings as they are, booleans yes/no,
 * arrays joined with ", "; NULL for null or a missing member. */
gchar *
joinctl_json_member_text(JsonObject *object, const gchar *key)
{
	JsonNode *node = json_object_get_member(object, key);

	if (node == NULL || JSON_NODE_HOLDS_NULL(node))
		return NULL;
	if (JSON_NODE_HOLDS_ARRAY(node)) {
		JsonArray *array = json_node_get_array(node);
		g_autoptr(GString) text = g_string_new(NULL);
		for (guint i = 0; i < json_array_get_length(array); i++) {
			JsonNode *item = json_array_get_element(array, i);
			if (i > 0)
				g_string_append(text, ", ");
			if (JSON_NODE_HOLDS_VALUE(item) &&
			    json_node_get_value_type(item) == G_TYPE_STRING)
				g_string_append(text, json_node_get_string(item));
		}
		return g_string_free(g_steal_pointer(&text), FALSE);
	}
	if (!JSON_NODE_HOLDS_VALUE(node))
		return NULL;
	switch (json_node_get_value_type(node)) {
	case G_TYPE_BOOLEAN:
		return g_strdup(joinctl_yes_no(json_node_get_boolean(node)));
	case G_TYPE_INT64:
		return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(node));
	case G_TYPE_DOUBLE:
		return g_strdup_printf("%.2f", json_node_get_double(node));
	default:
		return g_strdup(json_node_get_string(node));
	}
}

/* fields: {key, N_("Label")} pairs ending with {NULL, NULL}. */
void
joinctl_print_fields(JsonObject *object, const JoinctlField *fields)
{
	for (const JoinctlField *f = fields; f->key != NULL; f++) {
		g_autofree gchar *text = joinctl_json_member_text(object, f->key);
		joinctl_print_field(_(f->label), text);
	}
}
