/* eap-peap-tlv.c - PEAPv0 Extensions TLVs and compound keys. */
#include "eap-peap-tlv.h"

#include <string.h>

#include <gio/gio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "joind-eap.h"
#include "joind-error.h"
#include "joind-secret.h"

#define EAP_PEAP_SHA1_LEN 20

static gboolean
eap_peap_invalid(GError **error, const gchar *what)
{
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "PEAP Extensions %s", what);
	return FALSE;
}

static gboolean
eap_peap_tlv_take(EapPeapTlvs *tlvs, guint16 type, const guint8 *tlv, gsize value_len,
                  GError **error)
{
	const guint8 *value = tlv + 4;

	switch (type & EAP_PEAP_TLV_TYPE_MASK) {
	case EAP_PEAP_TLV_RESULT:
		if (tlvs->result != 0)
			return eap_peap_invalid(error, "with two Result TLVs");
		if (value_len != 2)
			return eap_peap_invalid(error, "with a Result TLV that is not 2 octets");
		tlvs->result = (guint16)((value[0] << 8) | value[1]);
		if (tlvs->result != EAP_PEAP_RESULT_SUCCESS &&
		    tlvs->result != EAP_PEAP_RESULT_FAILURE)
			return eap_peap_invalid(error, "with an unknown Result status");
		return TRUE;
	case EAP_PEAP_TLV_BINDING:
		if (tlvs->has_binding)
			return eap_peap_invalid(error, "with two Crypto-Binding TLVs");
		if (value_len != EAP_PEAP_BINDING_VALUE_LEN)
			return eap_peap_invalid(error,
			                        "with a Crypto-Binding TLV of the wrong length");
		if (value[3] != EAP_PEAP_BINDING_REQUEST)
			return eap_peap_invalid(error, "with a Crypto-Binding that is no request");
		memcpy(tlvs->binding, tlv, EAP_PEAP_BINDING_TLV_LEN);
		tlvs->has_binding = TRUE;
		return TRUE;
	default:
		if ((type & EAP_PEAP_TLV_MANDATORY) && tlvs->unknown_mandatory == 0)
			tlvs->unknown_mandatory = type & EAP_PEAP_TLV_TYPE_MASK;
		return TRUE;
	}
}

gboolean
eap_peap_tlvs_parse(const guint8 *data, gsize len, EapPeapTlvs *tlvs, GError **error)
{
	gsize pos = 0;

	memset(tlvs, 0, sizeof(*tlvs));
	while (pos < len) {
		guint16 type, value_len;

		if (len - pos < 4)
			return eap_peap_invalid(error, "with a truncated TLV header");
		type = (guint16)((data[pos] << 8) | data[pos + 1]);
		value_len = (guint16)((data[pos + 2] << 8) | data[pos + 3]);
		if (len - pos - 4 < value_len)
			return eap_peap_invalid(error, "with a TLV longer than the packet");
		if (!eap_peap_tlv_take(tlvs, type, data + pos, value_len, error))
			return FALSE;
		pos += 4u + value_len;
	}
	return TRUE;
}

void
eap_peap_result_tlv_build(GByteArray *out, guint16 status)
{
	guint8 tlv[6] = {(EAP_PEAP_TLV_MANDATORY | EAP_PEAP_TLV_RESULT) >> 8,
	                 EAP_PEAP_TLV_RESULT,
	                 0,
	                 2,
	                 (guint8)(status >> 8),
	                 (guint8)status};

	g_byte_array_append(out, tlv, sizeof(tlv));
}

static gboolean
eap_peap_hmac_sha1(const guint8 *key, gsize key_len, const guint8 *const *parts, const gsize *lens,
                   guint n, guint8 out[EAP_PEAP_SHA1_LEN], GError **error)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[] = {
	        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA1", 0),
	        OSSL_PARAM_construct_end(),
	};
	gsize out_len = 0;
	gboolean ok = ctx != NULL && EVP_MAC_init(ctx, key, key_len, params) == 1;

	for (guint i = 0; ok && i < n; i++)
		ok = lens[i] == 0 || EVP_MAC_update(ctx, parts[i], lens[i]) == 1;
	ok = ok && EVP_MAC_final(ctx, out, &out_len, EAP_PEAP_SHA1_LEN) == 1 &&
	     out_len == EAP_PEAP_SHA1_LEN;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	if (!ok)
		joind_set_error_from_openssl(error, G_IO_ERROR, G_IO_ERROR_FAILED,
		                             "OpenSSL HMAC-SHA1 failed");
	return ok;
}

