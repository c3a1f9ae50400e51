/* eap-tls-conn.c - OpenSSL TLS client on memory BIOs for EAP. The server
 * must validate against the configured trust anchors (and name masks);
 * there is no mode that accepts any server. Nothing here logs key
 * material or decrypted application data. */
#include "eap-tls-conn.h"

#include <string.h>

#include <openssl/err.h>
#include <openssl/pem.h>

#include "eap-tls-autoptr.h"
#include "eap-tls-domain.h"
#include "eap-tls-pin.h"
#include "eap-tls-tpm.h"
#include "joind-error.h"
#include "joind-secret.h"

struct _EapTlsConn {
	SSL_CTX *ctx;
	SSL *ssl;
	BIO *rbio, *wbio;           /* owned by ssl */
	EapTlsPkcs11Hold *key_hold; /* a key on a token: its module stays loaded */
	gchar *method;
	gchar *setting_prefix; /* "EAP-TLS-": sentences name keys to set */
	gchar *ca_where;
	gchar *domain_masks, *domain_where;
	gchar **pins; /* NULL: no ServerKeyPin */
	gchar *pin_where;
	gboolean no_anchor; /* no CA, no SystemCA, no pin: every server is refused */
	int min_version, max_version;
	gboolean handshake_done;

	/* what went wrong, for the sentence */
	int verify_error; /* X509_V_OK when none */
	int verify_depth;
	gboolean name_mismatch, pin_mismatch;
	gboolean server_trusted;
	gchar *server_subject, *server_issuer, *server_not_before, *server_not_after;
	gchar *server_pin, *server_names;
	gchar *peer_alert;

	SSL_SESSION *new_session; /* the latest the server gave, not yet taken */
};

static int
eap_tls_conn_index(void)
{
	static gsize index = 0;

	if (g_once_init_enter(&index)) {
		int i = SSL_get_ex_new_index(0, NULL, NULL, NULL, NULL);
		g_once_init_leave(&index, (gsize)(i + 1));
	}
	return (int)index - 1;
}

static gchar *
eap_tls_name_string(const X509_NAME *name)
{
	g_autoptr(BIO) bio = BIO_new(BIO_s_mem());
	char *data = NULL;
	long len;

	X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
	len = BIO_get_mem_data(bio, &data);
	return g_strndup(data, (gsize)MAX(len, 0));
}

static gchar *
eap_tls_time_string(const ASN1_TIME *t)
{
	g_autoptr(BIO) bio = BIO_new(BIO_s_mem());
	char *data = NULL;
	long len;

	ASN1_TIME_print(bio, t);
	len = BIO_get_mem_data(bio, &data);
	return g_strndup(data, (gsize)MAX(len, 0));
}

static void
eap_tls_add_name(GPtrArray *names, const unsigned char *data, int len)
{
	g_autofree gchar *name = NULL;

	/* An embedded NUL would let "good.example\0.evil" pass as good.example. */
	if (len <= 0 || memchr(data, 0, (size_t)len) != NULL)
		return;
	name = g_strndup((const gchar *)data, (gsize)len);
	for (guint i = 0; i < names->len; i++) {
		if (g_ascii_strcasecmp(g_ptr_array_index(names, i), name) == 0)
			return;
	}
	g_ptr_array_add(names, g_steal_pointer(&name));
}

