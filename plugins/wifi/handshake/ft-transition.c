/* ft-transition.c - one fast BSS transition over the air (see
 * ft-transition.h). */
#include "ft-transition.h"

#include <string.h>

#include "ft-ie.h"
#include "joind-secret.h"
#include "rsn-crypto.h"
#include "rsn-kde.h"
#include "rsn-suites.h"

/* The MIC covers three elements: RSNE, MDE, FTE (no RIC, no RSNXE). */
#define FT_MIC_ELEMENTS 3
#define FT_SEQ_REQUEST  5
#define FT_SEQ_RESPONSE 6

struct _WifiFtTransition {
	guint akm;
	guint pairwise_cipher;
	WifiRsne own;
	guint8 mde[WIFI_MDE_LEN];
	guint8 spa[6];
	guint8 target[6];
	WifiFtKeys keys;
	WifiFte fte; /* ours: nonces and key holders, no MIC */
	WifiPtk ptk;
	gboolean authenticated;
	/* The reassociation request's RSNE (PMKR1Name). */
	guint8 rsne[257];
	gsize rsne_len;
};

WifiFtTransition *
wifi_ft_transition_new(const WifiFtTransitionConfig *c, const guint8 *snonce, GError **error)
{
	g_autoptr(WifiFtTransition) ft = g_new0(WifiFtTransition, 1);

	if (!wifi_ft_akm_is_ft(c->akm) || c->keys->akm != c->akm || c->r0kh_id_len == 0 ||
	    c->r0kh_id_len > WIFI_FTE_R0KH_ID_MAX || c->mde[0] != WIFI_ELEMENT_MDE ||
	    c->mde[1] != 3) {
		wifi_keys_invalid(error, "A fast transition needs an FT AKM, its PMK-R0, the "
		                         "R0KH-ID and the Mobility Domain element");
		return NULL;
	}
	if (!wifi_rsne_parse(c->own_rsne, c->own_rsne_len, &ft->own, error))
		return NULL;
	ft->akm = c->akm;
	ft->pairwise_cipher = c->pairwise_cipher;
	memcpy(ft->mde, c->mde, WIFI_MDE_LEN);
	memcpy(ft->spa, c->spa, 6);
	memcpy(ft->target, c->target, 6);
	ft->keys = *c->keys;
	ft->fte.mic_len = wifi_ft_pmk_len(c->akm) == 48 ? 24 : 16;
	memcpy(ft->fte.r0kh_id, c->r0kh_id, c->r0kh_id_len);
	ft->fte.r0kh_id_len = c->r0kh_id_len;
	if (snonce != NULL)
		memcpy(ft->fte.snonce, snonce, WIFI_FTE_NONCE_LEN);
	else if (!wifi_random_bytes(ft->fte.snonce, WIFI_FTE_NONCE_LEN, error))
		return NULL;
	return g_steal_pointer(&ft);
}

void
wifi_ft_transition_free(WifiFtTransition *ft)
{
	if (ft == NULL)
		return;
	joind_secret_clear(ft, sizeof(*ft));
	g_free(ft);
}

static GBytes *
join_elements(const guint8 *rsne, gsize rsne_len, const guint8 *mde, GBytes *fte)
{
	GByteArray *a = g_byte_array_new();

	g_byte_array_append(a, rsne, (guint)rsne_len);
	g_byte_array_append(a, mde, WIFI_MDE_LEN);
	g_byte_array_append(a, g_bytes_get_data(fte, NULL), (guint)g_bytes_get_size(fte));
	return g_byte_array_free_to_bytes(a);
}

GBytes *
wifi_ft_transition_auth_ies(WifiFtTransition *ft)
{
	guint8 rsne[257];
	gsize rsne_len = wifi_rsne_write(&ft->own, ft->keys.pmk_r0_name, rsne);
	WifiFte fte = {.mic_len = ft->fte.mic_len};
	g_autoptr(GBytes) fte_ie = NULL;

	memcpy(fte.snonce, ft->fte.snonce, WIFI_FTE_NONCE_LEN);
	memcpy(fte.r0kh_id, ft->fte.r0kh_id, ft->fte.r0kh_id_len);
	fte.r0kh_id_len = ft->fte.r0kh_id_len;
	fte_ie = wifi_fte_build(&fte);
	return join_elements(rsne, rsne_len, ft->mde, fte_ie);
}

static gboolean
mismatch(GError **error, const gchar *what)
{
	g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_RSNE_MISMATCH,
	            "The target access point's %s; no fast transition", what);
	return FALSE;
}

