/* sae-frame.h - the bodies of SAE's authentication frames (IEEE
 * 802.11-2020 9.3.3.12, Table 9-41): commit, confirm and the
 * anti-clogging request; parsers take the octets after the status code
 * and return WIFI_SAE_ERROR on anything malformed. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define WIFI_SAE_ERROR (wifi_sae_error_quark())
GQuark wifi_sae_error_quark(void);
typedef enum {
	WIFI_SAE_ERROR_MALFORMED,        /* a frame joind cannot read */
	WIFI_SAE_ERROR_GROUP,            /* a group not offered or not supported */
	WIFI_SAE_ERROR_INVALID,          /* a scalar or element out of range, a reflection */
	WIFI_SAE_ERROR_REFUSED,          /* the peer's status code says no */
	WIFI_SAE_ERROR_CONFIRM_MISMATCH, /* the peer's confirm: another password */
	WIFI_SAE_ERROR_NO_CONFIRM,       /* the peer never confirmed ours: maybe the password */
	WIFI_SAE_ERROR_TIMED_OUT,        /* no answer after the retransmissions */
	WIFI_SAE_ERROR_FAILED,           /* joind's own failure (crypto) */
} WifiSaeError;

/* IEEE 802.11 status codes of SAE (Table 9-50). */
#define WIFI_SAE_STATUS_SUCCESS             0
#define WIFI_SAE_STATUS_UNSPECIFIED_FAILURE 1
#define WIFI_SAE_STATUS_ANTI_CLOGGING       76
#define WIFI_SAE_STATUS_GROUP_UNSUPPORTED   77
#define WIFI_SAE_STATUS_UNKNOWN_PASSWORD_ID 123
#define WIFI_SAE_STATUS_HASH_TO_ELEMENT     126
#define WIFI_SAE_STATUS_SAE_PK              127

/* Element extension IDs SAE commits carry. */
#define WIFI_SAE_EXT_PASSWORD_ID     33
#define WIFI_SAE_EXT_REJECTED_GROUPS 92
#define WIFI_SAE_EXT_TOKEN_CONTAINER 93

/* The prime length of a group SAE supports (19, 20, 21), else 0. */
gsize wifi_sae_group_prime_len(guint group);

typedef struct {
	guint16 group;
	const guint8 *token; /* anti-clogging token, or NULL */
	gsize token_len;
	const guint8 *scalar;     /* order length */
	const guint8 *element;    /* 2 * prime length */
	const guint8 *identifier; /* password identifier, or NULL */
	gsize identifier_len;
	const guint8 *rejected; /* rejected groups, 16-bit LE each, or NULL */
	gsize rejected_len;
} WifiSaeCommit;

/* A commit body: group, [token], scalar, element, then elements. Without
 * H2E a token (token_len octets, 0 for none) precedes the scalar; with it,
 * a token comes in its container element. The group must be supported
 * (WIFI_SAE_ERROR_GROUP otherwise). */
gboolean wifi_sae_commit_parse(const guint8 *data, gsize len, gboolean h2e, gsize token_len,
                               WifiSaeCommit *out, GError **error);
/* Appends a commit body to buf; identifier and rejected may be NULL. */
void wifi_sae_commit_build(GByteArray *buf, const WifiSaeCommit *commit, gboolean h2e,
                           gsize scalar_len, gsize element_len);

/* An anti-clogging request's body: the group and the token (after it, or
 * in its container element with H2E). */
gboolean wifi_sae_token_parse(const guint8 *data, gsize len, gboolean h2e, guint16 *group,
                              const guint8 **token, gsize *token_len, GError **error);

typedef struct {
	guint16 send_confirm;
	const guint8 *confirm;
	gsize confirm_len;
} WifiSaeConfirm;

/* A confirm body: the send-confirm counter, then confirm_len octets. */
gboolean wifi_sae_confirm_parse(const guint8 *data, gsize len, gsize confirm_len,
                                WifiSaeConfirm *out, GError **error);

G_END_DECLS