/* DNS names of the subjectAltName, then the subject's CNs; NULL-terminated. */
static GStrv
eap_tls_cert_names(X509 *cert)
{
	g_autoptr(GENERAL_NAMES) sans = X509_get_ext_d2i(cert, NID_subject_alt_name, NULL, NULL);
	GPtrArray *names = g_ptr_array_new();
	const X509_NAME *subject = X509_get_subject_name(cert);
	int idx = -1;

	for (int i = 0; sans != NULL && i < sk_GENERAL_NAME_num(sans); i++) {
		const GENERAL_NAME *gen = sk_GENERAL_NAME_value(sans, i);
		if (gen->type == GEN_DNS)
			eap_tls_add_name(names, ASN1_STRING_get0_data(gen->d.dNSName),
			                 ASN1_STRING_length(gen->d.dNSName));
	}
	while ((idx = X509_NAME_get_index_by_NID(subject, NID_commonName, idx)) >= 0) {
		const ASN1_STRING *cn = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, idx));
		unsigned char *utf8 = NULL;
		int len = ASN1_STRING_to_UTF8(&utf8, cn);
		eap_tls_add_name(names, utf8, len);
		OPENSSL_free(utf8);
	}
	g_ptr_array_add(names, NULL);
	return (GStrv)g_ptr_array_free(names, FALSE);
}

static void
eap_tls_record_server(EapTlsConn *conn, X509 *leaf)
{
	if (conn->server_subject != NULL || leaf == NULL)
		return;
	conn->server_subject = eap_tls_name_string(X509_get_subject_name(leaf));
	conn->server_issuer = eap_tls_name_string(X509_get_issuer_name(leaf));
	conn->server_not_before = eap_tls_time_string(X509_get0_notBefore(leaf));
	conn->server_not_after = eap_tls_time_string(X509_get0_notAfter(leaf));
	conn->server_pin = eap_tls_pin_of_cert(leaf);
}

/* The server's names against ServerDomainMask (when set). */
static gboolean
eap_tls_conn_names_match(EapTlsConn *conn, X509 *leaf)
{
	g_auto(GStrv) names = NULL;

	if (conn->domain_masks == NULL)
		return TRUE;
	names = eap_tls_cert_names(leaf);
	if (eap_tls_domain_masks_match(conn->domain_masks, (const gchar *const *)names))
		return TRUE;
	conn->name_mismatch = TRUE;
	g_free(conn->server_names);
	conn->server_names = g_strjoinv(", ", names);
	return FALSE;
}

static int
eap_tls_verify_cb(int ok, X509_STORE_CTX *store)
{
	SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
	EapTlsConn *conn = SSL_get_ex_data(ssl, eap_tls_conn_index());
	int depth = X509_STORE_CTX_get_error_depth(store);

	eap_tls_record_server(conn, X509_STORE_CTX_get0_cert(store));
	if (!ok) {
		if (conn->verify_error == X509_V_OK) {
			conn->verify_error = X509_STORE_CTX_get_error(store);
			conn->verify_depth = depth;
		}
		return 0;
	}
	if (depth != 0 || eap_tls_conn_names_match(conn, X509_STORE_CTX_get_current_cert(store)))
		return 1;
	X509_STORE_CTX_set_error(store, X509_V_ERR_HOSTNAME_MISMATCH);
	return 0;
}

/* The whole decision on the server's certificate, before anything of ours
 * (a client certificate, a tunnelled password) goes out. A pin names the
 * one key to accept: it matches (and the names, if masked), or the server
 * is refused, whatever a CA says. Without a pin the chain must validate
 * against the CA; without any of CA, SystemCA and pin nothing can. */
static int
eap_tls_cert_decide(EapTlsConn *conn, X509_STORE_CTX *store, X509 *leaf)
{
	if (conn->pins != NULL) {
		if (conn->server_pin == NULL ||
		    !g_strv_contains((const gchar *const *)conn->pins, conn->server_pin)) {
			conn->pin_mismatch = TRUE;
			X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_UNTRUSTED);
			return 0;
		}
		if (eap_tls_conn_names_match(conn, leaf))
			return 1;
		X509_STORE_CTX_set_error(store, X509_V_ERR_HOSTNAME_MISMATCH);
		return 0;
	}
	if (conn->no_anchor) {
		X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_UNTRUSTED);
		return 0;
	}
	return X509_verify_cert(store);
}

