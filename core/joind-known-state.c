/* joind-known-state.c - the core's memory of known networks.
 *
 * Keyed by "<ssid-hex>_<type>" like the KnownNetwork1 object paths.
 * Held in memory; state.json persistence is being added (issue 6).
 */
#include "joind-known-state.h"

#include "joind-known.h"

typedef struct {
	GArray *freqs; /* guint32, most recent first */
	gint64 last_connected;
} Entry;

struct _JoindKnownState {
	gchar *state_dir;
	GHashTable *entries; /* key -> Entry */
};

static void
entry_free(gpointer data)
{
	Entry *entry = data;

	g_array_unref(entry->freqs);
	g_free(entry);
}

static gchar *
entry_key(const guint8 *ssid, gsize ssid_len, JoindProfileType type)
{
	GString *key = g_string_new(NULL);

	for (gsize i = 0; i < ssid_len; i++)
		g_string_append_printf(key, "%02x", ssid[i]);
	g_string_append_printf(key, "_%d", (gint)type);
	return g_string_free(key, FALSE);
}

static Entry *
entry_lookup(JoindKnownState *self, const guint8 *ssid, gsize ssid_len, JoindProfileType type,
             gboolean create)
{
	g_autofree gchar *key = entry_key(ssid, ssid_len, type);
	Entry *entry = g_hash_table_lookup(self->entries, key);

	if (entry == NULL && create) {
		entry = g_new0(Entry, 1);
		entry->freqs = g_array_new(FALSE, FALSE, sizeof(guint32));
		g_hash_table_insert(self->entries, g_steal_pointer(&key), entry);
	}
	return entry;
}

static gint
freq_index(GArray *freqs, guint32 freq)
{
	for (guint i = 0; i < freqs->len; i++)
		if (g_array_index(freqs, guint32, i) == freq)
			return (gint)i;
	return -1;
}

JoindKnownState *
joind_known_state_new(const gchar *state_dir)
{
	JoindKnownState *self = g_new0(JoindKnownState, 1);

	self->state_dir = g_strdup(state_dir);
	self->entries = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, entry_free);
	return self;
}

void
joind_known_state_free(JoindKnownState *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->entries);
	g_free(self->state_dir);
	g_free(self);
}

void
joind_known_state_note_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                 JoindProfileType type, guint32 freq, gint64 now)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, TRUE);
	gint at = freq_index(entry->freqs, freq);

	if (at >= 0)
		g_array_remove_index(entry->freqs, (guint)at);
	g_array_prepend_val(entry->freqs, freq);
	if (entry->freqs->len > JOIND_KNOWN_MAX_FREQUENCIES)
		g_array_set_size(entry->freqs, JOIND_KNOWN_MAX_FREQUENCIES);
	entry->last_connected = now;
}

void
joind_known_state_note_seen(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                            JoindProfileType type, guint32 freq)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, TRUE);

	if (freq_index(entry->freqs, freq) >= 0 || entry->freqs->len >= JOIND_KNOWN_MAX_FREQUENCIES)
		return;
	g_array_append_val(entry->freqs, freq);
}

GArray *
joind_known_state_get_frequencies(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                  JoindProfileType type)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, FALSE);
	GArray *copy = g_array_new(FALSE, FALSE, sizeof(guint32));

	if (entry != NULL)
		g_array_append_vals(copy, entry->freqs->data, entry->freqs->len);
	return copy;
}

gint64
joind_known_state_get_last_connected(JoindKnownState *self, const guint8 *ssid, gsize ssid_len,
                                     JoindProfileType type)
{
	Entry *entry = entry_lookup(self, ssid, ssid_len, type, FALSE);

	return entry != NULL ? entry->last_connected : 0;
}
