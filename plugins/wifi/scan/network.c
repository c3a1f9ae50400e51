/* network.c - networks built from BSSes, and how they are ranked.
 *
 * Ranking (all figures in 1/100 dB, the unit of Strength):
 *
 *   BSS score    = signal (100 * dBm)
 *                + band bonus: 5 GHz +500, 6 GHz +800, when the signal is at
 *                  least -75 dBm (wider, cleaner channels are worth ~5-8 dB,
 *                  but not when the link is already weak)
 *                - load penalty: up to -500 from the BSS Load element's
 *                  channel utilisation (0-255)
 *
 *   network rank = best BSS score
 *                + security: sae, 8021x, owe (an open network whose best
 *                  BSS offers OWE) +300; psk +200; open, wep 0
 *                  (among networks of about the same signal, prefer the
 *                  better protected)
 *                + known: +1000 when a profile exists (it can be joined
 *                  without asking anything)
 *                + last used: up to +1000, falling linearly to 0 over 30
 *                  days since the last connection
 *
 * A 10 dB weaker known network therefore ties with an unknown one, and a
 * recently used network wins over a known one used long ago. Ties go to the
 * stronger network, then to the name, so the order is stable.
 */
#include "network.h"

#include <linux/nl80211.h>
#include <string.h>

#include "joind-error.h"
#include "owe-transition.h"
#include "wiphy.h"

#define BAND_BONUS_5GHZ       500
#define BAND_BONUS_6GHZ       800
#define BAND_BONUS_MIN_SIGNAL -7500
#define LOAD_PENALTY_MAX      500
#define KNOWN_BONUS           1000
#define RECENT_BONUS_MAX      1000
#define RECENT_WINDOW         (30 * 24 * 3600)

struct _WifiNetwork {
	JoindNetwork parent_instance;
	GPtrArray *bsses; /* WifiBss, best first */
	gint64 last_connected;
	gint rank;
	const WifiNetworkOwnerOps *owner_ops;
	GWeakRef owner;
};

G_DEFINE_TYPE(WifiNetwork, wifi_network, JOIND_TYPE_NETWORK)

static void
wifi_network_finalize(GObject *object)
{
	WifiNetwork *self = WIFI_NETWORK(object);

	g_ptr_array_unref(self->bsses);
	g_weak_ref_clear(&self->owner);
	G_OBJECT_CLASS(wifi_network_parent_class)->finalize(object);
}

/* Network1.Connect(): the owner (the station the network was seen on)
 * connects. */
static void
wifi_network_connect(JoindNetwork *network, GCancellable *cancellable, GAsyncReadyCallback callback,
                     gpointer user_data)
{
	WifiNetwork *self = WIFI_NETWORK(network);
	g_autoptr(GObject) owner = g_weak_ref_get(&self->owner);

	if (owner == NULL || self->owner_ops == NULL) {
		g_task_report_new_error(network, callback, user_data, wifi_network_connect,
		                        JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		                        "The network is no longer on a station.");
		return;
	}
	self->owner_ops->connect(owner, self, cancellable, callback, user_data);
}

void
wifi_network_set_owner(WifiNetwork *self, const WifiNetworkOwnerOps *ops, GObject *owner)
{
	self->owner_ops = ops;
	g_weak_ref_set(&self->owner, owner);
}

static gboolean
wifi_network_connect_finish(JoindNetwork *network, GAsyncResult *result, GError **error)
{
	return g_task_propagate_boolean(G_TASK(result), error);
}

static void
wifi_network_class_init(WifiNetworkClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = wifi_network_finalize;
	JOIND_NETWORK_CLASS(klass)->connect = wifi_network_connect;
	JOIND_NETWORK_CLASS(klass)->connect_finish = wifi_network_connect_finish;
}

static void
wifi_network_init(WifiNetwork *self)
{
	self->bsses = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
	g_weak_ref_init(&self->owner, NULL);
}

