/* joinctl-field.c - one "label value" line (see joinctl-field.h). */
#include "joinctl-field.h"

#define JOINCTL_FIELD_WIDTH 22

void
joinctl_append_field(GString *out, const gchar *label, const gchar *value)
{
	g_string_append(out, "  ");
	g_string_append(out, label);
	for (glong i = g_utf8_strlen(label, -1); i < JOINCTL_FIELD_WIDTH; i++)
		g_string_append_c(out, ' ');
	g_string_append(out, value != NULL && *value != '\0' ? value : "-");
	g_string_append_c(out, '\n');
}
