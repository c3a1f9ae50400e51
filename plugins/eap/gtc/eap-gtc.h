/* eap-gtc.h - the EAP-GTC method (type 6, RFC 3748 section 5.6). */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* Registered as "GTC", outer and inner (PEAP/GTC, TTLS/EAP-GTC). Answers
 * the server's prompt with <P>Password (profile or agent): a static
 * password or a one-time token. */
extern const JoindEapMethodOps eap_gtc_ops;

/* A parsed Request: the prompt to show (sanitised, never NULL) and whether
 * it is EAP-FAST style "CHALLENGE=..." that expects "RESPONSE=<user>\0<pw>". */
typedef struct {
	gchar *prompt;
	gboolean fast_challenge;
} EapGtcRequest;

/* Fails (G_IO_ERROR_INVALID_DATA) on a prompt with a NUL inside the text
 * (RFC 3748: displayable, not NUL-terminated; one trailing NUL is
 * tolerated). */
gboolean eap_gtc_request_parse(const guint8 *data, gsize len, EapGtcRequest *request,
                               GError **error);
void eap_gtc_request_clear(EapGtcRequest *request);

/* Appends the Response: the password, or for an EAP-FAST style challenge
 * "RESPONSE=" user NUL password. */
void eap_gtc_response_build(GByteArray *out, const EapGtcRequest *request, const gchar *user,
                            const gchar *password);

G_END_DECLS
