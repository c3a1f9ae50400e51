/* joinctl-field.h - one "label value" line of joinctl's output for people:
 * two spaces, the label padded to 22 columns (characters, not bytes: the
 * labels are translated), the value, or "-" when there is none.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void joinctl_append_field(GString *out, const gchar *label, const gchar *value);

G_END_DECLS