static int
eap_tls_cert_verify_cb(X509_STORE_CTX *store, void *arg)
{
	EapTlsConn *conn = arg;
	X509 *leaf = X509_STORE_CTX_get0_cert(store);
	int ok;

	eap_tls_record_server(conn, leaf);
	ok = eap_tls_cert_decide(conn, store, leaf);
	conn->server_trusted = ok > 0;
	return ok;
}

static void
eap_tls_info_cb(const SSL *ssl, int where, int ret)
{
	EapTlsConn *conn = SSL_get_ex_data(ssl, eap_tls_conn_index());

	if ((where & SSL_CB_ALERT) == 0)
		return;
	g_debug("TLS alert %s: %s %s", (where & SSL_CB_READ) ? "received" : "sent",
	        SSL_alert_type_string_long(ret), SSL_alert_desc_string_long(ret));
	/* Fatal alerts from the server say why it gave up. */
	if ((where & SSL_CB_READ) && (ret >> 8) == SSL3_AL_FATAL && conn->peer_alert == NULL)
		conn->peer_alert = g_strdup(SSL_alert_desc_string_long(ret));
}

/* The server gave a session to resume later (TLS 1.2: at the end of the
 * handshake; TLS 1.3: in a NewSessionTicket). Returning 1 keeps our
 * reference. */
static int
eap_tls_new_session_cb(SSL *ssl, SSL_SESSION *session)
{
	EapTlsConn *conn = SSL_get_ex_data(ssl, eap_tls_conn_index());

	if (!SSL_SESSION_is_resumable(session))
		return 0;
	if (conn->new_session != NULL)
		SSL_SESSION_free(conn->new_session);
	conn->new_session = session;
	return 1;
}

/* The CA certificates (PEM, from a file or embedded in the profile) into
 * the context's store; FALSE when none could be read. */
static gboolean
eap_tls_conn_load_ca(SSL_CTX *ctx, GBytes *pem)
{
	gsize len = 0;
	const void *data = g_bytes_get_data(pem, &len);
	BIO *bio = BIO_new_mem_buf(data, (int)len);
	X509_STORE *store = SSL_CTX_get_cert_store(ctx);
	guint n = 0;
	X509 *x;

	while (bio != NULL && (x = PEM_read_bio_X509(bio, NULL, NULL, NULL)) != NULL) {
		if (X509_STORE_add_cert(store, x))
			n++;
		X509_free(x);
	}
	/* The loop ends on the error of reading past the last certificate. */
	ERR_clear_error();
	BIO_free(bio);
	return n > 0;
}

static gboolean
eap_tls_conn_setup_ctx(EapTlsConn *conn, const EapTlsConfig *c, GError **error)
{
	SSL_CTX *ctx = conn->ctx;

	if (!SSL_CTX_set_min_proto_version(ctx, c->min_version) ||
	    !SSL_CTX_set_max_proto_version(ctx, c->max_version))
		goto fail;
	if (c->ca_pem != NULL) {
		if (!eap_tls_conn_load_ca(ctx, c->ca_pem)) {
			g_set_error(error, JOIND_ERROR, JOIND_ERROR_INVALID_ARGS,
			            "%s holds no CA certificate OpenSSL can read", c->ca_where);
			return FALSE;
		}
	} else if (c->system_ca && !SSL_CTX_set_default_verify_paths(ctx)) {
		goto fail;
	}
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, eap_tls_verify_cb);
	SSL_CTX_set_cert_verify_callback(ctx, eap_tls_cert_verify_cb, conn);
	/* EAP never needs a TLS 1.2 renegotiation; refusing it removes a way
	 * to swap the server identity mid-conversation. */
	SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION);
	SSL_CTX_set_info_callback(ctx, eap_tls_info_cb);
	/* Sessions for resumption are kept by the caller (per EAP session,
	 * eap_tls_conn_take_new_session), not in OpenSSL's cache. */
	SSL_CTX_set_session_cache_mode(ctx,
	                               SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(ctx, eap_tls_new_session_cb);
	/* The signature schemes our key may sign with (RSA in a TPM). */
	if (c->rsa_pkcs1_only &&
	    SSL_CTX_set1_client_sigalgs_list(ctx, "RSA+SHA256:RSA+SHA384:RSA+SHA512") != 1)
		goto fail;
	if (c->cert != NULL) {
		if (SSL_CTX_use_certificate(ctx, c->cert) != 1 ||
		    SSL_CTX_use_PrivateKey(ctx, c->key) != 1)
			goto fail;
		for (int i = 0; c->chain != NULL && i < sk_X509_num(c->chain); i++) {
			if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(c->chain, i)) != 1)
				goto fail;
		}
	}
	return TRUE;