/* What both answers must repeat: the PMKID our request named, our
 * mobility domain, our SNonce and R0KH-ID, and (the second time) the
 * ANonce and R1KH-ID of the first. */
static gboolean
check_answer(const WifiFtTransition *ft, const WifiFtIes *got, const guint8 *pmkid, GError **error)
{
	WifiRsne rsne;

	if (got->rsne == NULL || !wifi_rsne_parse(got->rsne, got->rsne_len, &rsne, NULL) ||
	    !rsne.has_pmkid || memcmp(rsne.pmkid, pmkid, WIFI_FT_NAME_LEN) != 0)
		return mismatch(error, "RSN element names another PMK (PMKR0Name, PMKR1Name)");
	/* Our mobility domain; its FT capability is the target's word (a
	 * scan older than its configuration may have shown another; hostapd
	 * too compares only the MDID), taken from its first answer on. */
	if (got->mde_len != WIFI_MDE_LEN || memcmp(got->mde + 2, ft->mde + 2, 2) != 0 ||
	    (ft->authenticated && memcmp(got->mde, ft->mde, WIFI_MDE_LEN) != 0))
		return mismatch(error, "Mobility Domain element is not the one we sent");
	if (memcmp(got->parsed.snonce, ft->fte.snonce, WIFI_FTE_NONCE_LEN) != 0 ||
	    got->parsed.r0kh_id_len != ft->fte.r0kh_id_len ||
	    memcmp(got->parsed.r0kh_id, ft->fte.r0kh_id, ft->fte.r0kh_id_len) != 0)
		return mismatch(error, "FT element does not repeat our SNonce and R0KH-ID");
	if (!got->parsed.has_r1kh_id)
		return mismatch(error, "FT element names no R1 key holder (R1KH-ID)");
	if (ft->authenticated &&
	    (memcmp(got->parsed.anonce, ft->fte.anonce, WIFI_FTE_NONCE_LEN) != 0 ||
	     memcmp(got->parsed.r1kh_id, ft->fte.r1kh_id, 6) != 0))
		return mismatch(error, "reassociation response changed the ANonce or R1KH-ID");
	return TRUE;
}

gboolean
wifi_ft_transition_auth_response(WifiFtTransition *ft, const guint8 *ies, gsize len, GError **error)
{
	WifiFtIes got;

	if (!wifi_ft_ies_parse(ies, len, ft->fte.mic_len, &got, error) ||
	    !check_answer(ft, &got, ft->keys.pmk_r0_name, error))
		return FALSE;
	memcpy(ft->mde, got.mde, WIFI_MDE_LEN);
	memcpy(ft->fte.anonce, got.parsed.anonce, WIFI_FTE_NONCE_LEN);
	memcpy(ft->fte.r1kh_id, got.parsed.r1kh_id, 6);
	ft->fte.has_r1kh_id = TRUE;
	if (!wifi_ft_keys_for_r1kh(&ft->keys, ft->fte.r1kh_id, ft->spa, error) ||
	    !wifi_ft_ptk_derive(&ft->keys, ft->pairwise_cipher, ft->fte.snonce, ft->fte.anonce,
	                        ft->target, ft->spa, &ft->ptk, NULL, error))
		return FALSE;
	ft->rsne_len = wifi_rsne_write(&ft->own, ft->keys.pmk_r1_name, ft->rsne);
	ft->authenticated = TRUE;
	return TRUE;
}

/* The MIC of an FTE whose MIC field is zero, over our RSNE and the MDE. */
static gboolean
fte_mic(const WifiFtTransition *ft, guint8 seq, const guint8 *rsne, gsize rsne_len,
        const guint8 *fte, gsize fte_len, guint8 *mic, GError **error)
{
	guint8 zeroed[257];
	WifiFtMicInput in = {
	        .sta = ft->spa,
	        .ap = ft->target,
	        .transaction = seq,
	        .rsne = rsne,
	        .rsne_len = rsne_len,
	        .mde = ft->mde,
	        .mde_len = WIFI_MDE_LEN,
	        .fte = zeroed,
	        .fte_len = fte_len,
	};
	gsize mic_len;

	memcpy(zeroed, fte, fte_len);
	memset(zeroed + WIFI_FTE_MIC_OFFSET, 0, ft->fte.mic_len);
	return wifi_ft_mic(ft->akm, ft->ptk.kck, ft->ptk.kck_len, &in, mic, &mic_len, error);
}

