/* eap-tls-frag.c - EAP-TLS Flags, reassembly and fragmentation. */
#include "eap-tls-frag.h"

#include <string.h>

#include <gio/gio.h>

gboolean
eap_tls_header_parse(const guint8 *data, gsize len, EapTlsHeader *header, GError **error)
{
	memset(header, 0, sizeof(*header));
	if (len < 1) {
		g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		                    "EAP-TLS packet without its Flags octet");
		return FALSE;
	}
	header->flags = data[0];
	data++;
	len--;
	if (header->flags & EAP_TLS_FLAG_LENGTH) {
		if (len < 4) {
			g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
			            "EAP-TLS L flag with %zu octets, the length needs 4", len);
			return FALSE;
		}
		header->has_length = TRUE;
		header->tls_length = ((guint32)data[0] << 24) | ((guint32)data[1] << 16) |
		                     ((guint32)data[2] << 8) | data[3];
		data += 4;
		len -= 4;
	}
	header->data = data;
	header->data_len = len;
	return TRUE;
}

struct _EapTlsReassembler {
	gsize max_len;
	GByteArray *buf; /* NULL when idle */
	gboolean known;  /* expected is valid */
	gsize expected;
	GBytes *complete; /* a finished message until taken */
};

EapTlsReassembler *
eap_tls_reassembler_new(gsize max_len)
{
	EapTlsReassembler *r = g_new0(EapTlsReassembler, 1);

	r->max_len = max_len;
	return r;
}

void
eap_tls_reassembler_reset(EapTlsReassembler *r)
{
	g_clear_pointer(&r->buf, g_byte_array_unref);
	g_clear_pointer(&r->complete, g_bytes_unref);
	r->known = FALSE;
	r->expected = 0;
}

void
eap_tls_reassembler_free(EapTlsReassembler *r)
{
	if (r == NULL)
		return;
	eap_tls_reassembler_reset(r);
	g_free(r);
}

gboolean
eap_tls_reassembler_in_progress(EapTlsReassembler *r)
{
	return r->buf != NULL;
}

static gboolean eap_tls_reassembler_fail(EapTlsReassembler *r, GError **error, const gchar *format,
                                         ...) G_GNUC_PRINTF(3, 4);

static gboolean
eap_tls_reassembler_fail(EapTlsReassembler *r, GError **error, const gchar *format, ...)
{
	g_autofree gchar *message = NULL;
	va_list args;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);
	eap_tls_reassembler_reset(r);
	return FALSE;
}

/* The first packet of a message: alone, or the first of several. */
static gboolean
eap_tls_reassembler_first(EapTlsReassembler *r, const EapTlsHeader *h, GError **error)
{
	gboolean more = (h->flags & EAP_TLS_FLAG_MORE) != 0;

	if (more && !h->has_length)
		return eap_tls_reassembler_fail(r, error,
		                                "first EAP-TLS fragment without the L flag");
	if (h->has_length && h->tls_length > r->max_len)
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS message of %u octets exceeds the %zu accepted",
		        h->tls_length, r->max_len);
	if (h->has_length && h->data_len > h->tls_length)
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS fragment of %zu octets exceeds the announced %u",
		        h->data_len, h->tls_length);
	if (!more && h->has_length && h->data_len != h->tls_length)
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS message announces %u octets but carries %zu",
		        h->tls_length, h->data_len);
	if (h->data_len > r->max_len)
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS message of %zu octets exceeds the %zu accepted",
		        h->data_len, r->max_len);
	r->buf = g_byte_array_sized_new((guint)(h->has_length ? h->tls_length : h->data_len));
	r->known = h->has_length;
	r->expected = h->tls_length;
	return TRUE;
}

