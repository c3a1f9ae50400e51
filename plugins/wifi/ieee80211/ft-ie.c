/* ft-ie.c - the Mobility Domain and Fast BSS Transition elements (see
 * ft-ie.h). */
#include "ft-ie.h"

#include <string.h>

#include "ie.h"

#define FTE_FIXED(mic_len) (2 + (mic_len) + 2 * WIFI_FTE_NONCE_LEN)
#define GTK_SUB_FIXED      11 /* Key Info (2), Key Length, RSC (8) */
#define IGTK_SUB_FIXED     9  /* Key ID (2), IPN (6), Key Length */
#define WRAPPED_MIN        24 /* a 128-bit key and the key wrap's 8 octets */

static gboolean
invalid(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID, "%s", what);
	return FALSE;
}

static gboolean
wrapped_ok(gsize len)
{
	return len >= WRAPPED_MIN && len <= WIFI_FTE_WRAPPED_MAX && len % 8 == 0;
}

static gboolean
fte_gtk(const guint8 *b, gsize n, WifiFte *out, GError **error)
{
	if (n < GTK_SUB_FIXED || !wrapped_ok(n - GTK_SUB_FIXED) || b[2] == 0 || b[2] > 32)
		return invalid(error, "The FTE's GTK subelement has a bad length.");
	out->has_gtk = TRUE;
	out->gtk_key_id = b[0] & 0x03;
	out->gtk_len = b[2];
	memcpy(out->gtk_rsc, b + 3, 8);
	out->gtk_wrapped_len = n - GTK_SUB_FIXED;
	memcpy(out->gtk_wrapped, b + GTK_SUB_FIXED, out->gtk_wrapped_len);
	return TRUE;
}

static gboolean
fte_igtk(const guint8 *b, gsize n, WifiFte *out, GError **error)
{
	if (n < IGTK_SUB_FIXED || !wrapped_ok(n - IGTK_SUB_FIXED) || b[8] == 0 || b[8] > 32)
		return invalid(error, "The FTE's IGTK subelement has a bad length.");
	out->has_igtk = TRUE;
	out->igtk_key_id = (guint16)(b[0] | (b[1] << 8));
	memcpy(out->igtk_ipn, b + 2, 6);
	out->igtk_len = b[8];
	out->igtk_wrapped_len = n - IGTK_SUB_FIXED;
	memcpy(out->igtk_wrapped, b + IGTK_SUB_FIXED, out->igtk_wrapped_len);
	return TRUE;
}

/* One subelement; a second copy of a known one is refused. */
static gboolean
fte_sub(guint8 id, const guint8 *b, gsize n, WifiFte *out, GError **error)
{
	switch (id) {
	case WIFI_FTE_SUB_R1KH_ID:
		if (n != 6 || out->has_r1kh_id)
			return invalid(error, "The FTE's R1KH-ID is not one 6-octet subelement.");
		out->has_r1kh_id = TRUE;
		memcpy(out->r1kh_id, b, 6);
		return TRUE;
	case WIFI_FTE_SUB_R0KH_ID:
		if (n == 0 || n > WIFI_FTE_R0KH_ID_MAX || out->r0kh_id_len != 0)
			return invalid(error, "The FTE's R0KH-ID is not one subelement of 1 to 48 "
			                      "octets.");
		out->r0kh_id_len = n;
		memcpy(out->r0kh_id, b, n);
		return TRUE;
	case WIFI_FTE_SUB_GTK:
		return out->has_gtk ? invalid(error, "The FTE has two GTK subelements.")
		                    : fte_gtk(b, n, out, error);
	case WIFI_FTE_SUB_IGTK:
		return out->has_igtk ? invalid(error, "The FTE has two IGTK subelements.")
		                     : fte_igtk(b, n, out, error);
	default:
		/* OCI, BIGTK and later subelements: not ours to check. */
		return TRUE;
	}
}

gboolean
wifi_fte_parse(const guint8 *body, gsize len, gsize mic_len, WifiFte *out, GError **error)
{
	gsize pos = FTE_FIXED(mic_len);

	g_return_val_if_fail(mic_len == 16 || mic_len == 24, FALSE);
	memset(out, 0, sizeof(*out));
	if (body == NULL || len < pos)
		return invalid(error, "A Fast BSS Transition element is too short.");
	out->rsnxe_used = (body[0] & 0x01) != 0;
	out->element_count = body[1];
	out->mic_len = mic_len;
	memcpy(out->mic, body + 2, mic_len);
	memcpy(out->anonce, body + 2 + mic_len, WIFI_FTE_NONCE_LEN);
	memcpy(out->snonce, body + 2 + mic_len + WIFI_FTE_NONCE_LEN, WIFI_FTE_NONCE_LEN);
	while (pos < len) {
		if (len - pos < 2 || body[pos + 1] > len - pos - 2)
			return invalid(error, "A Fast BSS Transition subelement runs past the "
			                      "element's end.");
		if (!fte_sub(body[pos], body + pos + 2, body[pos + 1], out, error))
			return FALSE;
		pos += 2u + body[pos + 1];
	}
	return TRUE;
}

static void
put_sub(GByteArray *a, guint8 id, const guint8 *data, gsize len)
{
	guint8 hdr[2] = {id, (guint8)len};

	g_byte_array_append(a, hdr, 2);
	g_byte_array_append(a, data, (guint)len);
}

