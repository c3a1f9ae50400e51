/* eap-config-profile.h - an eap-config method turned into the settings of
 * a joind 802.1X profile (net.joind.ProfileManager1's a{sv}, iwd's keys):
 * the certificates converted to PEM with OpenSSL (eap-config-crypto.c),
 * then the keys (eap-config-profile.c).
 */
#pragma once

#include "eap-config.h"

G_BEGIN_DECLS

/* The CAs (DER) as one PEM text; each must be an X.509 certificate. */
gchar *eap_config_ca_pem(const GPtrArray *cas, GError **error);

/* A PKCS#12 client certificate opened with passphrase ("" or NULL when it
 * has none): the certificate and its chain, the private key (PKCS#8, not
 * encrypted: the profile is the daemon's, mode 0600), and the
 * certificate's subject common name. Wrong passphrase:
 * EAP_CONFIG_ERROR_INVALID saying so. */
typedef struct {
	gchar *cert_pem;
	gchar *key_pem; /* wiped when freed */
	gchar *common_name;
} EapConfigClientPem;
EapConfigClientPem *eap_config_client_pem(GBytes *pkcs12, const gchar *passphrase, GError **error);
void eap_config_client_pem_free(EapConfigClientPem *pem);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapConfigClientPem, eap_config_client_pem_free)

/* Whether the method needs the user's name and password (TLS needs
 * neither; its key's passphrase, when the file does not hold it, is asked
 * for as the password). */
gboolean eap_config_method_uses_password(const EapConfigMethod *method);

/* A user name the provider accepts: ending in "@suffix" when the file
 * demands it (InnerIdentityHint with an InnerIdentitySuffix). */
gboolean eap_config_check_username(const EapConfigMethod *method, const gchar *username,
                                   GError **error);

typedef struct {
	const gchar *username;            /* NULL for TLS: the outer identity or the CN */
	const gchar *password;            /* PEAP, TTLS, PWD */
	const gchar *ca_pem;              /* NULL when the file has no CA */
	const EapConfigClientPem *client; /* TLS */
} EapConfigCredentials;

/* The settings of one profile for method with credentials (a floating
 * a{sv}); the same for each SSID and for a wired profile. */
GVariant *eap_config_profile_settings(const EapConfigMethod *method,
                                      const EapConfigCredentials *credentials);

G_END_DECLS