/* cleanup: the OpenSSL error queue, turned into the caller's error */
fail:
	return joind_set_error_from_openssl(error, JOIND_ERROR, JOIND_ERROR_FAILED,
	                                    "EAP-%s: cannot set up TLS", c->method);
}

EapTlsConn *
eap_tls_conn_new(const EapTlsConfig *c, GError **error)
{
	g_autoptr(EapTlsConn) conn = g_new0(EapTlsConn, 1);

	conn->method = g_strdup(c->method);
	conn->setting_prefix = g_strdup(c->setting_prefix);
	conn->ca_where = g_strdup(c->ca_where);
	conn->domain_masks = g_strdup(c->domain_masks);
	conn->domain_where = g_strdup(c->domain_where);
	conn->pins = g_strdupv(c->pins);
	conn->pin_where = g_strdup(c->pin_where);
	conn->no_anchor = c->ca_pem == NULL && !c->system_ca && c->pins == NULL;
	conn->min_version = c->min_version;
	conn->max_version = c->max_version;
	/* The SSL_CTX holds the key: a key on a token needs its module as long. */
	conn->key_hold = eap_tls_pkcs11_hold_ref(c->key_hold);
	conn->ctx =
	        SSL_CTX_new_ex(NULL, c->key_in_tpm ? EAP_TLS_TPM_PROPQ : NULL, TLS_client_method());
	if (conn->ctx == NULL || !eap_tls_conn_setup_ctx(conn, c, error))
		return NULL;
	conn->ssl = SSL_new(conn->ctx);
	conn->rbio = BIO_new(BIO_s_mem());
	conn->wbio = BIO_new(BIO_s_mem());
	if (conn->ssl == NULL || conn->rbio == NULL || conn->wbio == NULL) {
		BIO_free(conn->rbio);
		BIO_free(conn->wbio);
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "out of memory for TLS");
		return NULL;
	}
	/* An empty read BIO means "wait for the next EAP packet", not EOF. */
	BIO_set_mem_eof_return(conn->rbio, -1);
	SSL_set_bio(conn->ssl, conn->rbio, conn->wbio);
	SSL_set_ex_data(conn->ssl, eap_tls_conn_index(), conn);
	SSL_set_connect_state(conn->ssl);
	return g_steal_pointer(&conn);
}