gboolean
eap_peap_compound_mac(const guint8 cmk[EAP_PEAP_CMK_LEN],
                      const guint8 tlv[EAP_PEAP_BINDING_TLV_LEN],
                      guint8 mac[EAP_PEAP_BINDING_MAC_LEN], GError **error)
{
	static const guint8 eap_type = JOIND_EAP_TYPE_PEAP;
	guint8 zeroed[EAP_PEAP_BINDING_TLV_LEN];
	const guint8 *parts[] = {zeroed, &eap_type};
	const gsize lens[] = {sizeof(zeroed), 1};

	memcpy(zeroed, tlv, sizeof(zeroed));
	memset(zeroed + EAP_PEAP_BINDING_TLV_LEN - EAP_PEAP_BINDING_MAC_LEN, 0,
	       EAP_PEAP_BINDING_MAC_LEN);
	return eap_peap_hmac_sha1(cmk, EAP_PEAP_CMK_LEN, parts, lens, G_N_ELEMENTS(parts), mac,
	                          error);
}

gboolean
eap_peap_binding_verify(const EapPeapTlvs *tlvs, const guint8 cmk[EAP_PEAP_CMK_LEN], GError **error)
{
	guint8 mac[EAP_PEAP_BINDING_MAC_LEN];
	const guint8 *received =
	        tlvs->binding + EAP_PEAP_BINDING_TLV_LEN - EAP_PEAP_BINDING_MAC_LEN;

	if (!eap_peap_compound_mac(cmk, tlvs->binding, mac, error))
		return FALSE;
	if (CRYPTO_memcmp(mac, received, sizeof(mac)) != 0) {
		g_set_error(error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
		            "PEAP Crypto-Binding with a wrong Compound_MAC");
		return FALSE;
	}
	return TRUE;
}

gboolean
eap_peap_binding_build(GByteArray *out, const EapPeapTlvs *request,
                       const guint8 cmk[EAP_PEAP_CMK_LEN], GError **error)
{
	guint8 tlv[EAP_PEAP_BINDING_TLV_LEN];

	/* Type, Length, Reserved, Version and RecvVersion as the server sent
	 * them, SubType Response, the server's Nonce, then our MAC. */
	memcpy(tlv, request->binding, sizeof(tlv));
	tlv[4 + 3] = EAP_PEAP_BINDING_RESPONSE;
	if (!eap_peap_compound_mac(
	            cmk, tlv, tlv + EAP_PEAP_BINDING_TLV_LEN - EAP_PEAP_BINDING_MAC_LEN, error))
		return FALSE;
	g_byte_array_append(out, tlv, sizeof(tlv));
	return TRUE;
}

gboolean
eap_peap_prf_plus(const guint8 *key, gsize key_len, const gchar *label, const guint8 *seed,
                  gsize seed_len, guint8 *out, gsize out_len, GError **error)
{
	guint8 block[EAP_PEAP_SHA1_LEN];
	static const guint8 zeros[2] = {0, 0};
	gsize done = 0;
	gboolean ok = TRUE;

	for (guint8 i = 1; ok && done < out_len; i++) {
		const guint8 *parts[] = {block, (const guint8 *)label, seed, &i, zeros};
		const gsize lens[] = {i == 1 ? 0 : sizeof(block), strlen(label), seed_len, 1,
		                      sizeof(zeros)};
		gsize take = MIN(sizeof(block), out_len - done);

		ok = eap_peap_hmac_sha1(key, key_len, parts, lens, G_N_ELEMENTS(parts), block,
		                        error);
		if (ok)
			memcpy(out + done, block, take);
		done += take;
	}
	joind_secret_clear(block, sizeof(block));
	return ok;
}

gboolean
eap_peap_compound_keys(const guint8 tempkey[EAP_PEAP_TEMPKEY_LEN],
                       const guint8 isk[EAP_PEAP_ISK_LEN], guint8 ipmk[EAP_PEAP_IPMK_LEN],
                       guint8 cmk[EAP_PEAP_CMK_LEN], GError **error)
{
	guint8 imck[EAP_PEAP_IPMK_LEN + EAP_PEAP_CMK_LEN];
	gboolean ok =
	        eap_peap_prf_plus(tempkey, EAP_PEAP_TEMPKEY_LEN, "Inner Methods Compound Keys", isk,
	                          EAP_PEAP_ISK_LEN, imck, sizeof(imck), error);

	if (ok) {
		memcpy(ipmk, imck, EAP_PEAP_IPMK_LEN);
		memcpy(cmk, imck + EAP_PEAP_IPMK_LEN, EAP_PEAP_CMK_LEN);
	}
	joind_secret_clear(imck, sizeof(imck));
	return ok;
}

gboolean
eap_peap_binding_session_keys(const guint8 ipmk[EAP_PEAP_IPMK_LEN], guint8 msk[64], guint8 emsk[64],
                              GError **error)
{
	static const guint8 nul = 0;
	guint8 csk[128];
	gboolean ok = eap_peap_prf_plus(ipmk, EAP_PEAP_IPMK_LEN, "Session Key Generating Function",
	                                &nul, 1, csk, sizeof(csk), error);

	if (ok) {
		memcpy(msk, csk, 64);
		memcpy(emsk, csk + 64, 64);
	}
	joind_secret_clear(csk, sizeof(csk));
	return ok;
}
