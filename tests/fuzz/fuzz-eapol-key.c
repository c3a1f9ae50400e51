/* fuzz-eapol-key.c - the EAPOL-Key parser, the Key Data and RSNE parsers and
 * the supplicant state machine on arbitrary input.
 *
 * The first octet picks a mode:
 *   0      one frame through wifi_eapol_key_parse(), then its Key Data
 *          through the key data and RSNE parsers (as if decrypted).
 *   1, 2   a sequence of frames, each prefixed by a 16-bit big-endian
 *          length, fed to a supplicant (1: PSK/CCMP, 2: PSK-SHA256/CCMP
 *          with MFP). So that fuzzing gets past the MIC check, the harness
 *          knows the PMK and fixes the SNonce: a frame that parses and has
 *          the Encrypted Key Data bit gets its Key Data wrapped with the
 *          KEK, and one with the Key MIC bit gets a valid MIC, using the
 *          PTK the supplicant will check it with. The rest of each frame is
 *          the fuzzer's.
 */
#include <stdint.h>
#include <string.h>

#include "eapol-key.h"
#include "rsn-handshake.h"
#include "rsn-kde.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
	WifiHandshake *hs;
	guint akm, pairwise;
	guint8 pmk[32], aa[6], spa[6], snonce[32];
	gboolean have_pending, have_installed;
	guint8 pending_anonce[32];   /* ANonce of the last message 1 fed */
	guint8 installed_anonce[32]; /* ANonce of the last completed handshake */
} Harness;

static void
on_send(const guint8 *frame, gsize len, gpointer user_data)
{
	WifiEapolKey key;

	/* Whatever the supplicant sends must itself parse. */
	if (!wifi_eapol_key_parse(frame, len, 16, &key, NULL))
		__builtin_trap();
}

static void
on_install(const WifiHandshakeKey *key, gpointer user_data)
{
	if (key->key_len == 0 || key->key_len > 32)
		__builtin_trap();
}

static void
on_state(WifiHandshakeState old_state, WifiHandshakeState new_state, gpointer user_data)
{
	Harness *h = user_data;

	if (new_state == WIFI_HANDSHAKE_STATE_COMPLETE && h->have_pending) {
		memcpy(h->installed_anonce, h->pending_anonce, 32);
		h->have_installed = TRUE;
	}
}

static const WifiHandshakeCallbacks callbacks = {on_send, on_install, on_state};

static void
fuzz_one_frame(const guint8 *data, gsize len)
{
	WifiEapolKey key;
	WifiKeyData kd;
	WifiRsne rsne;

	if (!wifi_eapol_key_parse(data, len, 16, &key, NULL))
		return;
	if (key.key_data_len == 0)
		return;
	(void)wifi_key_data_parse(key.key_data, key.key_data_len, &kd, NULL);
	if (kd.rsne != NULL)
		(void)wifi_rsne_parse(kd.rsne, kd.rsne_len, &rsne, NULL);
	(void)wifi_rsne_parse(key.key_data, key.key_data_len, &rsne, NULL);
}

/* The PTK the supplicant will check this frame with, if the harness knows. */
static gboolean
harness_ptk(Harness *h, const WifiEapolKey *key, WifiPtk *ptk)
{
	const guint8 *anonce;

	if ((key->key_info & WIFI_KEY_INFO_PAIRWISE) && (key->key_info & WIFI_KEY_INFO_INSTALL) &&
	    h->have_pending)
		anonce = h->pending_anonce;
	else if (h->have_installed)
		anonce = h->installed_anonce;
	else
		return FALSE;
	return wifi_ptk_derive(h->akm, h->pairwise, h->pmk, 32, h->aa, h->spa, anonce, h->snonce,
	                       ptk, NULL);
}

/* Wraps the Key Data and signs the frame where the flags ask for it;
 * returns the frame to feed (possibly the input itself). */