void
eap_tls_conn_free(EapTlsConn *conn)
{
	if (conn == NULL)
		return;
	if (conn->new_session != NULL)
		SSL_SESSION_free(conn->new_session);
	/* EAP ends a tunnel without close_notify; freeing a connection that
	 * was not shut down would mark its session not resumable. Whether to
	 * resume it is the caller's choice (eap-tls-flow.c). */
	if (conn->ssl != NULL && conn->handshake_done)
		SSL_set_shutdown(conn->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_free(conn->ssl);
	SSL_CTX_free(conn->ctx);
	eap_tls_pkcs11_hold_unref(conn->key_hold);
	g_free(conn->method);
	g_free(conn->setting_prefix);
	g_free(conn->ca_where);
	g_free(conn->domain_masks);
	g_free(conn->domain_where);
	g_strfreev(conn->pins);
	g_free(conn->pin_where);
	g_free(conn->server_subject);
	g_free(conn->server_issuer);
	g_free(conn->server_not_before);
	g_free(conn->server_not_after);
	g_free(conn->server_pin);
	g_free(conn->server_names);
	g_free(conn->peer_alert);
	g_free(conn);
}

static const gchar *
eap_tls_version_name(int version)
{
	return version == TLS1_3_VERSION ? "1.3" : version == TLS1_2_VERSION ? "1.2" : "?";
}

/* "“CN=...” (issued by “CN=...”, valid from ... until ..., key pin
 * sha256/...)": what a person needs to decide whether to trust it. */
static gchar *
eap_tls_conn_describe_server(EapTlsConn *conn)
{
	return g_strdup_printf("“%s” (issued by “%s”, valid from %s until %s, key pin %s)",
	                       conn->server_subject != NULL ? conn->server_subject : "?",
	                       conn->server_issuer != NULL ? conn->server_issuer : "?",
	                       conn->server_not_before != NULL ? conn->server_not_before : "?",
	                       conn->server_not_after != NULL ? conn->server_not_after : "?",
	                       conn->server_pin != NULL ? conn->server_pin : "?");
}

static void
eap_tls_conn_set_verify_error(EapTlsConn *conn, GError **error)
{
	g_autofree gchar *server = eap_tls_conn_describe_server(conn);
	const gchar *pin = conn->server_pin != NULL ? conn->server_pin : "?";
	const gchar *p = conn->setting_prefix;

	if (conn->pin_mismatch)
		joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                "Authentication failed: server key not trusted. The server "
		                "presented the certificate %s, whose key is not among those "
		                "pinned by %s. If the server's key changed on purpose, put the new "
		                "pin there.",
		                server, conn->pin_where);
	else if (conn->no_anchor)
		joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                "Authentication failed: nothing to verify the server by (%sCACert, "
		                "%sSystemCA and %sServerKeyPin are not set), so it was refused "
		                "before any credential was sent. The server presented the "
		                "certificate %s. If that is your network's authentication server, "
		                "set %sServerKeyPin=%s, or set %sCACert to the CA that issued it.",
		                p, p, p, server, p, pin, p);
	else if (conn->name_mismatch)
		joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                "Authentication failed: server name mismatch. The server "
		                "certificate %s names %s, which matches none of %s (%s).",
		                server,
		                conn->server_names[0] != '\0' ? conn->server_names : "nothing",
		                conn->domain_masks, conn->domain_where);
	else
		joind_set_error(error, JOIND_ERROR_AUTHENTICATION_FAILED,
		                "Authentication failed: server certificate not trusted. The server "
		                "certificate %s does not validate against %s: %s. To trust exactly "
		                "this server's key, set %sServerKeyPin=%s.",
		                server, conn->ca_where,
		                X509_verify_cert_error_string(conn->verify_error), p, pin);
}

/* What a fatal alert from the server most likely means. */
static gchar *
eap_tls_alert_hint(EapTlsConn *conn)
{
	static const gchar *const client_cert[] = {"unknown CA",
	                                           "bad certificate",
	                                           "certificate unknown",
	                                           "unsupported certificate",
	                                           "certificate revoked",
	                                           "certificate expired",
	                                           "access denied",
	                                           "certificate required",
	                                           NULL};

	if (g_strv_contains(client_cert, conn->peer_alert))
		return g_strdup(" (it did not accept the client certificate)");
	if (g_strcmp0(conn->peer_alert, "protocol version") == 0)
		return g_strdup_printf(
		        " (no TLS version in common: the profile allows TLS %s to %s)",
		        eap_tls_version_name(conn->min_version),
		        eap_tls_version_name(conn->max_version));
	if (g_strcmp0(conn->peer_alert, "handshake failure") == 0 ||
	    g_strcmp0(conn->peer_alert, "insufficient security") == 0)
		return g_strdup(" (no cipher suite in common)");
	return g_strdup("");
}

