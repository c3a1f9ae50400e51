/* sae.c - one SAE exchange and its state machine (see sae.h).
 *
 *   NOTHING    no commit sent (a peer's commit is answered from here)
 *   COMMITTED  our commit sent; its timer resends it
 *   CONFIRMED  the peer's commit processed, our confirm sent; its timer
 *              resends the confirm
 *   ACCEPTED   the peer's confirm verified: PMK and PMKID are ready
 * sae_enter() is the only place the state changes; it logs
 * `old -> new (reason)` and owns the retransmission timer. Each
 * retransmission counts in sync; past WIFI_SAE_MAX_SYNC the exchange
 * fails. */
#include "sae.h"

#include <string.h>

#include <openssl/crypto.h>

#include "joind-crypto.h"
#include "joind-log.h"
#include "joind-secret.h"
#include "sae-crypto.h"
#include "codes.h"

#define SAE_SEQ_COMMIT  1
#define SAE_SEQ_CONFIRM 2

struct _WifiSae {
	WifiSaeConfig config; /* its pointers into the copies below */
	guint8 *password;
	guint *groups;
	guint group_index;
	WifiSaeState state;
	guint timer;
	guint sync;
	/* the group's exchange */
	JoindEcGroup *group;
	EC_POINT *pwe;
	BIGNUM *rand, *scalar, *peer_scalar;
	EC_POINT *element;
	guint8 own_scalar[JOIND_EC_MAX_PRIME_LEN], own_element[2 * JOIND_EC_MAX_PRIME_LEN];
	guint8 peer_scalar_octets[JOIND_EC_MAX_PRIME_LEN];
	guint8 peer_element[2 * JOIND_EC_MAX_PRIME_LEN];
	guint8 kck[WIFI_SAE_MAX_HASH_LEN];
	gsize kck_len;
	guint8 pmk[WIFI_SAE_PMK_LEN];
	guint8 pmkid[WIFI_SAE_PMKID_LEN];
	guint16 send_confirm;
	GBytes *token;        /* the peer's anti-clogging token */
	GByteArray *rejected; /* groups the peer refused, 16-bit LE */
};

static const gchar *const sae_state_names[] = {
        [WIFI_SAE_NOTHING] = "nothing",
        [WIFI_SAE_COMMITTED] = "committed",
        [WIFI_SAE_CONFIRMED] = "confirmed",
        [WIFI_SAE_ACCEPTED] = "accepted",
};
G_STATIC_ASSERT(G_N_ELEMENTS(sae_state_names) == WIFI_SAE_LAST + 1);

static void sae_enter(WifiSae *sae, WifiSaeState state, const gchar *reason);

static gsize
sae_order_len(const WifiSae *sae)
{
	return joind_ec_group_get_order_len(sae->group);
}

static gsize
sae_element_len(const WifiSae *sae)
{
	return 2 * joind_ec_group_get_prime_len(sae->group);
}

/* ---- the group's exchange ---- */

static void
sae_clear_group(WifiSae *sae)
{
	g_clear_pointer(&sae->group, joind_ec_group_free);
	g_clear_pointer(&sae->pwe, EC_POINT_clear_free);
	g_clear_pointer(&sae->element, EC_POINT_free);
	g_clear_pointer(&sae->rand, BN_clear_free);
	g_clear_pointer(&sae->scalar, BN_free);
	g_clear_pointer(&sae->peer_scalar, BN_free);
	g_clear_pointer(&sae->token, g_bytes_unref);
	joind_secret_clear(sae->kck, sizeof(sae->kck));
	joind_secret_clear(sae->pmk, sizeof(sae->pmk));
	memset(sae->pmkid, 0, sizeof(sae->pmkid));
}

/* H2E's PT: the network's cached one for the group, else derived (and
 * kept there for the profile). */
