/* rsn-kde.c - Key Data elements and KDEs, and RSNE comparison. */
#include "rsn-kde.h"

#include <string.h>

#include "joind-secret.h"
#include "rsn-suites.h"

static const guint8 ieee_oui[3] = {0x00, 0x0f, 0xac};
static const guint8 wfa_oui[3] = {0x50, 0x6f, 0x9a};

#define RSN_CAP_MFPC 0x0080u

static gboolean kd_malformed(GError **error, const gchar *format, ...) G_GNUC_PRINTF(2, 3);

static gboolean
kd_malformed(GError **error, const gchar *format, ...)
{
	va_list args;
	g_autofree gchar *message = NULL;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MALFORMED,
	            "Malformed key data: %s", message);
	return FALSE;
}

/* Padding is one 0xdd octet followed only by zeros up to the end. */
static gboolean
is_padding(const guint8 *p, gsize left)
{
	if (p[0] != WIFI_ELEMENT_KDE)
		return FALSE;
	for (gsize i = 1; i < left; i++) {
		if (p[i] != 0)
			return FALSE;
	}
	return TRUE;
}

static gboolean
parse_gtk_kde(const guint8 *body, gsize len, WifiKeyData *kd, GError **error)
{
	/* Key ID and Tx octet, a reserved octet, then the GTK. */
	if (kd->has_gtk)
		return kd_malformed(error, "more than one GTK KDE");
	if (len < 2 + 5 || len - 2 > WIFI_GTK_MAX_LEN)
		return kd_malformed(error, "a GTK KDE of %" G_GSIZE_FORMAT " octets", len);
	kd->has_gtk = TRUE;
	kd->gtk_key_id = body[0] & 0x03;
	kd->gtk_tx = (body[0] & 0x04) != 0;
	kd->gtk = body + 2;
	kd->gtk_len = len - 2;
	return TRUE;
}

static gboolean
parse_igtk_kde(const guint8 *body, gsize len, WifiKeyData *kd, GError **error)
{
	/* Key ID (2 octets, little endian), IPN (6), IGTK (16 or 32). */
	if (kd->has_igtk)
		return kd_malformed(error, "more than one IGTK KDE");
	if (len != 2 + WIFI_IPN_LEN + 16 && len != 2 + WIFI_IPN_LEN + 32)
		return kd_malformed(error, "an IGTK KDE of %" G_GSIZE_FORMAT " octets", len);
	kd->has_igtk = TRUE;
	kd->igtk_key_id = (guint)(body[0] | body[1] << 8);
	kd->igtk_ipn = body + 2;
	kd->igtk = body + 2 + WIFI_IPN_LEN;
	kd->igtk_len = len - 2 - WIFI_IPN_LEN;
	return TRUE;
}

/* WPA3's Transition Disable KDE: one octet of bits; later octets are
 * reserved. */
static gboolean
parse_transition_disable(const guint8 *body, gsize len, WifiKeyData *kd, GError **error)
{
	if (len < 1)
		return kd_malformed(error, "an empty Transition Disable KDE");
	kd->has_transition_disable = TRUE;
	kd->transition_disable = body[0];
	return TRUE;
}

/* A KDE: 0xdd, length, OUI, data type, data. Vendor elements of other OUIs
 * (the WPA element, WMM) are skipped. */
static gboolean
parse_kde(const guint8 *body, gsize len, WifiKeyData *kd, GError **error)
{
	if (len < 4)
		return kd_malformed(error,
		                    "a KDE of %" G_GSIZE_FORMAT " octets is too short "
		                    "for its OUI and type",
		                    len);
	if (memcmp(body, wfa_oui, sizeof(wfa_oui)) == 0 && body[3] == WIFI_KDE_TRANSITION_DISABLE)
		return parse_transition_disable(body + 4, len - 4, kd, error);
	if (memcmp(body, ieee_oui, sizeof(ieee_oui)) != 0)
		return TRUE;
	switch (body[3]) {
	case WIFI_KDE_GTK:
		return parse_gtk_kde(body + 4, len - 4, kd, error);
	case WIFI_KDE_IGTK:
		return parse_igtk_kde(body + 4, len - 4, kd, error);
	case WIFI_KDE_PMKID:
		if (len - 4 != 16)
			return kd_malformed(error, "a PMKID KDE of %" G_GSIZE_FORMAT " octets",
			                    len);
		kd->pmkid = body + 4;
		return TRUE;
	case WIFI_KDE_MAC_ADDRESS:
		if (len - 4 != 6)
			return kd_malformed(error,
			                    "a MAC address KDE of %" G_GSIZE_FORMAT " octets", len);
		kd->mac_address = body + 4;
		return TRUE;
	default:
		/* Other KDEs (Key ID, OCI, BIGTK, ...) are not used here. */
		return TRUE;
	}
}

