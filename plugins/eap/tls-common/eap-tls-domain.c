/* eap-tls-domain.c - ServerDomainMask matching (iwd's semantics). */
#include "eap-tls-domain.h"

#include <string.h>

static gchar **
eap_tls_domain_labels(const gchar *text, guint *n)
{
	g_autofree gchar *copy = g_strdup(text);
	gsize len = strlen(copy);
	gchar **labels;

	if (len > 0 && copy[len - 1] == '.')
		copy[len - 1] = '\0'; /* absolute form */
	labels = g_strsplit(copy, ".", -1);
	*n = g_strv_length(labels);
	for (guint i = 0; i < *n; i++) {
		if (*labels[i] == '\0') {
			g_strfreev(labels);
			*n = 0;
			return NULL;
		}
	}
	return labels;
}

gboolean
eap_tls_domain_mask_match(const gchar *mask, const gchar *name)
{
	guint nm = 0, nn = 0, skip;
	g_auto(GStrv) m = NULL;
	g_auto(GStrv) n = NULL;

	if (mask == NULL || name == NULL)
		return FALSE;
	m = eap_tls_domain_labels(mask, &nm);
	n = eap_tls_domain_labels(name, &nn);
	if (m == NULL || n == NULL || nm == 0 || nn < nm)
		return FALSE;
	if (nn > nm && strcmp(m[0], "*") != 0)
		return FALSE;
	/* A leading "*" takes the extra labels; the rest pair up from the end. */
	skip = nn - nm;
	for (guint i = 0; i < nm; i++) {
		const gchar *label = n[i == 0 ? 0 : i + skip];
		if (strcmp(m[i], "*") == 0)
			continue;
		if (g_ascii_strcasecmp(m[i], label) != 0)
			return FALSE;
	}
	return TRUE;
}

gboolean
eap_tls_domain_masks_match(const gchar *masks, const gchar *const *names)
{
	g_auto(GStrv) list = g_strsplit(masks != NULL ? masks : "", ";", -1);

	for (guint i = 0; list[i] != NULL; i++) {
		g_strstrip(list[i]);
		if (*list[i] == '\0')
			continue;
		for (guint j = 0; names != NULL && names[j] != NULL; j++) {
			if (eap_tls_domain_mask_match(list[i], names[j]))
				return TRUE;
		}
	}
	return FALSE;
}

/* A mask names a domain when at least two of its labels are not "*":
 * "*.example.com" does, "*", "*.*" and "*.com" do not. */
static gboolean
eap_tls_domain_mask_names_domain(const gchar *mask)
{
	guint n = 0, named = 0;
	g_auto(GStrv) labels = eap_tls_domain_labels(mask, &n);

	for (guint i = 0; i < n; i++)
		named += strcmp(labels[i], "*") != 0;
	return named >= 2;
}

gboolean
eap_tls_domain_masks_name_servers(const gchar *masks)
{
	g_auto(GStrv) list = g_strsplit(masks != NULL ? masks : "", ";", -1);
	guint named = 0;

	for (guint i = 0; list[i] != NULL; i++) {
		g_strstrip(list[i]);
		if (*list[i] == '\0')
			continue;
		if (!eap_tls_domain_mask_names_domain(list[i]))
			return FALSE;
		named++;
	}
	return named > 0;
}