static EC_POINT *
sae_get_pt(WifiSae *sae, GError **error)
{
	const WifiSaeConfig *c = &sae->config;
	guint number = joind_ec_group_get_number(sae->group);
	guint8 octets[2 * JOIND_EC_MAX_PRIME_LEN];
	gsize len = 0;
	const guint8 *cached =
	        c->pts != NULL ? wifi_sae_pt_cache_lookup(c->pts, number, &len) : NULL;
	EC_POINT *pt = NULL;

	if (cached != NULL)
		pt = joind_ec_group_point_from_octets(sae->group, cached, len, NULL);
	if (pt != NULL) {
		g_debug("SAE: the cached PT of group %u", number);
		return pt;
	}
	pt = wifi_sae_derive_pt(sae->group, c->ssid, c->ssid_len, c->password, c->password_len,
	                        c->identifier, error);
	if (pt != NULL && c->pts != NULL &&
	    joind_ec_group_point_to_octets(sae->group, pt, octets, NULL))
		wifi_sae_pt_cache_store(c->pts, number, octets, sae_element_len(sae));
	joind_secret_clear(octets, sizeof(octets));
	return pt;
}

static EC_POINT *
sae_derive_pwe(WifiSae *sae, GError **error)
{
	const WifiSaeConfig *c = &sae->config;
	EC_POINT *pt, *pwe;

	if (!c->h2e)
		return wifi_sae_pwe_hunt(sae->group, c->own_addr, c->peer_addr, c->password,
		                         c->password_len, c->identifier, NULL, error);
	pt = sae_get_pt(sae, error);
	if (pt == NULL)
		return NULL;
	pwe = wifi_sae_pwe_from_pt(sae->group, pt, c->own_addr, c->peer_addr, error);
	EC_POINT_clear_free(pt);
	return pwe;
}

/* The password element and our commit for groups[group_index]. */
static gboolean
sae_prepare(WifiSae *sae, GError **error)
{
	sae_clear_group(sae);
	sae->group = joind_ec_group_new(sae->groups[sae->group_index], error);
	if (sae->group == NULL || (sae->pwe = sae_derive_pwe(sae, error)) == NULL)
		return FALSE;
	sae->rand = BN_secure_new();
	sae->scalar = BN_new();
	sae->element = EC_POINT_new(joind_ec_group_get_curve(sae->group));
	if (sae->rand == NULL || sae->scalar == NULL || sae->element == NULL) {
		g_set_error_literal(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_FAILED,
		                    "OpenSSL failed to allocate the SAE commit");
		return FALSE;
	}
	return joind_ec_group_commit(sae->group, sae->pwe, sae->rand, NULL, sae->scalar,
	                             sae->element, error) &&
	       joind_ec_group_scalar_to_octets(sae->group, sae->scalar, sae->own_scalar, error) &&
	       joind_ec_group_point_to_octets(sae->group, sae->element, sae->own_element, error);
}

/* ---- sending ---- */

static void
sae_send(WifiSae *sae, guint16 seq, guint16 status, GByteArray *body)
{
	guint8 head[4] = {(guint8)seq, (guint8)(seq >> 8), (guint8)status, (guint8)(status >> 8)};

	g_byte_array_prepend(body, head, sizeof(head));
	sae->config.send(body->data, body->len, sae->config.user_data);
}

static void
sae_send_commit(WifiSae *sae)
{
	g_autoptr(GByteArray) body = g_byte_array_new();
	WifiSaeCommit commit = {
	        .group = (guint16)sae->groups[sae->group_index],
	        .scalar = sae->own_scalar,
	        .element = sae->own_element,
	        .identifier = (const guint8 *)sae->config.identifier,
	        .identifier_len =
	                sae->config.identifier != NULL ? strlen(sae->config.identifier) : 0,
	        .rejected = sae->rejected->len > 0 ? sae->rejected->data : NULL,
	        .rejected_len = sae->rejected->len,
	};

	if (sae->token != NULL)
		commit.token = g_bytes_get_data(sae->token, &commit.token_len);
	wifi_sae_commit_build(body, &commit, sae->config.h2e, sae_order_len(sae),
	                      sae_element_len(sae));
	sae_send(sae, SAE_SEQ_COMMIT,
	         sae->config.h2e ? WIFI_SAE_STATUS_HASH_TO_ELEMENT : WIFI_SAE_STATUS_SUCCESS, body);
}