static void
put_key_subs(GByteArray *a, const WifiFte *fte)
{
	guint8 b[GTK_SUB_FIXED + WIFI_FTE_WRAPPED_MAX] = {0};

	if (fte->has_gtk) {
		b[0] = fte->gtk_key_id & 0x03;
		b[2] = fte->gtk_len;
		memcpy(b + 3, fte->gtk_rsc, 8);
		memcpy(b + GTK_SUB_FIXED, fte->gtk_wrapped, fte->gtk_wrapped_len);
		put_sub(a, WIFI_FTE_SUB_GTK, b, GTK_SUB_FIXED + fte->gtk_wrapped_len);
	}
	if (fte->has_igtk) {
		b[0] = (guint8)(fte->igtk_key_id & 0xff);
		b[1] = (guint8)(fte->igtk_key_id >> 8);
		memcpy(b + 2, fte->igtk_ipn, 6);
		b[8] = fte->igtk_len;
		memcpy(b + IGTK_SUB_FIXED, fte->igtk_wrapped, fte->igtk_wrapped_len);
		put_sub(a, WIFI_FTE_SUB_IGTK, b, IGTK_SUB_FIXED + fte->igtk_wrapped_len);
	}
}

GBytes *
wifi_fte_build(const WifiFte *fte)
{
	GByteArray *a = g_byte_array_new();
	guint8 head[4] = {WIFI_IE_FAST_BSS_TRANSITION, 0, fte->rsnxe_used ? 1 : 0,
	                  fte->element_count};

	g_return_val_if_fail(fte->mic_len == 16 || fte->mic_len == 24, NULL);
	g_byte_array_append(a, head, sizeof(head));
	g_byte_array_append(a, fte->mic, (guint)fte->mic_len);
	g_byte_array_append(a, fte->anonce, WIFI_FTE_NONCE_LEN);
	g_byte_array_append(a, fte->snonce, WIFI_FTE_NONCE_LEN);
	if (fte->has_r1kh_id)
		put_sub(a, WIFI_FTE_SUB_R1KH_ID, fte->r1kh_id, 6);
	put_key_subs(a, fte);
	if (fte->r0kh_id_len > 0)
		put_sub(a, WIFI_FTE_SUB_R0KH_ID, fte->r0kh_id, fte->r0kh_id_len);
	/* 2 + 24 + 64 + 8 + 2 * 51 + 50 octets at most: fits one element. */
	a->data[1] = (guint8)(a->len - 2);
	return g_byte_array_free_to_bytes(a);
}

void
wifi_mde_write(guint8 out[WIFI_MDE_LEN], const guint8 mdid[2], guint8 capability)
{
	out[0] = WIFI_IE_MOBILITY_DOMAIN;
	out[1] = 3;
	out[2] = mdid[0];
	out[3] = mdid[1];
	out[4] = capability;
}

/* Points *at and *at_len at the whole element; a second one is refused. */
static gboolean
take_once(const guint8 *body, gsize body_len, const guint8 **at, gsize *at_len, const gchar *what,
          GError **error)
{
	if (*at != NULL) {
		g_set_error(error, WIFI_IE_ERROR, WIFI_IE_ERROR_INVALID, "Two %s elements.", what);
		return FALSE;
	}
	*at = body - 2;
	*at_len = body_len + 2;
	return TRUE;
}

static gboolean
ft_ies_take(WifiFtIes *out, guint id, const guint8 *body, gsize n, GError **error)
{
	switch (id) {
	case WIFI_IE_RSN:
		return take_once(body, n, &out->rsne, &out->rsne_len, "RSN", error);
	case WIFI_IE_MOBILITY_DOMAIN:
		return take_once(body, n, &out->mde, &out->mde_len, "Mobility Domain", error);
	case WIFI_IE_FAST_BSS_TRANSITION:
		return take_once(body, n, &out->fte, &out->fte_len, "Fast BSS Transition", error);
	case WIFI_IE_RSNX:
		return take_once(body, n, &out->rsnxe, &out->rsnxe_len, "RSNX", error);
	default:
		return TRUE;
	}
}

gboolean
wifi_ft_ies_parse(const guint8 *ies, gsize len, gsize mic_len, WifiFtIes *out, GError **error)
{
	WifiIeIter it;
	const guint8 *body;
	gsize n;
	guint id;

	memset(out, 0, sizeof(*out));
	wifi_ie_iter_init(&it, ies, len);
	while (wifi_ie_iter_next(&it, &id, &body, &n, error)) {
		if (!ft_ies_take(out, id, body, n, error))
			return FALSE;
	}
	if (error != NULL && *error != NULL)
		return FALSE;
	if (out->mde == NULL || out->mde_len != WIFI_MDE_LEN)
		return invalid(error, "The Mobility Domain element is missing or not 3 octets.");
	memcpy(out->mdid, out->mde + 2, 2);
	out->ft_capability = out->mde[4];
	if (out->fte == NULL)
		return invalid(error, "The Fast BSS Transition element is missing.");
	return wifi_fte_parse(out->fte + 2, out->fte_len - 2, mic_len, &out->parsed, error);
}