static gboolean
take_once(const guint8 *elem, gsize len, const guint8 **at, gsize *at_len, const gchar *what,
          GError **error)
{
	if (*at != NULL)
		return kd_malformed(error, "more than one %s element", what);
	*at = elem;
	*at_len = len;
	return TRUE;
}

static gboolean
parse_element(const guint8 *elem, gsize len, WifiKeyData *kd, GError **error)
{
	switch (elem[0]) {
	case WIFI_ELEMENT_RSN:
		if (kd->rsne == NULL) {
			kd->rsne = elem;
			kd->rsne_len = len;
		} else if (kd->rsne2 == NULL) {
			kd->rsne2 = elem;
			kd->rsne2_len = len;
		} else {
			return kd_malformed(error, "more than two RSN elements");
		}
		return TRUE;
	case WIFI_ELEMENT_RSNX:
		if (kd->rsnxe != NULL)
			return kd_malformed(error, "more than one RSNX element");
		kd->rsnxe = elem;
		kd->rsnxe_len = len;
		return TRUE;
	case WIFI_ELEMENT_KDE:
		return parse_kde(elem + 2, len - 2, kd, error);
	case WIFI_ELEMENT_MDE:
		return take_once(elem, len, &kd->mde, &kd->mde_len, "Mobility Domain", error);
	case WIFI_ELEMENT_FTE:
		return take_once(elem, len, &kd->fte, &kd->fte_len, "Fast BSS Transition", error);
	default:
		return TRUE;
	}
}

gboolean
wifi_key_data_parse(const guint8 *data, gsize len, WifiKeyData *kd, GError **error)
{
	gsize pos = 0;

	g_return_val_if_fail(kd != NULL, FALSE);
	memset(kd, 0, sizeof(*kd));
	while (pos < len) {
		gsize elem_len;

		if (is_padding(data + pos, len - pos))
			break;
		if (len - pos < 2)
			return kd_malformed(error, "a lone octet 0x%02x at the end", data[pos]);
		elem_len = 2 + (gsize)data[pos + 1];
		if (elem_len > len - pos)
			return kd_malformed(error, "element %u of %u octets runs past the end",
			                    data[pos], data[pos + 1]);
		if (!parse_element(data + pos, elem_len, kd, error))
			return FALSE;
		pos += elem_len;
	}
	return TRUE;
}

static void
append_kde_header(GByteArray *buf, guint8 type, gsize data_len)
{
	guint8 header[6] = {WIFI_ELEMENT_KDE, (guint8)(4 + data_len), 0x00, 0x0f, 0xac, type};

	g_byte_array_append(buf, header, sizeof(header));
}

void
wifi_kde_append_gtk(GByteArray *buf, guint key_id, gboolean tx, const guint8 *gtk, gsize len)
{
	guint8 id[2] = {(guint8)((key_id & 0x03) | (tx ? 0x04 : 0)), 0};

	g_return_if_fail(len <= WIFI_GTK_MAX_LEN);
	append_kde_header(buf, WIFI_KDE_GTK, 2 + len);
	g_byte_array_append(buf, id, sizeof(id));
	g_byte_array_append(buf, gtk, (guint)len);
}

void
wifi_kde_append_igtk(GByteArray *buf, guint key_id, const guint8 ipn[WIFI_IPN_LEN],
                     const guint8 *igtk, gsize len)
{
	guint8 id[2] = {(guint8)(key_id & 0xff), (guint8)(key_id >> 8)};

	g_return_if_fail(len <= WIFI_IGTK_MAX_LEN);
	append_kde_header(buf, WIFI_KDE_IGTK, 2 + WIFI_IPN_LEN + len);
	g_byte_array_append(buf, id, sizeof(id));
	g_byte_array_append(buf, ipn, WIFI_IPN_LEN);
	g_byte_array_append(buf, igtk, (guint)len);
}