GBytes *
wifi_ft_transition_reassoc_ies(WifiFtTransition *ft, GError **error)
{
	WifiFte fte = ft->fte;
	g_autoptr(GBytes) fte_ie = NULL;
	guint8 mic[WIFI_FT_MIC_MAX_LEN];
	gsize n;
	const guint8 *p;

	g_return_val_if_fail(ft->authenticated, NULL);
	fte.element_count = FT_MIC_ELEMENTS;
	fte_ie = wifi_fte_build(&fte);
	p = g_bytes_get_data(fte_ie, &n);
	if (!fte_mic(ft, FT_SEQ_REQUEST, ft->rsne, ft->rsne_len, p, n, mic, error))
		return NULL;
	memcpy(fte.mic, mic, fte.mic_len);
	g_clear_pointer(&fte_ie, g_bytes_unref);
	fte_ie = wifi_fte_build(&fte);
	return join_elements(ft->rsne, ft->rsne_len, ft->mde, fte_ie);
}

/* A key the target wrapped with our KEK (AES key wrap, 12.7.2). */
static gboolean
unwrap(const WifiFtTransition *ft, const guint8 *wrapped, gsize wrapped_len, gsize key_len,
       guint8 *key, gsize *out_len, const gchar *what, GError **error)
{
	guint8 plain[WIFI_FTE_WRAPPED_MAX];

	if (wrapped_len < 24 || wrapped_len % 8 != 0 || key_len == 0 || key_len > 32 ||
	    key_len > wrapped_len - 8) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "The target access point's %s does not fit its key length", what);
		return FALSE;
	}
	if (!wifi_aes_key_unwrap(ft->ptk.kek, ft->ptk.kek_len, wrapped, wrapped_len, plain,
	                         error)) {
		g_prefix_error(error, "The target access point's %s: ", what);
		return FALSE;
	}
	memcpy(key, plain, key_len);
	*out_len = key_len;
	joind_secret_clear(plain, sizeof(plain));
	return TRUE;
}

static gboolean
group_keys(const WifiFtTransition *ft, const WifiFte *fte, WifiFtGroupKeys *keys, GError **error)
{
	memset(keys, 0, sizeof(*keys));
	if (!fte->has_gtk) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_KEY_DATA,
		            "The target access point's reassociation response carries no "
		            "group key (GTK)");
		return FALSE;
	}
	keys->has_gtk = TRUE;
	keys->gtk_key_id = fte->gtk_key_id;
	memcpy(keys->gtk_rsc, fte->gtk_rsc, 8);
	if (!unwrap(ft, fte->gtk_wrapped, fte->gtk_wrapped_len, fte->gtk_len, keys->gtk,
	            &keys->gtk_len, "group key (GTK)", error))
		return FALSE;
	if (!fte->has_igtk)
		return TRUE;
	keys->has_igtk = TRUE;
	keys->igtk_key_id = fte->igtk_key_id;
	memcpy(keys->igtk_ipn, fte->igtk_ipn, 6);
	return unwrap(ft, fte->igtk_wrapped, fte->igtk_wrapped_len, fte->igtk_len, keys->igtk,
	              &keys->igtk_len, "group management key (IGTK)", error);
}

gboolean
wifi_ft_transition_reassoc_response(WifiFtTransition *ft, const guint8 *ies, gsize len,
                                    WifiFtGroupKeys *keys, GError **error)
{
	guint8 mic[WIFI_FT_MIC_MAX_LEN];
	WifiFtIes got;

	g_return_val_if_fail(ft->authenticated, FALSE);
	if (!wifi_ft_ies_parse(ies, len, ft->fte.mic_len, &got, error) ||
	    !check_answer(ft, &got, ft->keys.pmk_r1_name, error))
		return FALSE;
	if (got.parsed.element_count != FT_MIC_ELEMENTS ||
	    !fte_mic(ft, FT_SEQ_RESPONSE, got.rsne, got.rsne_len, got.fte, got.fte_len, mic, error))
		return mismatch(error, "FT element's MIC covers other elements than ours");
	if (!wifi_equal_const_time(mic, got.parsed.mic, ft->fte.mic_len)) {
		g_set_error(error, WIFI_HANDSHAKE_ERROR, WIFI_HANDSHAKE_ERROR_MIC,
		            "The target access point's reassociation response failed its "
		            "integrity check (MIC): it holds another PMK-R1 than ours");
		return FALSE;
	}
	return group_keys(ft, &got.parsed, keys, error);
}

const WifiPtk *
wifi_ft_transition_get_ptk(const WifiFtTransition *ft)
{
	return &ft->ptk;
}

const WifiFtKeys *
wifi_ft_transition_get_keys(const WifiFtTransition *ft)
{
	return &ft->keys;
}

void
wifi_ft_group_keys_clear(WifiFtGroupKeys *keys)
{
	joind_secret_clear(keys, sizeof(*keys));
}
