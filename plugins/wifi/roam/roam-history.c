/* roam-history.c - the roamer's last moves and counters (see
 * roam-history.h). */
#include "roam-history.h"

#include "joind-mac.h"

void
wifi_roam_history_add(WifiRoamHistory *self, const WifiRoamRecord *record)
{
	self->records[self->next] = *record;
	self->next = (self->next + 1) % WIFI_ROAM_HISTORY_LEN;
	self->n_records = MIN(self->n_records + 1, WIFI_ROAM_HISTORY_LEN);
	if (record->ok)
		self->roams++;
	else
		self->failures++;
}

static GVariant *
record_to_variant(const WifiRoamRecord *r)
{
	gchar from[JOIND_MAC_STRING_LEN], to[JOIND_MAC_STRING_LEN];
	g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc(r->started_real / G_USEC_PER_SEC);
	g_autofree gchar *time = when != NULL ? g_date_time_format_iso8601(when) : g_strdup("");
	GVariantDict d;

	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "time", "s", time);
	g_variant_dict_insert(&d, "trigger", "s", wifi_roam_trigger_to_string(r->trigger));
	g_variant_dict_insert(&d, "method", "s", r->method);
	g_variant_dict_insert(&d, "from", "s", joind_mac_to_string(r->from, from));
	g_variant_dict_insert(&d, "to", "s", joind_mac_to_string(r->to, to));
	g_variant_dict_insert(&d, "duration_ms", "u", r->duration_ms);
	g_variant_dict_insert(&d, "result", "s", r->ok ? "ok" : "failed");
	if (!r->ok)
		g_variant_dict_insert(&d, "status", "q", r->status);
	return g_variant_dict_end(&d);
}

GVariant *
wifi_roam_history_to_variant(const WifiRoamHistory *self)
{
	GVariantBuilder last;
	GVariantDict d;

	g_variant_builder_init(&last, G_VARIANT_TYPE("aa{sv}"));
	for (guint i = 1; i <= self->n_records; i++) {
		guint at = (self->next + WIFI_ROAM_HISTORY_LEN - i) % WIFI_ROAM_HISTORY_LEN;

		g_variant_builder_add_value(&last, record_to_variant(&self->records[at]));
	}
	g_variant_dict_init(&d, NULL);
	g_variant_dict_insert(&d, "searches", "u", self->searches);
	g_variant_dict_insert(&d, "roams", "u", self->roams);
	g_variant_dict_insert(&d, "failures", "u", self->failures);
	g_variant_dict_insert(&d, "btm_requests", "u", self->btm_requests);
	g_variant_dict_insert_value(&d, "last", g_variant_builder_end(&last));
	return g_variant_dict_end(&d);
}