void
wifi_kde_append_pmkid(GByteArray *buf, const guint8 pmkid[16])
{
	append_kde_header(buf, WIFI_KDE_PMKID, 16);
	g_byte_array_append(buf, pmkid, 16);
}

void
wifi_kde_append_transition_disable(GByteArray *buf, guint8 bitmap)
{
	guint8 kde[7] = {
	        WIFI_ELEMENT_KDE, 5, 0x50, 0x6f, 0x9a, WIFI_KDE_TRANSITION_DISABLE, bitmap};

	g_byte_array_append(buf, kde, sizeof(kde));
}

void
wifi_key_data_free(GByteArray *buf)
{
	if (buf == NULL)
		return;
	joind_secret_clear(buf->data, buf->len);
	g_byte_array_unref(buf);
}

/* A cursor over an RSNE body: each field is optional, but one that starts
 * must be complete. */
typedef struct {
	const guint8 *p;
	gsize left;
} Cursor;

static gboolean
take(Cursor *c, gsize n, const guint8 **out)
{
	if (c->left < n)
		return FALSE;
	*out = c->p;
	c->p += n;
	c->left -= n;
	return TRUE;
}

static guint32
suite_at(const guint8 *p)
{
	return (guint32)p[0] << 24 | (guint32)p[1] << 16 | (guint32)p[2] << 8 | p[3];
}

static gboolean
take_suite_list(Cursor *c, guint32 *list, guint *n, GError **error)
{
	const guint8 *p;
	guint count;

	if (!take(c, 2, &p))
		return kd_malformed(error, "an RSNE suite count is cut short");
	count = (guint)(p[0] | p[1] << 8);
	if (count == 0 || count > WIFI_RSNE_MAX_SUITES)
		return kd_malformed(error, "an RSNE lists %u suites", count);
	for (guint i = 0; i < count; i++) {
		if (!take(c, 4, &p))
			return kd_malformed(error, "an RSNE suite list is cut short");
		list[i] = suite_at(p);
	}
	*n = count;
	return TRUE;
}

/* The fields after the group data cipher; stops quietly where the element
 * ends, leaving the defaults. */
static gboolean
rsne_parse_lists(Cursor *c, WifiRsne *rsne, GError **error)
{
	const guint8 *p;
	gsize n_pmkids;

	if (c->left == 0)
		return TRUE;
	if (!take_suite_list(c, rsne->pairwise, &rsne->n_pairwise, error))
		return FALSE;
	if (c->left == 0)
		return TRUE;
	if (!take_suite_list(c, rsne->akms, &rsne->n_akms, error))
		return FALSE;
	if (c->left == 0)
		return TRUE;
	if (!take(c, 2, &p))
		return kd_malformed(error, "the RSN capabilities are cut short");
	rsne->capabilities = (guint16)(p[0] | p[1] << 8);
	if (c->left == 0)
		return TRUE;
	if (!take(c, 2, &p))
		return kd_malformed(error, "the RSNE PMKID count is cut short");
	n_pmkids = (gsize)(p[0] | p[1] << 8);
	if (!take(c, 16 * n_pmkids, &p))
		return kd_malformed(error, "the RSNE PMKID list is cut short");
	if (n_pmkids > 0) {
		rsne->has_pmkid = TRUE;
		memcpy(rsne->pmkid, p, 16);
	}
	if (c->left == 0)
		return TRUE;
	if (!take(c, 4, &p))
		return kd_malformed(error, "the group management cipher is cut short");
	rsne->group_mgmt_cipher = suite_at(p);
	return TRUE;
}

gboolean
wifi_rsne_parse(const guint8 *ie, gsize len, WifiRsne *rsne, GError **error)
{
	Cursor c;
	const guint8 *p = NULL;

	memset(rsne, 0, sizeof(*rsne));
	if (len < 4 || ie[0] != WIFI_ELEMENT_RSN || (gsize)ie[1] + 2 != len)
		return kd_malformed(error, "not a whole RSN element");
	c = (Cursor){ie + 2, len - 2};
	if (!take(&c, 2, &p))
		return kd_malformed(error, "no RSN version");
	rsne->version = (guint16)(p[0] | p[1] << 8);
	if (rsne->version != 1)
		return kd_malformed(error, "RSN version %u", rsne->version);
	/* Defaults of absent fields (9.4.2.24.1): CCMP, 802.1X, no caps. */
	rsne->group_cipher = 0x000fac04;
	rsne->pairwise[0] = 0x000fac04;
	rsne->n_pairwise = 1;
	rsne->akms[0] = 0x000fac01;
	rsne->n_akms = 1;
	if (c.left == 0)
		return TRUE;
	if (!take(&c, 4, &p))
		return kd_malformed(error, "the group data cipher is cut short");
	rsne->group_cipher = suite_at(p);
	return rsne_parse_lists(&c, rsne, error);
}

