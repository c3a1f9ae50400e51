/* joind-variant-writer.h - GVariant's serialised form, written directly.
 *
 * For replies with hundreds of thousands of values (GetManagedObjects with
 * thousands of objects), building a GVariant tree costs an allocation per
 * value and as many to free it; writing the serialised bytes costs none.
 * The writer follows GVariant's format (the GVariant specification,
 * "Serialisation"): values aligned within their container, the end of each
 * variable-sized member framed at the container's end, in as few bytes as
 * the container's size allows. Private to the core.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	GByteArray *buf;
} JoindVariantWriter;

/* A container being written: where it starts, and the ends (relative to
 * its start) of the members that are framed. */
#define JOIND_VARIANT_FRAME_INLINE 8
typedef struct {
	gsize start;
	gsize *ends; /* inline_ends until more are needed */
	guint n_ends, max_ends;
	gsize inline_ends[JOIND_VARIANT_FRAME_INLINE];
} JoindVariantFrame;

void joind_variant_writer_init(JoindVariantWriter *w);
/* The bytes written, as a value of type (trusted: the writer made them
 * in normal form); the writer is left empty. */
GVariant *joind_variant_writer_finish(JoindVariantWriter *w, const GVariantType *type);

/* Starts a container whose alignment is align (8 for anything holding a
 * variant). */
void joind_variant_writer_open(JoindVariantWriter *w, JoindVariantFrame *frame, guint align);
/* Marks the end of a framed member: every element of an array of
 * variable-sized elements, every variable-sized member but the last of a
 * tuple or dict entry. */
void joind_variant_writer_mark(JoindVariantWriter *w, JoindVariantFrame *frame);
/* Writes the framing offsets: in order for an array, reversed for a tuple
 * or dict entry. */
void joind_variant_writer_close(JoindVariantWriter *w, JoindVariantFrame *frame, gboolean array);

/* Pads to align (for a member that is not a container). */
void joind_variant_writer_align(JoindVariantWriter *w, guint align);
/* A string or object path. */
void joind_variant_writer_string(JoindVariantWriter *w, const gchar *s);
/* A variant holding the string s, or the boolean b, written without
 * making a GVariant of it (it must start 8-aligned). */
void joind_variant_writer_variant_string(JoindVariantWriter *w, const gchar *s);
void joind_variant_writer_variant_boolean(JoindVariantWriter *w, gboolean b);
/* A serialised value (floating taken), aligned to align first. */
void joind_variant_writer_value(JoindVariantWriter *w, GVariant *value, guint align);

G_END_DECLS