static gboolean
sae_send_confirm(WifiSae *sae, GError **error)
{
	g_autoptr(GByteArray) body = g_byte_array_new();
	guint8 sc[2] = {(guint8)sae->send_confirm, (guint8)(sae->send_confirm >> 8)};
	guint8 confirm[WIFI_SAE_MAX_HASH_LEN];

	if (!wifi_sae_confirm_compute(sae->group, sae->kck, sae->kck_len, sae->send_confirm,
	                              sae->own_scalar, sae->own_element, sae->peer_scalar_octets,
	                              sae->peer_element, confirm, error))
		return FALSE;
	g_byte_array_append(body, sc, 2);
	g_byte_array_append(body, confirm, (guint)sae->kck_len);
	sae_send(sae, SAE_SEQ_CONFIRM, WIFI_SAE_STATUS_SUCCESS, body);
	if (sae->send_confirm < G_MAXUINT16)
		sae->send_confirm++;
	return TRUE;
}

/* ---- the machine ---- */

static void
sae_fail(WifiSae *sae, const GError *error)
{
	sae_enter(sae, WIFI_SAE_NOTHING, error->message);
	sae->config.done(error, sae->config.user_data);
}

static void
sae_fail_with(WifiSae *sae, GError *error)
{
	g_autoptr(GError) owned = error;

	sae_fail(sae, owned);
}

static gboolean
sae_retransmit(gpointer user_data)
{
	WifiSae *sae = user_data;
	g_autoptr(GError) error = NULL;

	sae->timer = 0;
	if (sae->sync >= WIFI_SAE_MAX_SYNC) {
		/* The peer answered our commit but never confirmed: it did
		 * not find our confirm right. */
		if (sae->state == WIFI_SAE_CONFIRMED)
			error = g_error_new(
			        WIFI_SAE_ERROR, WIFI_SAE_ERROR_NO_CONFIRM,
			        "The peer did not confirm SAE after %u tries: the password "
			        "is probably wrong.",
			        sae->sync + 1);
		else
			error = g_error_new(
			        WIFI_SAE_ERROR, WIFI_SAE_ERROR_TIMED_OUT,
			        "The peer did not answer the SAE commit after %u tries.",
			        sae->sync + 1);
		sae_fail(sae, error);
		return G_SOURCE_REMOVE;
	}
	sae->sync++;
	if (sae->state == WIFI_SAE_COMMITTED) {
		sae_send_commit(sae);
	} else if (!sae_send_confirm(sae, &error)) {
		sae_fail(sae, error);
		return G_SOURCE_REMOVE;
	}
	sae->timer = g_timeout_add(sae->config.retrans_ms, sae_retransmit, sae);
	return G_SOURCE_REMOVE;
}

static void
sae_enter(WifiSae *sae, WifiSaeState state, const gchar *reason)
{
	joind_log_state_change(G_LOG_DOMAIN, G_LOG_LEVEL_DEBUG, JOIND_LOG_STATE_CHANGE,
	                       &(JoindLogSubject){"wifi", NULL, NULL, "SAE"},
	                       sae_state_names[sae->state], sae_state_names[state], reason);
	g_clear_handle_id(&sae->timer, g_source_remove);
	sae->state = state;
	switch (state) {
	case WIFI_SAE_NOTHING:
		sae->sync = 0;
		break;
	case WIFI_SAE_COMMITTED:
	case WIFI_SAE_CONFIRMED:
		sae->timer = g_timeout_add(sae->config.retrans_ms, sae_retransmit, sae);
		break;
	case WIFI_SAE_ACCEPTED:
		sae->config.done(NULL, sae->config.user_data);
		break;
	}
}

/* ---- the peer's commit ---- */