static gsize
put_suite(guint8 *p, guint32 suite)
{
	p[0] = (guint8)(suite >> 24);
	p[1] = (guint8)(suite >> 16);
	p[2] = (guint8)(suite >> 8);
	p[3] = (guint8)suite;
	return 4;
}

static gsize
put_le16(guint8 *p, guint v)
{
	p[0] = (guint8)(v & 0xff);
	p[1] = (guint8)((v >> 8) & 0xff);
	return 2;
}

gsize
wifi_rsne_write(const WifiRsne *rsne, const guint8 *pmkid, guint8 out[257])
{
	guint n_pairwise = rsne->n_pairwise;
	guint n_akms = rsne->n_akms;
	gsize pos = 2;

	if (n_pairwise > WIFI_RSNE_MAX_SUITES)
		n_pairwise = WIFI_RSNE_MAX_SUITES;
	if (n_akms > WIFI_RSNE_MAX_SUITES)
		n_akms = WIFI_RSNE_MAX_SUITES;

	out[0] = WIFI_ELEMENT_RSN;
	pos += put_le16(out + pos, rsne->version);
	pos += put_suite(out + pos, rsne->group_cipher);
	pos += put_le16(out + pos, n_pairwise);
	for (guint i = 0; i < n_pairwise; i++)
		pos += put_suite(out + pos, rsne->pairwise[i]);
	pos += put_le16(out + pos, n_akms);
	for (guint i = 0; i < n_akms; i++)
		pos += put_suite(out + pos, rsne->akms[i]);
	pos += put_le16(out + pos, rsne->capabilities);
	if (pmkid != NULL || rsne->group_mgmt_cipher != 0) {
		pos += put_le16(out + pos, pmkid != NULL ? 1 : 0);
		if (pmkid != NULL) {
			memcpy(out + pos, pmkid, 16);
			pos += 16;
		}
	}
	if (rsne->group_mgmt_cipher != 0)
		pos += put_suite(out + pos, rsne->group_mgmt_cipher);
	out[1] = (guint8)(pos - 2);
	return pos;
}

static gboolean
rsne_equivalent(const WifiRsne *a, const WifiRsne *b)
{
	guint32 mgmt_a = a->group_mgmt_cipher, mgmt_b = b->group_mgmt_cipher;

	/* With MFP, an absent group management cipher means BIP-CMAC-128. */
	if (mgmt_a == 0 && (a->capabilities & RSN_CAP_MFPC))
		mgmt_a = 0x000fac06;
	if (mgmt_b == 0 && (b->capabilities & RSN_CAP_MFPC))
		mgmt_b = 0x000fac06;
	return a->version == b->version && a->group_cipher == b->group_cipher &&
	       a->n_pairwise == b->n_pairwise &&
	       memcmp(a->pairwise, b->pairwise, a->n_pairwise * sizeof(guint32)) == 0 &&
	       a->n_akms == b->n_akms &&
	       memcmp(a->akms, b->akms, a->n_akms * sizeof(guint32)) == 0 &&
	       a->capabilities == b->capabilities && mgmt_a == mgmt_b;
}

gboolean
wifi_rsne_matches(const guint8 *beacon, gsize beacon_len, const guint8 *msg3, gsize msg3_len,
                  GError **error)
{
	WifiRsne a, b;

	if (beacon_len == msg3_len && memcmp(beacon, msg3, beacon_len) == 0)
		return TRUE;
	if (wifi_rsne_parse(beacon, beacon_len, &a, NULL) &&
	    wifi_rsne_parse(msg3, msg3_len, &b, NULL) && rsne_equivalent(&a, &b))
		return TRUE;
	g_set_error_literal(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
	                    "The access point's RSN element in message 3 of the 4-way handshake "
	                    "differs from the one in its beacon or probe response: either the "
	                    "access point is misconfigured or someone is trying to downgrade "
	                    "the connection's security; not connecting");
	return FALSE;
}