static guint8 *
harness_fix_up(Harness *h, const guint8 *frame, gsize len, gsize *out_len)
{
	WifiEapolKey key;
	WifiPtk ptk;
	g_autofree guint8 *wrapped = NULL;
	guint8 *out;

	*out_len = len;
	if (!wifi_eapol_key_parse(frame, len, 16, &key, NULL) ||
	    key.key_data_len > WIFI_EAPOL_KEY_DATA_MAX)
		return g_memdup2(frame, len);
	if ((key.key_info & WIFI_KEY_INFO_PAIRWISE) && !(key.key_info & WIFI_KEY_INFO_MIC)) {
		memcpy(h->pending_anonce, key.nonce, 32);
		h->have_pending = TRUE;
	}
	if (!(key.key_info & WIFI_KEY_INFO_MIC) || !harness_ptk(h, &key, &ptk))
		return g_memdup2(frame, len);
	if ((key.key_info & WIFI_KEY_INFO_ENCRYPTED) && key.key_data_len > 0) {
		gsize wrapped_len = 0;

		wrapped = wifi_eapol_key_data_encrypt(ptk.kek, ptk.kek_len, key.key_data,
		                                      key.key_data_len, &wrapped_len, NULL);
		if (wrapped != NULL && wrapped_len <= WIFI_EAPOL_KEY_DATA_MAX) {
			key.key_data = wrapped;
			key.key_data_len = wrapped_len;
		}
	}
	key.mic = NULL;
	out = wifi_eapol_key_build(&key, out_len);
	(void)wifi_eapol_key_sign(h->akm, ptk.kck, ptk.kck_len, out, *out_len, 16, NULL);
	wifi_ptk_clear(&ptk);
	return out;
}

static void
fuzz_state_machine(gboolean sha256, const guint8 *data, gsize len)
{
	static const guint8 rsne_psk[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                                  0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	                                  0x00, 0x0f, 0xac, 0x02, 0x00, 0x00};
	static const guint8 rsne_sha256[] = {0x30, 0x14, 0x01, 0x00, 0x00, 0x0f, 0xac, 0x04,
	                                     0x01, 0x00, 0x00, 0x0f, 0xac, 0x04, 0x01, 0x00,
	                                     0x00, 0x0f, 0xac, 0x06, 0xc0, 0x00};
	Harness h = {0};
	WifiHandshakeConfig c = {0};
	gsize pos = 0;

	h.akm = sha256 ? WIFI_AKM_SUITE_PSK_SHA256 : WIFI_AKM_SUITE_PSK;
	h.pairwise = WIFI_CIPHER_SUITE_CCMP;
	memset(h.pmk, 0x42, sizeof(h.pmk));
	memcpy(h.aa, "\x02\x00\x00\x00\x01\x00", 6);
	memcpy(h.spa, "\x02\x00\x00\x00\x02\x00", 6);
	memset(h.snonce, 0x5a, sizeof(h.snonce));
	c.akm = h.akm;
	c.pairwise_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.group_cipher = WIFI_CIPHER_SUITE_CCMP;
	c.group_mgmt_cipher = sha256 ? WIFI_CIPHER_SUITE_BIP_CMAC : 0;
	memcpy(c.aa, h.aa, 6);
	memcpy(c.spa, h.spa, 6);
	c.pmk = h.pmk;
	c.pmk_len = 32;
	c.own_rsne = c.ap_rsne = sha256 ? rsne_sha256 : rsne_psk;
	c.own_rsne_len = c.ap_rsne_len = sizeof(rsne_psk);
	h.hs = wifi_handshake_new(&c, &callbacks, &h, NULL);
	if (h.hs == NULL)
		__builtin_trap();
	wifi_handshake_set_snonce(h.hs, h.snonce);
	while (len - pos >= 2) {
		gsize n = (gsize)data[pos] << 8 | data[pos + 1], fixed_len = 0;
		g_autofree guint8 *fixed = NULL;

		pos += 2;
		n = MIN(n, len - pos);
		fixed = harness_fix_up(&h, data + pos, n, &fixed_len);
		(void)wifi_handshake_rx(h.hs, fixed, fixed_len, NULL);
		pos += n;
	}
	if (wifi_handshake_get_state(h.hs) != WIFI_HANDSHAKE_STATE_FAILED)
		wifi_handshake_abort(h.hs, WIFI_HANDSHAKE_ABORT_TIMEOUT, 0, NULL);
	wifi_handshake_free(h.hs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_one_frame(data + 1, size - 1);
		break;
	case 1:
		fuzz_state_machine(FALSE, data + 1, size - 1);
		break;
	default:
		fuzz_state_machine(TRUE, data + 1, size - 1);
		break;
	}
	return 0;
}