static gboolean
sae_decode_peer(WifiSae *sae, const WifiSaeCommit *commit, EC_POINT **element, GError **error)
{
	g_autoptr(GError) local = NULL;

	BN_free(sae->peer_scalar);
	sae->peer_scalar = joind_ec_group_scalar_from_octets(sae->group, commit->scalar,
	                                                     sae_order_len(sae), &local);
	if (sae->peer_scalar != NULL)
		*element = joind_ec_group_point_from_octets(sae->group, commit->element,
		                                            sae_element_len(sae), &local);
	if (*element == NULL) {
		g_set_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_INVALID, "SAE commit: %s",
		            local->message);
		return FALSE;
	}
	memcpy(sae->peer_scalar_octets, commit->scalar, sae_order_len(sae));
	memcpy(sae->peer_element, commit->element, sae_element_len(sae));
	/* Our own commit sent back: whoever did cannot know the password. */
	if (memcmp(commit->scalar, sae->own_scalar, sae_order_len(sae)) == 0 &&
	    memcmp(commit->element, sae->own_element, sae_element_len(sae)) == 0) {
		g_set_error_literal(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_INVALID,
		                    "SAE commit is a reflection of our own");
		return FALSE;
	}
	return TRUE;
}

/* k, then KCK, PMK and PMKID; H2E salts them with the rejected groups. */
static gboolean
sae_derive(WifiSae *sae, const WifiSaeCommit *commit, GError **error)
{
	guint8 k[JOIND_EC_MAX_PRIME_LEN];
	const guint8 *salt = NULL;
	gsize salt_len = 0;
	EC_POINT *element = NULL;
	gboolean ok;

	if (!sae_decode_peer(sae, commit, &element, error)) {
		EC_POINT_free(element);
		return FALSE;
	}
	if (sae->config.h2e && sae->rejected->len > 0) {
		salt = sae->rejected->data;
		salt_len = sae->rejected->len;
	} else if (sae->config.h2e && commit->rejected != NULL) {
		salt = commit->rejected;
		salt_len = commit->rejected_len;
	}
	sae->kck_len = wifi_sae_hash_len(sae->group, sae->config.h2e);
	ok = joind_ec_group_shared_secret(sae->group, sae->pwe, sae->rand, sae->peer_scalar,
	                                  element, k, error) &&
	     wifi_sae_derive_keys(sae->group, sae->config.h2e, salt, salt_len, k, sae->scalar,
	                          sae->peer_scalar, sae->kck, sae->pmk, sae->pmkid, error);
	joind_secret_clear(k, sizeof(k));
	EC_POINT_free(element);
	return ok;
}

/* A group the peer's commit names must be the one we offer (a station)
 * or one of ours (a peer answering in NOTHING). */
static gboolean
sae_check_group(WifiSae *sae, guint16 group, GError **error)
{
	for (guint i = 0; sae->state == WIFI_SAE_NOTHING && i < sae->config.n_groups; i++) {
		if (sae->groups[i] == group) {
			sae->group_index = i;
			return sae_prepare(sae, error);
		}
	}
	if (sae->state != WIFI_SAE_NOTHING && group == sae->groups[sae->group_index])
		return TRUE;
	g_set_error(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP,
	            "The peer's SAE commit is for group %u, which joind did not offer", group);
	return FALSE;
}

static void
sae_rx_commit_ok(WifiSae *sae, const guint8 *body, gsize len)
{
	g_autoptr(GError) error = NULL;
	WifiSaeCommit commit;
	gboolean answer = sae->state == WIFI_SAE_NOTHING;

	if (!wifi_sae_commit_parse(body, len, sae->config.h2e, 0, &commit, &error) ||
	    !sae_check_group(sae, commit.group, &error) || !sae_derive(sae, &commit, &error)) {
		sae_fail(sae, error);
		return;
	}
	if (answer)
		sae_send_commit(sae);
	sae->send_confirm = 1;
	if (!sae_send_confirm(sae, &error)) {
		sae_fail(sae, error);
		return;
	}
	sae_enter(sae, WIFI_SAE_CONFIRMED, "the peer's commit");
}

/* The peer wants a token first (anti-clogging): the same commit again,
 * with it. */
