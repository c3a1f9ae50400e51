/* test-variant-writer.c - the serialised form written directly
 * (joind-variant-writer.h) is byte for byte what GVariant makes of the
 * same values, for the shape GetManagedObjects answers with: short
 * containers (one-byte framing offsets), long ones (two- and four-byte
 * offsets), empty ones, and the many-element array of objects.
 */
#include "joind-variant-writer.h"

/* One "{oa{sa{sv}}}" object with n_props string and boolean properties
 * whose strings are len bytes long, by the writer and by GVariantBuilder. */
static void
write_object(JoindVariantWriter *w, guint index, guint n_props, gsize len, GVariantBuilder *b)
{
	g_autofree gchar *path = g_strdup_printf("/net/joind/known/%04x_psk", index);
	g_autofree gchar *text = g_strnfill(len, (gchar)('a' + index % 26));
	JoindVariantFrame entry, ifaces, iface, props, prop;
	GVariantBuilder vb;

	g_variant_builder_init(&vb, G_VARIANT_TYPE_VARDICT);
	joind_variant_writer_open(w, &entry, 8);
	joind_variant_writer_string(w, path);
	joind_variant_writer_mark(w, &entry);
	joind_variant_writer_open(w, &ifaces, 8);
	joind_variant_writer_open(w, &iface, 8);
	joind_variant_writer_string(w, "net.joind.KnownNetwork1");
	joind_variant_writer_mark(w, &iface);
	joind_variant_writer_open(w, &props, 8);
	for (guint i = 0; i < n_props; i++) {
		g_autofree gchar *name = g_strdup_printf("P%u", i);
		GVariant *value =
		        i % 2 == 0 ? g_variant_new_string(text) : g_variant_new_boolean(i % 3 == 0);

		g_variant_builder_add(&vb, "{sv}", name, value);
		joind_variant_writer_open(w, &prop, 8);
		joind_variant_writer_string(w, name);
		joind_variant_writer_mark(w, &prop);
		joind_variant_writer_align(w, 8);
		if (i % 2 == 0)
			joind_variant_writer_variant_string(w, text);
		else
			joind_variant_writer_variant_boolean(w, i % 3 == 0);
		joind_variant_writer_close(w, &prop, FALSE);
		joind_variant_writer_mark(w, &props);
	}
	joind_variant_writer_close(w, &props, TRUE);
	joind_variant_writer_close(w, &iface, FALSE);
	joind_variant_writer_mark(w, &ifaces);
	joind_variant_writer_close(w, &ifaces, TRUE);
	joind_variant_writer_close(w, &entry, FALSE);
	g_variant_builder_add(b, "{o@a{sa{sv}}}", path,
	                      g_variant_new_parsed("{'net.joind.KnownNetwork1': %@a{sv}}",
	                                           g_variant_builder_end(&vb)));
}

static void
check_objects(guint n_objects, guint n_props, gsize len)
{
	JoindVariantWriter w;
	JoindVariantFrame objects;
	GVariantBuilder b;
	g_autoptr(GVariant) written = NULL;
	g_autoptr(GVariant) built = NULL;

	joind_variant_writer_init(&w);
	g_variant_builder_init(&b, G_VARIANT_TYPE("a{oa{sa{sv}}}"));
	joind_variant_writer_open(&w, &objects, 8);
	for (guint i = 0; i < n_objects; i++) {
		write_object(&w, i, n_props, len, &b);
		joind_variant_writer_mark(&w, &objects);
	}
	joind_variant_writer_close(&w, &objects, TRUE);
	written = g_variant_ref_sink(
	        joind_variant_writer_finish(&w, G_VARIANT_TYPE("a{oa{sa{sv}}}")));
	built = g_variant_ref_sink(g_variant_builder_end(&b));
	g_assert_true(g_variant_is_normal_form(written));
	g_assert_cmpuint(g_variant_get_size(written), ==, g_variant_get_size(built));
	g_assert_cmpmem(g_variant_get_data(written), g_variant_get_size(written),
	                g_variant_get_data(built), g_variant_get_size(built));
	g_assert_true(g_variant_equal(written, built));
}

static void
test_small(void)
{
	check_objects(1, 3, 4);
	check_objects(2, 1, 0);
}

static void
test_empty(void)
{
	check_objects(0, 0, 0);
	check_objects(3, 0, 0);
}

static void
test_wide_offsets(void)
{
	check_objects(1, 7, 300);   /* two-byte offsets inside */
	check_objects(300, 7, 20);  /* two-byte offsets at the top */
	check_objects(3000, 7, 40); /* four-byte offsets at the top */
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/variant-writer/small", test_small);
	g_test_add_func("/variant-writer/empty", test_empty);
	g_test_add_func("/variant-writer/wide-offsets", test_wide_offsets);
	return g_test_run();
}
