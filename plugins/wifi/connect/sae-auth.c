/* sae-auth.c - SAE's frames through CMD_AUTHENTICATE (see sae-auth.h). */
#include "sae-auth.h"

#include <errno.h>
#include <netlink/attr.h>
#include <string.h>

#include "joind-error.h"
#include "mgmt.h"
#include "rsn-suites.h"
#include "sae.h"
#include "sme.h"

#define SAE_AUTH_ALGORITHM 3 /* IEEE 802.11-2020 9.4.1.1 */
#define MGMT_AUTH_BODY     (24 + 6)

/* Groups offered in this order: 19 is mandatory and what access points
 * take first; an access point that refuses it names the next. */
static const guint sae_groups[] = {19, 20, 21};

struct _WifiSaeAuth {
	WifiIface *iface;
	WifiBss *bss;
	WifiSaeConfig config; /* points into the caller's passphrase and PTs */
	WifiSae *sae;
	gboolean started;
	guint request;
	WifiSaeAuthDone done;
	gpointer user_data;
};

/* domain 0: accepted. */
static void
auth_done(WifiSaeAuth *auth, GQuark domain, gint code, const gchar *message)
{
	g_autoptr(GError) error = NULL;

	if (domain != 0)
		error = g_error_new_literal(domain, code, message);
	auth->done(error, auth->user_data);
}

static void
auth_sent(int error, gpointer user_data)
{
	WifiSaeAuth *auth = user_data;
	g_autofree gchar *message = NULL;

	auth->request = 0;
	if (error == 0)
		return;
	if (error == -ENOENT) {
		auth_done(auth, JOIND_ERROR, JOIND_ERROR_NOT_FOUND,
		          "The kernel refused the SAE authentication: the access point is no "
		          "longer in its scan table.");
		return;
	}
	message = g_strdup_printf("The kernel refused the SAE authentication: %s",
	                          g_strerror(-error));
	auth_done(auth, JOIND_ERROR, JOIND_ERROR_FAILED, message);
}

static void
auth_send(const guint8 *data, gsize len, gpointer user_data)
{
	WifiSaeAuth *auth = user_data;
	struct nl_msg *msg = wifi_nl_msg_new(auth->iface->nl, NL80211_CMD_AUTHENTICATE, 0);

	wifi_sme_put_sae_authenticate(msg, auth->iface->ifindex, auth->bss, data, len);
	wifi_nl_cancel(auth->iface->nl, auth->request);
	auth->request = wifi_nl_send(auth->iface->nl, msg, NULL, auth_sent, auth, NULL);
}

/* A confirm that failed with PTs from the profile may mean only that the
 * profile's passphrase changed since they were written: the exchange
 * runs once more with PTs derived from the passphrase. */
static gboolean
auth_retry_fresh_pt(WifiSaeAuth *auth)
{
	if (!auth->config.h2e || auth->config.pts == NULL ||
	    !wifi_sae_pt_cache_forget_loaded(auth->config.pts))
		return FALSE;
	wifi_iface_info(auth->iface,
	                "SAE with the profile's PT failed: again with the PT derived from the "
	                "passphrase");
	wifi_sae_free(auth->sae);
	auth->sae = wifi_sae_new(&auth->config, NULL);
	wifi_sae_start(auth->sae);
	return TRUE;
}

/* As the 4-way handshake says it: a confirm that did not match is a
 * wrong password; a confirm never answered, maybe one. */
static void
auth_sae_done(const GError *error, gpointer user_data)
{
	WifiSaeAuth *auth = user_data;

	if (error == NULL) {
		wifi_iface_info(auth->iface, "SAE accepted (group %u)",
		                wifi_sae_get_group(auth->sae));
		auth_done(auth, 0, 0, NULL);
	} else if (g_error_matches(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_CONFIRM_MISMATCH)) {
		if (!auth_retry_fresh_pt(auth))
			auth_done(auth, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_WRONG_PASSPHRASE,
			          error->message);
	} else if (g_error_matches(error, WIFI_SAE_ERROR, WIFI_SAE_ERROR_NO_CONFIRM)) {
		if (!auth_retry_fresh_pt(auth))
			auth_done(auth, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3,
			          error->message);
	} else {
		auth_done(auth, JOIND_ERROR, JOIND_ERROR_FAILED, error->message);
	}
}

