/* eap-peap-tlv.h - PEAPv0's Extensions (EAP type 33) TLVs: Result and
 * Crypto-Binding ([MS-PEAP] 2.2.8, draft-josefsson-pppext-eap-tls-eap-10),
 * and the compound keys behind the binding. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define EAP_PEAP_TYPE_EXTENSIONS 33

#define EAP_PEAP_TLV_MANDATORY 0x8000
#define EAP_PEAP_TLV_TYPE_MASK 0x3fff
#define EAP_PEAP_TLV_RESULT    3
#define EAP_PEAP_TLV_NAK       4
#define EAP_PEAP_TLV_BINDING   12

#define EAP_PEAP_RESULT_SUCCESS 1
#define EAP_PEAP_RESULT_FAILURE 2

#define EAP_PEAP_BINDING_VALUE_LEN 56 /* Reserved, Version, RecvVersion, SubType, Nonce, MAC */
#define EAP_PEAP_BINDING_TLV_LEN   (4 + EAP_PEAP_BINDING_VALUE_LEN)
#define EAP_PEAP_BINDING_NONCE_LEN 32
#define EAP_PEAP_BINDING_MAC_LEN   20
#define EAP_PEAP_BINDING_REQUEST   0
#define EAP_PEAP_BINDING_RESPONSE  1
#define EAP_PEAP_TEMPKEY_LEN       40
#define EAP_PEAP_ISK_LEN           32
#define EAP_PEAP_IPMK_LEN          40
#define EAP_PEAP_CMK_LEN           20

typedef struct {
	guint16 result; /* EAP_PEAP_RESULT_*, 0 when absent */
	gboolean has_binding;
	guint8 binding[EAP_PEAP_BINDING_TLV_LEN]; /* the whole TLV as received */
	guint16 unknown_mandatory;                /* a mandatory TLV we do not know, or 0 */
} EapPeapTlvs;

/* A sequence of TLVs (after the Extensions Type octet). Fails
 * (G_IO_ERROR_INVALID_DATA) on a truncated TLV, a Result of the wrong
 * length or status, a second Result or Crypto-Binding, and a
 * Crypto-Binding of the wrong length or SubType. */
gboolean eap_peap_tlvs_parse(const guint8 *data, gsize len, EapPeapTlvs *tlvs, GError **error);

/* Appends a Result TLV (mandatory, as Windows and hostapd send it). */
void eap_peap_result_tlv_build(GByteArray *out, guint16 status);

/* Compound_MAC = HMAC-SHA1(CMK, Crypto-Binding TLV with a zero MAC | EAP type 25). */
gboolean eap_peap_compound_mac(const guint8 cmk[EAP_PEAP_CMK_LEN],
                               const guint8 tlv[EAP_PEAP_BINDING_TLV_LEN],
                               guint8 mac[EAP_PEAP_BINDING_MAC_LEN], GError **error);
/* Checks the server's Crypto-Binding (a Request) against cmk. */
gboolean eap_peap_binding_verify(const EapPeapTlvs *tlvs, const guint8 cmk[EAP_PEAP_CMK_LEN],
                                 GError **error);
/* Appends our Crypto-Binding Response to the server's request: its
 * versions and nonce, SubType 1, our Compound_MAC. */
gboolean eap_peap_binding_build(GByteArray *out, const EapPeapTlvs *request,
                                const guint8 cmk[EAP_PEAP_CMK_LEN], GError **error);

/* PEAPv0's PRF+: T(i) = HMAC-SHA1(key, T(i-1) | label | seed | i | 0x00 0x00). */
gboolean eap_peap_prf_plus(const guint8 *key, gsize key_len, const gchar *label, const guint8 *seed,
                           gsize seed_len, guint8 *out, gsize out_len, GError **error);
/* IMCK = PRF+(TempKey, "Inner Methods Compound Keys", ISK, 60):
 * IPMK = IMCK[0..40), CMK = IMCK[40..60). */
gboolean eap_peap_compound_keys(const guint8 tempkey[EAP_PEAP_TEMPKEY_LEN],
                                const guint8 isk[EAP_PEAP_ISK_LEN], guint8 ipmk[EAP_PEAP_IPMK_LEN],
                                guint8 cmk[EAP_PEAP_CMK_LEN], GError **error);
/* With crypto binding, MSK | EMSK = PRF+(IPMK, "Session Key Generating
 * Function", 0x00, 128). */
gboolean eap_peap_binding_session_keys(const guint8 ipmk[EAP_PEAP_IPMK_LEN], guint8 msk[64],
                                       guint8 emsk[64], GError **error);

G_END_DECLS