static EapTlsConnStatus
eap_tls_conn_failed(EapTlsConn *conn, GError **error)
{
	unsigned long e = ERR_peek_last_error();
	const gchar *reason = e != 0 ? ERR_reason_error_string(e) : NULL;

	if (conn->verify_error != X509_V_OK || conn->name_mismatch || conn->pin_mismatch ||
	    (conn->no_anchor && conn->server_subject != NULL)) {
		eap_tls_conn_set_verify_error(conn, error);
	} else if (conn->peer_alert != NULL) {
		g_autofree gchar *hint = eap_tls_alert_hint(conn);
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		            "The EAP-%s server ended the TLS handshake with the alert \"%s\"%s.",
		            conn->method, conn->peer_alert, hint);
	} else {
		g_set_error(
		        error, JOIND_ERROR, JOIND_ERROR_AUTHENTICATION_FAILED,
		        "The EAP-%s TLS handshake failed: %s (the profile allows TLS %s to %s).",
		        conn->method, reason != NULL ? reason : "unknown error",
		        eap_tls_version_name(conn->min_version),
		        eap_tls_version_name(conn->max_version));
	}
	ERR_clear_error();
	return EAP_TLS_CONN_FAILED;
}

EapTlsConnStatus
eap_tls_conn_process(EapTlsConn *conn, const guint8 *in, gsize len, GByteArray *app_data,
                     GError **error)
{
	guint8 buf[4096];
	size_t n = 0;
	int r;

	if (len > 0 && BIO_write(conn->rbio, in, (int)len) != (int)len) {
		g_set_error_literal(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                    "TLS input buffer full");
		return EAP_TLS_CONN_FAILED;
	}
	ERR_clear_error();
	if (!conn->handshake_done) {
		r = SSL_do_handshake(conn->ssl);
		if (r != 1)
			return SSL_get_error(conn->ssl, r) == SSL_ERROR_WANT_READ
			               ? EAP_TLS_CONN_CONTINUE
			               : eap_tls_conn_failed(conn, error);
		conn->handshake_done = TRUE;
		g_debug("EAP-%s: TLS %s handshake done, cipher %s", conn->method,
		        SSL_get_version(conn->ssl), SSL_get_cipher_name(conn->ssl));
	}
	for (;;) {
		r = SSL_read_ex(conn->ssl, buf, sizeof(buf), &n);
		if (r == 1) {
			g_byte_array_append(app_data, buf, (guint)n);
			joind_secret_clear(buf, n);
			continue;
		}
		switch (SSL_get_error(conn->ssl, r)) {
		case SSL_ERROR_WANT_READ:
			return EAP_TLS_CONN_CONTINUE;
		case SSL_ERROR_ZERO_RETURN:
			return EAP_TLS_CONN_CLOSED;
		default:
			return eap_tls_conn_failed(conn, error);
		}
	}
}

gboolean
eap_tls_conn_handshake_done(EapTlsConn *conn)
{
	return conn->handshake_done;
}

gboolean
eap_tls_conn_write(EapTlsConn *conn, const guint8 *data, gsize len, GError **error)
{
	size_t written = 0;

	ERR_clear_error();
	if (SSL_write_ex(conn->ssl, data, len, &written) != 1 || written != len)
		return joind_set_error_from_openssl(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		                                    "EAP-%s: TLS write failed", conn->method);
	return TRUE;
}

GBytes *
eap_tls_conn_take_output(EapTlsConn *conn)
{
	size_t pending = BIO_ctrl_pending(conn->wbio);
	guint8 *data;
	int n;

	if (pending == 0)
		return NULL;
	data = g_malloc(pending);
	n = BIO_read(conn->wbio, data, (int)pending);
	return g_bytes_new_take(data, (gsize)MAX(n, 0));
}

