/* joind-variant-writer.c - GVariant's serialised form, written directly
 * (see joind-variant-writer.h). */
#include "joind-variant-writer.h"

#include <string.h>

void
joind_variant_writer_align(JoindVariantWriter *w, guint align)
{
	static const guint8 zeros[8] = {0};
	gsize used = w->buf->len % align;

	if (used != 0)
		g_byte_array_append(w->buf, zeros, (guint)(align - used));
}

void
joind_variant_writer_init(JoindVariantWriter *w)
{
	w->buf = g_byte_array_new();
}

GVariant *
joind_variant_writer_finish(JoindVariantWriter *w, const GVariantType *type)
{
	GBytes *bytes = g_byte_array_free_to_bytes(w->buf);
	GVariant *value = g_variant_new_from_bytes(type, bytes, TRUE);

	g_bytes_unref(bytes);
	w->buf = NULL;
	return value;
}

void
joind_variant_writer_open(JoindVariantWriter *w, JoindVariantFrame *frame, guint align)
{
	/* Containers start aligned within their parent, itself aligned: the
	 * buffer's offsets and the container's agree on alignment. */
	joind_variant_writer_align(w, align);
	frame->start = w->buf->len;
	frame->ends = frame->inline_ends;
	frame->n_ends = 0;
	frame->max_ends = JOIND_VARIANT_FRAME_INLINE;
}

void
joind_variant_writer_mark(JoindVariantWriter *w, JoindVariantFrame *frame)
{
	if (frame->n_ends == frame->max_ends) {
		frame->max_ends *= 2;
		if (frame->ends == frame->inline_ends)
			frame->ends = g_memdup2(frame->inline_ends, sizeof(frame->inline_ends));
		frame->ends = g_renew(gsize, frame->ends, frame->max_ends);
	}
	frame->ends[frame->n_ends++] = w->buf->len - frame->start;
}

/* The size of each framing offset: the smallest that can address the
 * whole container, offsets included. */
static guint
writer_offset_size(gsize body, guint n)
{
	if (body + n <= G_MAXUINT8)
		return 1;
	if (body + 2 * (gsize)n <= G_MAXUINT16)
		return 2;
	if (body + 4 * (gsize)n <= G_MAXUINT32)
		return 4;
	return 8;
}

void
joind_variant_writer_close(JoindVariantWriter *w, JoindVariantFrame *frame, gboolean array)
{
	guint n = frame->n_ends;
	guint size = n > 0 ? writer_offset_size(w->buf->len - frame->start, n) : 0;

	for (guint i = 0; i < n; i++) {
		guint64 end = frame->ends[array ? i : n - 1 - i];
		guint8 le[8];

		for (guint b = 0; b < size; b++)
			le[b] = (guint8)(end >> (8 * b));
		g_byte_array_append(w->buf, le, size);
	}
	if (frame->ends != frame->inline_ends)
		g_free(frame->ends);
	frame->ends = NULL;
}

void
joind_variant_writer_string(JoindVariantWriter *w, const gchar *s)
{
	g_byte_array_append(w->buf, (const guint8 *)s, (guint)strlen(s) + 1);
}

void
joind_variant_writer_value(JoindVariantWriter *w, GVariant *value, guint align)
{
	gsize size;

	g_variant_ref_sink(value);
	joind_variant_writer_align(w, align);
	size = g_variant_get_size(value);
	g_byte_array_set_size(w->buf, w->buf->len + (guint)size);
	g_variant_store(value, w->buf->data + w->buf->len - size);
	g_variant_unref(value);
}

/* A variant is its value, a zero byte and the value's type string. */
void
joind_variant_writer_variant_string(JoindVariantWriter *w, const gchar *s)
{
	joind_variant_writer_string(w, s);
	g_byte_array_append(w->buf, (const guint8 *)"\0s", 2);
}

void
joind_variant_writer_variant_boolean(JoindVariantWriter *w, gboolean b)
{
	const guint8 bytes[] = {b ? 1 : 0, 0, 'b'};

	g_byte_array_append(w->buf, bytes, sizeof(bytes));
}