WifiNetwork *
wifi_network_new(GBytes *ssid, JoindNetworkType type)
{
	return g_object_new(WIFI_TYPE_NETWORK, "ssid", ssid, "network-type", type, NULL);
}

gint
wifi_bss_score(const WifiBss *bss)
{
	return wifi_bss_score_at(bss, bss->signal);
}

gint
wifi_bss_score_at(const WifiBss *bss, gint signal)
{
	gint score = signal;
	gint band = wifi_freq_to_band(bss->freq);

	if (signal >= BAND_BONUS_MIN_SIGNAL) {
		if (band == NL80211_BAND_5GHZ)
			score += BAND_BONUS_5GHZ;
		else if (band == NL80211_BAND_6GHZ)
			score += BAND_BONUS_6GHZ;
	}
	if (bss->ies.has_bss_load)
		score -= LOAD_PENALTY_MAX * bss->ies.bss_load_utilization / 255;
	return score;
}

gint
wifi_network_rank(gint best_bss_score, JoindNetworkType type, gboolean known, gint64 last_connected,
                  gint64 now)
{
	gint rank = best_bss_score;

	switch (type) {
	case JOIND_NETWORK_TYPE_SAE:
	case JOIND_NETWORK_TYPE_8021X:
	case JOIND_NETWORK_TYPE_OWE:
		rank += 300;
		break;
	case JOIND_NETWORK_TYPE_PSK:
		rank += 200;
		break;
	case JOIND_NETWORK_TYPE_OPEN:
	case JOIND_NETWORK_TYPE_WEP:
		break;
	}
	if (known)
		rank += KNOWN_BONUS;
	if (last_connected > 0 && now >= last_connected && now - last_connected < RECENT_WINDOW)
		rank += (gint)(RECENT_BONUS_MAX * (RECENT_WINDOW - (now - last_connected)) /
		               RECENT_WINDOW);
	return rank;
}

/* An open network's OWE BSSes come first: Connect() joins the first. */
static gint
compare_bss(gconstpointer a, gconstpointer b)
{
	const WifiBss *ba = *(WifiBss *const *)a;
	const WifiBss *bb = *(WifiBss *const *)b;
	gint d = wifi_bss_offers_owe(bb) - wifi_bss_offers_owe(ba);

	if (d != 0)
		return d;
	d = wifi_bss_score(bb) - wifi_bss_score(ba);

	return d != 0 ? d : memcmp(ba->bssid, bb->bssid, 6);
}

void
wifi_network_update_rank(WifiNetwork *self)
{
	JoindNetwork *parent = JOIND_NETWORK(self);
	WifiBss *first = self->bsses->len > 0 ? g_ptr_array_index(self->bsses, 0) : NULL;
	gint best = first != NULL ? wifi_bss_score(first) : -10000;
	JoindNetworkType type = joind_network_get_network_type(parent);

	if (type == JOIND_NETWORK_TYPE_OPEN && first != NULL && wifi_bss_offers_owe(first))
		type = JOIND_NETWORK_TYPE_OWE;
	self->rank = wifi_network_rank(best, type, joind_network_get_profile(parent) != NULL,
	                               self->last_connected, g_get_real_time() / G_USEC_PER_SEC);
}

void
wifi_network_set_bsses(WifiNetwork *self, GPtrArray *bsses)
{
	gint strength = -10000;
	guint32 akms = 0;
	gboolean mfp_required = bsses->len > 0;

	g_ptr_array_set_size(self->bsses, 0);
	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);

		g_ptr_array_add(self->bsses, wifi_bss_ref(bss));
		strength = MAX(strength, bss->signal);
		akms |= (bss->ies.has_rsn ? bss->ies.rsn.akms : 0) |
		        (bss->ies.has_wpa ? bss->ies.wpa.akms : 0);
		mfp_required = mfp_required && bss->ies.has_rsn &&
		               (bss->ies.rsn.capabilities & WIFI_RSN_CAP_MFPR) != 0;
	}
	g_ptr_array_sort(self->bsses, compare_bss);
	joind_network_set_strength(JOIND_NETWORK(self), strength);
	joind_network_set_security(
	        JOIND_NETWORK(self),
	        wifi_security_name(joind_network_get_network_type(JOIND_NETWORK(self)), akms,
	                           mfp_required));
	wifi_network_update_rank(self);
}