static void
sae_rx_token(WifiSae *sae, const guint8 *body, gsize len)
{
	g_autoptr(GError) error = NULL;
	const guint8 *token;
	gsize token_len;
	guint16 group;

	if (!wifi_sae_token_parse(body, len, sae->config.h2e, &group, &token, &token_len, &error)) {
		sae_fail(sae, error);
		return;
	}
	if (group != sae->groups[sae->group_index]) {
		g_debug("SAE anti-clogging request for group %u ignored", group);
		return;
	}
	g_clear_pointer(&sae->token, g_bytes_unref);
	sae->token = g_bytes_new(token, token_len);
	sae->sync = 0;
	sae_send_commit(sae);
	sae_enter(sae, WIFI_SAE_COMMITTED, "anti-clogging token");
}

/* The peer refused our group: the next one, if any. */
static void
sae_rx_group_refused(WifiSae *sae)
{
	g_autoptr(GError) error = NULL;
	guint16 refused = (guint16)sae->groups[sae->group_index];
	guint8 le[2] = {(guint8)refused, (guint8)(refused >> 8)};

	g_byte_array_append(sae->rejected, le, 2);
	if (sae->group_index + 1 >= sae->config.n_groups) {
		sae_fail_with(sae, g_error_new(WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP,
		                               "The peer supports none of the SAE groups joind "
		                               "offered (status 77, finite cyclic group not "
		                               "supported, for group %u).",
		                               refused));
		return;
	}
	sae->group_index++;
	sae->sync = 0;
	if (!sae_prepare(sae, &error)) {
		sae_fail(sae, error);
		return;
	}
	sae_send_commit(sae);
	sae_enter(sae, WIFI_SAE_COMMITTED, "the peer refused the group");
}

/* Our confirm was lost and the peer resent its commit: both again
 * (12.4.8.6.5). */
static void
sae_resend_both(WifiSae *sae)
{
	g_autoptr(GError) error = NULL;

	sae->sync++;
	sae_send_commit(sae);
	if (!sae_send_confirm(sae, &error)) {
		sae_fail(sae, error);
		return;
	}
	sae_enter(sae, WIFI_SAE_CONFIRMED, "the peer resent its commit");
}

static void
sae_rx_commit(WifiSae *sae, guint16 status, const guint8 *body, gsize len)
{
	guint16 expected =
	        sae->config.h2e ? WIFI_SAE_STATUS_HASH_TO_ELEMENT : WIFI_SAE_STATUS_SUCCESS;
	gchar buf[16];

	if (sae->state == WIFI_SAE_ACCEPTED)
		return;
	if (status == WIFI_SAE_STATUS_ANTI_CLOGGING && sae->state == WIFI_SAE_COMMITTED)
		sae_rx_token(sae, body, len);
	else if (status == WIFI_SAE_STATUS_GROUP_UNSUPPORTED && sae->state == WIFI_SAE_COMMITTED)
		sae_rx_group_refused(sae);
	else if (status != expected)
		sae_fail_with(sae, g_error_new(WIFI_SAE_ERROR, WIFI_SAE_ERROR_REFUSED,
		                               "The peer refused the SAE commit (status %u, %s).",
		                               status, wifi_status_to_string(status, buf)));
	else if (sae->state == WIFI_SAE_CONFIRMED && sae->sync < WIFI_SAE_MAX_SYNC)
		sae_resend_both(sae);
	else if (sae->state == WIFI_SAE_CONFIRMED)
		sae_fail_with(sae,
		              g_error_new(WIFI_SAE_ERROR, WIFI_SAE_ERROR_TIMED_OUT,
		                          "The peer resent its SAE commit %u times.", sae->sync));
	else
		sae_rx_commit_ok(sae, body, len);
}

/* ---- the peer's confirm ---- */

