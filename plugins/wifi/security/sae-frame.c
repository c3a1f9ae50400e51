/* sae-frame.c - SAE's frame bodies (see sae-frame.h). */
#include "sae-frame.h"

#include <string.h>

#define EID_EXTENSION 255

G_DEFINE_QUARK(wifi - sae - error - quark, wifi_sae_error)

gsize
wifi_sae_group_prime_len(guint group)
{
	switch (group) {
	case 19:
		return 32;
	case 20:
		return 48;
	case 21:
		return 66;
	default:
		return 0;
	}
}

/* Sets error to message (taken) and returns FALSE. */
static gboolean
malformed(GError **error, gchar *message)
{
	g_set_error_literal(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_MALFORMED, message);
	g_free(message);
	return FALSE;
}

/* The elements after the element of a commit: the ones SAE knows are
 * kept, others skipped. */
static gboolean
commit_parse_elements(const guint8 *data, gsize len, WifiSaeCommit *out, GError **error)
{
	while (len > 0) {
		gsize elen;

		if (len < 2 || (elen = data[1]) > len - 2)
			return malformed(
			        error,
			        g_strdup_printf("SAE commit: element truncated (%zu of %zu octets)",
			                        len, len < 2 ? (gsize)2 : (gsize)data[1] + 2));
		if (data[0] == EID_EXTENSION && elen >= 1) {
			const guint8 *body = data + 3;
			gsize blen = elen - 1;

			if (data[2] == WIFI_SAE_EXT_PASSWORD_ID) {
				out->identifier = body;
				out->identifier_len = blen;
			} else if (data[2] == WIFI_SAE_EXT_REJECTED_GROUPS) {
				if (blen % 2 != 0)
					return malformed(
					        error, g_strdup_printf(
					                       "SAE commit: rejected groups of %zu "
					                       "octets (not a multiple of 2)",
					                       blen));
				out->rejected = body;
				out->rejected_len = blen;
			} else if (data[2] == WIFI_SAE_EXT_TOKEN_CONTAINER) {
				out->token = body;
				out->token_len = blen;
			}
		}
		data += 2 + elen;
		len -= 2 + elen;
	}
	return TRUE;
}

gboolean
wifi_sae_commit_parse(const guint8 *data, gsize len, gboolean h2e, gsize token_len,
                      WifiSaeCommit *out, GError **error)
{
	gsize prime_len, need;

	memset(out, 0, sizeof(*out));
	if (data == NULL || len < 2)
		return malformed(error, g_strdup_printf("SAE commit of %zu octets (at least %zu)",
		                                        len, (gsize)2));
	out->group = (guint16)(data[0] | (data[1] << 8));
	prime_len = wifi_sae_group_prime_len(out->group);
	if (prime_len == 0) {
		g_set_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP,
		            "SAE commit for group %u, which joind does not support", out->group);
		return FALSE;
	}
	if (h2e)
		token_len = 0;
	need = 2 + token_len + 3 * prime_len;
	if (len < need)
		return malformed(error, g_strdup_printf("SAE commit of %zu octets (at least %zu)",
		                                        len, need));
	if (token_len > 0) {
		out->token = data + 2;
		out->token_len = token_len;
	}
	out->scalar = data + 2 + token_len;
	out->element = out->scalar + prime_len;
	return commit_parse_elements(data + need, len - need, out, error);
}

static void
put_ext_element(GByteArray *buf, guint8 ext_id, const guint8 *body, gsize len)
{
	guint8 head[3] = {EID_EXTENSION, (guint8)(len + 1), ext_id};

	g_byte_array_append(buf, head, sizeof(head));
	g_byte_array_append(buf, body, (guint)len);
}

void
wifi_sae_commit_build(GByteArray *buf, const WifiSaeCommit *commit, gboolean h2e, gsize scalar_len,
                      gsize element_len)
{
	guint8 group[2] = {(guint8)commit->group, (guint8)(commit->group >> 8)};

	g_byte_array_append(buf, group, 2);
	if (!h2e && commit->token != NULL)
		g_byte_array_append(buf, commit->token, (guint)commit->token_len);
	g_byte_array_append(buf, commit->scalar, (guint)scalar_len);
	g_byte_array_append(buf, commit->element, (guint)element_len);
	if (commit->identifier != NULL)
		put_ext_element(buf, WIFI_SAE_EXT_PASSWORD_ID, commit->identifier,
		                commit->identifier_len);
	if (h2e && commit->rejected != NULL)
		put_ext_element(buf, WIFI_SAE_EXT_REJECTED_GROUPS, commit->rejected,
		                commit->rejected_len);
	if (h2e && commit->token != NULL)
		put_ext_element(buf, WIFI_SAE_EXT_TOKEN_CONTAINER, commit->token,
		                commit->token_len);
}

gboolean
wifi_sae_token_parse(const guint8 *data, gsize len, gboolean h2e, guint16 *group,
                     const guint8 **token, gsize *token_len, GError **error)
{
	WifiSaeCommit elements = {0};

	if (data == NULL || len < 3)
		return malformed(
		        error,
		        g_strdup_printf("SAE anti-clogging request of %zu octets (at least %zu)",
		                        len, (gsize)3));
	*group = (guint16)(data[0] | (data[1] << 8));
	if (!h2e) {
		*token = data + 2;
		*token_len = len - 2;
		return TRUE;
	}
	if (!commit_parse_elements(data + 2, len - 2, &elements, error))
		return FALSE;
	if (elements.token == NULL || elements.token_len == 0)
		return malformed(
		        error,
		        g_strdup_printf(
		                "SAE anti-clogging request of %zu octets without a token (%zu in "
		                "its container)",
		                len, elements.token_len));
	*token = elements.token;
	*token_len = elements.token_len;
	return TRUE;
}

gboolean
wifi_sae_confirm_parse(const guint8 *data, gsize len, gsize confirm_len, WifiSaeConfirm *out,
                       GError **error)
{
	if (data == NULL || len != 2 + confirm_len)
		return malformed(error, g_strdup_printf("SAE confirm of %zu octets (%zu expected)",
		                                        len, 2 + confirm_len));
	out->send_confirm = (guint16)(data[0] | (data[1] << 8));
	out->confirm = data + 2;
	out->confirm_len = confirm_len;
	return TRUE;
}