int
eap_tls_conn_get_version(EapTlsConn *conn)
{
	return conn->handshake_done ? SSL_version(conn->ssl) : 0;
}

const gchar *
eap_tls_conn_get_peer_alert(EapTlsConn *conn)
{
	return conn->peer_alert;
}

gboolean
eap_tls_conn_export(EapTlsConn *conn, const gchar *label, const guint8 *context, gsize context_len,
                    guint8 *out, gsize out_len, GError **error)
{
	if (!conn->handshake_done ||
	    SSL_export_keying_material(conn->ssl, out, out_len, label, strlen(label), context,
	                               context_len, context != NULL) != 1) {
		ERR_clear_error();
		g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED,
		            "EAP-%s: cannot export keying material", conn->method);
		return FALSE;
	}
	return TRUE;
}

gboolean
eap_tls_conn_offer_session(EapTlsConn *conn, SSL_SESSION *session)
{
	/* Only before the handshake; a session of another TLS version or one
	 * that has expired is simply not resumed by the server. */
	if (conn->handshake_done || SSL_set_session(conn->ssl, session) != 1) {
		ERR_clear_error();
		return FALSE;
	}
	return TRUE;
}

SSL_SESSION *
eap_tls_conn_take_new_session(EapTlsConn *conn)
{
	SSL_SESSION *session = conn->new_session;

	conn->new_session = NULL;
	return session;
}

gboolean
eap_tls_conn_resumed(EapTlsConn *conn)
{
	return conn->handshake_done && SSL_session_reused(conn->ssl) == 1;
}

/* The certificate itself, and what it takes to trust it: the key that
 * would pin it and, when its names were what failed, the mask it missed. */
static void
eap_tls_conn_add_certificate(EapTlsConn *conn, GVariantDict *dict)
{
	g_autofree gchar *pin_setting = g_strconcat(conn->setting_prefix, "ServerKeyPin", NULL);

	g_variant_dict_insert(dict, "subject", "s", conn->server_subject);
	g_variant_dict_insert(dict, "issuer", "s", conn->server_issuer);
	g_variant_dict_insert(dict, "not-before", "s", conn->server_not_before);
	g_variant_dict_insert(dict, "not-after", "s", conn->server_not_after);
	if (conn->server_pin != NULL)
		g_variant_dict_insert(dict, "pin", "s", conn->server_pin);
	g_variant_dict_insert(dict, "pin-setting", "s", pin_setting);
	g_variant_dict_insert(dict, "trusted", "b", conn->server_trusted);
	if (conn->name_mismatch) {
		g_autofree gchar *mask =
		        g_strconcat(conn->setting_prefix, "ServerDomainMask", NULL);
		g_variant_dict_insert(dict, "domain-mask-setting", "s", mask);
		g_variant_dict_insert(dict, "names", "s", conn->server_names);
	}
}

GVariant *
eap_tls_conn_get_server_details(EapTlsConn *conn, GVariant *earlier)
{
	GVariantDict dict;
	const SSL_CIPHER *cipher;

	if (conn->server_subject == NULL && (!conn->handshake_done || earlier == NULL))
		return NULL;
	/* A resumed session shows no certificate: the server proved it holds
	 * the keys of the one it showed before. */
	g_variant_dict_init(&dict, conn->server_subject == NULL ? earlier : NULL);
	if (conn->server_subject != NULL)
		eap_tls_conn_add_certificate(conn, &dict);
	if (conn->handshake_done) {
		cipher = SSL_get_current_cipher(conn->ssl);
		g_variant_dict_insert(&dict, "tls-version", "s", SSL_get_version(conn->ssl));
		if (cipher != NULL)
			g_variant_dict_insert(&dict, "cipher", "s",
			                      SSL_CIPHER_standard_name(cipher));
		g_variant_dict_insert(&dict, "resumed", "b", SSL_session_reused(conn->ssl) == 1);
	}
	return g_variant_dict_end(&dict);
}