gboolean
eap_tls_reassembler_push(EapTlsReassembler *r, const EapTlsHeader *h, gboolean *complete,
                         GError **error)
{
	gboolean more = (h->flags & EAP_TLS_FLAG_MORE) != 0;
	gsize total;

	*complete = FALSE;
	g_clear_pointer(&r->complete, g_bytes_unref);
	if (r->buf == NULL) {
		if (!eap_tls_reassembler_first(r, h, error))
			return FALSE;
	} else if (h->has_length && (!r->known || h->tls_length != r->expected)) {
		return eap_tls_reassembler_fail(r, error,
		                                "EAP-TLS fragment changes the message length to %u",
		                                h->tls_length);
	}
	if (more && h->data_len == 0)
		return eap_tls_reassembler_fail(r, error, "empty EAP-TLS fragment with the M flag");
	total = r->buf->len + h->data_len;
	if (total > r->max_len || (r->known && total > r->expected))
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS fragments add up to more than the %zu octets announced",
		        r->known ? r->expected : r->max_len);
	if (more && r->known && total == r->expected)
		return eap_tls_reassembler_fail(
		        r, error, "EAP-TLS fragment has the M flag but completes the message");
	if (!more && r->known && total != r->expected)
		return eap_tls_reassembler_fail(r, error,
		                                "EAP-TLS message ends after %zu of %zu octets",
		                                total, r->expected);
	g_byte_array_append(r->buf, h->data, (guint)h->data_len);
	if (more)
		return TRUE;
	r->complete = g_byte_array_free_to_bytes(g_steal_pointer(&r->buf));
	r->known = FALSE;
	*complete = TRUE;
	return TRUE;
}

GBytes *
eap_tls_reassembler_take(EapTlsReassembler *r)
{
	return g_steal_pointer(&r->complete);
}

struct _EapTlsFragmenter {
	GBytes *message;
	gsize offset;
};

EapTlsFragmenter *
eap_tls_fragmenter_new(void)
{
	return g_new0(EapTlsFragmenter, 1);
}

void
eap_tls_fragmenter_free(EapTlsFragmenter *f)
{
	if (f == NULL)
		return;
	g_clear_pointer(&f->message, g_bytes_unref);
	g_free(f);
}

void
eap_tls_fragmenter_set(EapTlsFragmenter *f, GBytes *message)
{
	g_clear_pointer(&f->message, g_bytes_unref);
	f->message = message != NULL ? g_bytes_ref(message) : NULL;
	f->offset = 0;
}

gboolean
eap_tls_fragmenter_pending(EapTlsFragmenter *f)
{
	return f->message != NULL && f->offset < g_bytes_get_size(f->message);
}

void
eap_tls_fragmenter_next(EapTlsFragmenter *f, gsize max_type_data, guint8 version_bits,
                        GByteArray *out)
{
	gsize total = f->message != NULL ? g_bytes_get_size(f->message) : 0;
	const guint8 *data = f->message != NULL ? g_bytes_get_data(f->message, NULL) : NULL;
	gsize room = MAX(max_type_data, 16) - 1;
	gsize remaining = total - f->offset;
	guint8 flags = version_bits & EAP_TLS_VERSION_MASK;
	gsize chunk;

	if (f->offset == 0 && remaining > room) {
		/* RFC 5216 3.1: the first fragment carries L and the total. */
		guint8 length[4] = {(guint8)(total >> 24), (guint8)(total >> 16),
		                    (guint8)(total >> 8), (guint8)total};
		flags |= EAP_TLS_FLAG_LENGTH | EAP_TLS_FLAG_MORE;
		chunk = room - 4;
		g_byte_array_append(out, &flags, 1);
		g_byte_array_append(out, length, 4);
	} else {
		if (remaining > room)
			flags |= EAP_TLS_FLAG_MORE;
		chunk = MIN(remaining, room);
		g_byte_array_append(out, &flags, 1);
	}
	if (chunk > 0)
		g_byte_array_append(out, data + f->offset, (guint)chunk);
	f->offset += chunk;
	if (f->offset >= total) {
		g_clear_pointer(&f->message, g_bytes_unref);
		f->offset = 0;
	}
}
