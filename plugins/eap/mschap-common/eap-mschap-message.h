/* eap-mschap-message.h - the text messages of MS-CHAPv2 Success and
 * Failure (RFC 2759 sections 5 and 6), as EAP-MSCHAPv2 carries them in its
 * Success/Failure Requests and TTLS in its MS-CHAP2-Success and
 * MS-CHAP-Error attributes. */
#pragma once

#include <glib.h>

#include "eap-mschap-crypto.h"

G_BEGIN_DECLS

/* The Success Request's message: "S=<40 hex digits>", optionally followed
 * by " M=<text>". auth_response points into message (42 characters);
 * *text is a sanitised copy of the M= text, or NULL. */
gboolean eap_mschap_success_parse(const guint8 *message, gsize len, const gchar **auth_response,
                                  gchar **text, GError **error);

/* The Failure Request's message (RFC 2759 6):
 * "E=eeeeeeeeee R=r C=cccccccccccccccccccccccccccccccc V=vvvvvvvvvv M=<msg>". */
typedef struct {
	guint error_code; /* 0 when the server gave none */
	gboolean retry;   /* R=1: the server allows another attempt */
	gboolean has_challenge;
	guint8 challenge[EAP_MSCHAP_CHALLENGE_LEN];
	guint version;
	gchar *text; /* sanitised M= text, or NULL */
} EapMschapFailure;

gboolean eap_mschap_failure_parse(const guint8 *message, gsize len, EapMschapFailure *failure,
                                  GError **error);
void eap_mschap_failure_clear(EapMschapFailure *failure);
/* A sentence for a person: what the error code means, what to do, and the
 * server's text. */
gchar *eap_mschap_failure_describe(const EapMschapFailure *failure);

G_END_DECLS