WifiSaeAuth *
wifi_sae_auth_new(WifiIface *iface, const WifiBss *bss, const guint8 spa[6],
                  const gchar *passphrase, gboolean h2e, WifiSaePtCache *pts, WifiSaeAuthDone done,
                  gpointer user_data)
{
	WifiSaeAuth *auth = g_new0(WifiSaeAuth, 1);

	auth->config = (WifiSaeConfig){
	        .password = (const guint8 *)passphrase,
	        .password_len = strlen(passphrase),
	        .ssid = bss->ies.ssid,
	        .ssid_len = bss->ies.ssid_len,
	        .groups = sae_groups,
	        .n_groups = G_N_ELEMENTS(sae_groups),
	        .h2e = h2e,
	        .pts = pts,
	        .send = auth_send,
	        .done = auth_sae_done,
	        .user_data = auth,
	};

	memcpy(auth->config.own_addr, spa, 6);
	memcpy(auth->config.peer_addr, bss->bssid, 6);
	/* Cannot fail: every group of the list is supported. */
	auth->sae = wifi_sae_new(&auth->config, NULL);
	auth->iface = wifi_iface_ref(iface);
	auth->bss = wifi_bss_ref((WifiBss *)bss);
	auth->done = done;
	auth->user_data = user_data;
	return auth;
}

void
wifi_sae_auth_free(WifiSaeAuth *auth)
{
	if (auth == NULL)
		return;
	wifi_nl_cancel(auth->iface->nl, auth->request);
	wifi_sae_free(auth->sae);
	wifi_bss_unref(auth->bss);
	wifi_iface_unref(auth->iface);
	g_free(auth);
}

void
wifi_sae_auth_start(WifiSaeAuth *auth)
{
	wifi_iface_info(auth->iface, "SAE with the access point");
	/* Again (the kernel lost the BSS after our commit): a fresh exchange. */
	if (auth->started) {
		wifi_sae_free(auth->sae);
		auth->sae = wifi_sae_new(&auth->config, NULL);
	}
	auth->started = TRUE;
	wifi_sae_start(auth->sae);
}

void
wifi_sae_auth_handle_event(WifiSaeAuth *auth, struct nlattr **attrs)
{
	struct nlattr *frame = attrs[NL80211_ATTR_FRAME];
	g_autoptr(GError) error = NULL;
	WifiMgmtAnswer answer;
	const guint8 *data;
	gsize len;

	/* After our confirm, silence is the access point's way of saying the
	 * confirm was wrong (another password). */
	if (attrs[NL80211_ATTR_TIMED_OUT] != NULL &&
	    wifi_sae_get_state(auth->sae) == WIFI_SAE_CONFIRMED) {
		if (!auth_retry_fresh_pt(auth))
			auth_done(auth, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_NO_MSG3,
			          "The access point did not confirm SAE: the password is "
			          "probably wrong.");
		return;
	}
	if (attrs[NL80211_ATTR_TIMED_OUT] != NULL) {
		auth_done(auth, JOIND_ERROR, JOIND_ERROR_FAILED,
		          "The access point did not answer the SAE authentication.");
		return;
	}
	if (frame == NULL) {
		wifi_iface_debug(auth->iface, "AUTHENTICATE event without a frame");
		return;
	}
	data = nla_data(frame);
	len = (gsize)nla_len(frame);
	if (!wifi_mgmt_parse_answer(data, len, &answer, &error) || answer.assoc ||
	    memcmp(answer.bssid, auth->bss->bssid, 6) != 0 ||
	    answer.auth_algorithm != SAE_AUTH_ALGORITHM) {
		wifi_iface_debug(auth->iface, "AUTHENTICATE event not SAE's%s%s",
		                 error != NULL ? ": " : "", error != NULL ? error->message : "");
		return;
	}
	wifi_sae_rx(auth->sae, answer.auth_seq, answer.status, data + MGMT_AUTH_BODY,
	            len - MGMT_AUTH_BODY);
}

const guint8 *
wifi_sae_auth_get_pmk(const WifiSaeAuth *auth)
{
	return wifi_sae_get_pmk(auth->sae);
}

const guint8 *
wifi_sae_auth_get_pmkid(const WifiSaeAuth *auth)
{
	return wifi_sae_get_pmkid(auth->sae);
}

guint
wifi_sae_auth_get_group(const WifiSaeAuth *auth)
{
	return wifi_sae_get_group(auth->sae);
}