static void
sae_rx_confirm(WifiSae *sae, guint16 status, const guint8 *body, gsize len)
{
	g_autoptr(GError) error = NULL;
	guint8 expected[WIFI_SAE_MAX_HASH_LEN];
	WifiSaeConfirm confirm;
	gchar buf[16];

	/* A confirm before the commit exchange is done is dropped (12.4.8.6.4). */
	if (sae->state != WIFI_SAE_CONFIRMED)
		return;
	if (status != WIFI_SAE_STATUS_SUCCESS) {
		sae_fail_with(sae, g_error_new(WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH,
		                               "The peer refused the SAE confirm (status %u, %s): "
		                               "the password is probably wrong.",
		                               status, wifi_status_to_string(status, buf)));
		return;
	}
	if (!wifi_sae_confirm_parse(body, len, sae->kck_len, &confirm, &error) ||
	    !wifi_sae_confirm_compute(sae->group, sae->kck, sae->kck_len, confirm.send_confirm,
	                              sae->peer_scalar_octets, sae->peer_element, sae->own_scalar,
	                              sae->own_element, expected, &error)) {
		sae_fail(sae, error);
		return;
	}
	if (CRYPTO_memcmp(expected, confirm.confirm, sae->kck_len) != 0) {
		sae_fail_with(sae,
		              g_error_new_literal(WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH,
		                                  "The peer's SAE confirm does not match ours: "
		                                  "the password is wrong."));
		return;
	}
	sae_enter(sae, WIFI_SAE_ACCEPTED, "the peer's confirm verified");
}

void
wifi_sae_rx(WifiSae *sae, guint16 seq, guint16 status, const guint8 *body, gsize len)
{
	if (seq == SAE_SEQ_COMMIT)
		sae_rx_commit(sae, status, body, len);
	else if (seq == SAE_SEQ_CONFIRM)
		sae_rx_confirm(sae, status, body, len);
	else
		g_debug("SAE frame with transaction sequence number %u ignored", seq);
}

/* ---- life cycle ---- */

void
wifi_sae_start(WifiSae *sae)
{
	g_autoptr(GError) error = NULL;

	g_return_if_fail(sae->state == WIFI_SAE_NOTHING);
	if (!sae_prepare(sae, &error)) {
		sae_fail(sae, error);
		return;
	}
	sae_send_commit(sae);
	sae_enter(sae, WIFI_SAE_COMMITTED, "start");
}

WifiSae *
wifi_sae_new(const WifiSaeConfig *config, GError **error)
{
	WifiSae *sae;
	guint n = 0;

	g_return_val_if_fail(config->send != NULL && config->done != NULL, NULL);
	sae = g_new0(WifiSae, 1);
	sae->config = *config;
	sae->groups = g_new0(guint, MAX(config->n_groups, 1));
	for (guint i = 0; i < config->n_groups; i++) {
		if (wifi_sae_group_prime_len(config->groups[i]) != 0)
			sae->groups[n++] = config->groups[i];
	}
	sae->config.n_groups = n;
	sae->config.groups = sae->groups;
	sae->password = g_memdup2(config->password, config->password_len);
	sae->config.password = sae->password;
	sae->config.ssid = g_memdup2(config->ssid, config->ssid_len);
	sae->config.identifier = g_strdup(config->identifier);
	if (sae->config.retrans_ms == 0)
		sae->config.retrans_ms = 1000;
	sae->rejected = g_byte_array_new();
	if (n == 0) {
		g_set_error_literal(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_GROUP,
		                    "None of the SAE groups to offer is supported (19, 20, 21).");
		wifi_sae_free(sae);
		return NULL;
	}
	return sae;
}

void
wifi_sae_free(WifiSae *sae)
{
	if (sae == NULL)
		return;
	g_clear_handle_id(&sae->timer, g_source_remove);
	sae_clear_group(sae);
	joind_secret_clear(sae->password, sae->config.password_len);
	g_free(sae->password);
	g_free((gpointer)sae->config.ssid);
	g_free((gpointer)sae->config.identifier);
	g_free(sae->groups);
	g_byte_array_unref(sae->rejected);
	g_free(sae);
}

WifiSaeState
wifi_sae_get_state(const WifiSae *sae)
{
	return sae->state;
}

guint
wifi_sae_get_group(const WifiSae *sae)
{
	return sae->groups[sae->group_index];
}

const guint8 *
wifi_sae_get_pmk(const WifiSae *sae)
{
	return sae->state == WIFI_SAE_ACCEPTED ? sae->pmk : NULL;
}

const guint8 *
wifi_sae_get_pmkid(const WifiSae *sae)
{
	return sae->state == WIFI_SAE_ACCEPTED ? sae->pmkid : NULL;
}