GPtrArray *
wifi_network_get_bsses(WifiNetwork *self)
{
	return self->bsses;
}

void
wifi_network_set_last_connected(WifiNetwork *self, gint64 unix_time)
{
	self->last_connected = unix_time;
	wifi_network_update_rank(self);
}

gint
wifi_network_get_rank(WifiNetwork *self)
{
	return self->rank;
}

gint
wifi_network_compare(WifiNetwork *a, WifiNetwork *b)
{
	JoindNetwork *ja = JOIND_NETWORK(a);
	JoindNetwork *jb = JOIND_NETWORK(b);

	if (a->rank != b->rank)
		return b->rank - a->rank;
	if (joind_network_get_strength(ja) != joind_network_get_strength(jb))
		return joind_network_get_strength(jb) - joind_network_get_strength(ja);
	return g_strcmp0(joind_network_get_name(ja), joind_network_get_name(jb));
}

/* Every scan keys each BSS and network: no printf per octet. */
gchar *
wifi_ssid_key(const guint8 *ssid, gsize ssid_len, const gchar *suffix)
{
	static const gchar digits[] = "0123456789abcdef";
	gsize suffix_len = strlen(suffix);
	gchar *key = g_malloc(ssid_len * 2 + suffix_len + 2);
	gchar *p = key;

	for (gsize i = 0; i < ssid_len; i++) {
		*p++ = digits[ssid[i] >> 4];
		*p++ = digits[ssid[i] & 0xf];
	}
	*p++ = '_';
	memcpy(p, suffix, suffix_len + 1);
	return key;
}

gchar *
wifi_network_key(const guint8 *ssid, gsize ssid_len, JoindNetworkType type)
{
	return wifi_ssid_key(ssid, ssid_len, joind_network_type_to_string(type));
}

GHashTable *
wifi_group_bsses(GPtrArray *bsses)
{
	GHashTable *groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                           (GDestroyNotify)g_ptr_array_unref);

	for (guint i = 0; i < bsses->len; i++) {
		WifiBss *bss = g_ptr_array_index(bsses, i);
		WifiBss *open = wifi_owe_transition_find_open(bsses, bss);
		const WifiBss *named = open != NULL ? open : bss;
		g_autofree gchar *key = NULL;
		GPtrArray *group;

		if (open == NULL && wifi_bss_is_hidden(bss))
			continue;
		key = wifi_network_key(named->ies.ssid, named->ies.ssid_len, named->type);
		group = g_hash_table_lookup(groups, key);
		if (group == NULL) {
			group = g_ptr_array_new_with_free_func((GDestroyNotify)wifi_bss_unref);
			g_hash_table_insert(groups, g_steal_pointer(&key), group);
		}
		/* The first names the network: never an OWE BSS of a pair. */
		if (open != NULL)
			g_ptr_array_add(group, wifi_bss_ref(bss));
		else
			g_ptr_array_insert(group, 0, wifi_bss_ref(bss));
	}
	return groups;
}

gchar *
wifi_known_profile_key(GBytes *ssid, JoindProfileType type)
{
	gsize len = 0;
	const guint8 *data = g_bytes_get_data(ssid, &len);
	g_autofree gchar *suffix = g_strdup_printf("profile%d", (gint)type);

	return wifi_ssid_key(data, len, suffix);
}

gchar *
wifi_known_network_key(JoindNetwork *network)
{
	JoindProfileType type;

	if (!joind_network_type_to_profile_type(joind_network_get_network_type(network), &type))
		return NULL;
	return wifi_known_profile_key(joind_network_get_ssid(network), type);
}
