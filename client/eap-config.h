/* eap-config.h - eduroam CAT / geteduroam EAP metadata files (".eap-config",
 * the eap-metadata schema): parsed from bytes into providers, their
 * authentication methods in the file's order and where they apply. The
 * parser is GLib's GMarkup with limits on everything a file can make big
 * or deep; it knows nothing of joind or D-Bus.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Limits a file must keep: larger or deeper ones are refused. */
#define EAP_CONFIG_MAX_FILE   (1024 * 1024)
#define EAP_CONFIG_MAX_DEPTH  16
#define EAP_CONFIG_MAX_BASE64 (128 * 1024) /* one CA or client certificate */
#define EAP_CONFIG_MAX_TEXT   1024         /* any other element's text */
#define EAP_CONFIG_MAX_ITEMS  64           /* methods, CAs, names, SSIDs each */

/* EAP types (IANA) and the schema's non-EAP inner methods. */
enum {
	EAP_CONFIG_EAP_MD5 = 4,
	EAP_CONFIG_EAP_GTC = 6,
	EAP_CONFIG_EAP_TLS = 13,
	EAP_CONFIG_EAP_TTLS = 21,
	EAP_CONFIG_EAP_PEAP = 25,
	EAP_CONFIG_EAP_MSCHAPV2 = 26,
	EAP_CONFIG_EAP_PWD = 52,
};
enum {
	EAP_CONFIG_NON_EAP_PAP = 1,
	EAP_CONFIG_NON_EAP_MSCHAP = 2,
	EAP_CONFIG_NON_EAP_MSCHAPV2 = 3,
};

#define EAP_CONFIG_ERROR (eap_config_error_quark())
GQuark eap_config_error_quark(void);
typedef enum {
	EAP_CONFIG_ERROR_INVALID,     /* malformed, hostile or incomplete */
	EAP_CONFIG_ERROR_UNSUPPORTED, /* well formed, but nothing joind can use */
} EapConfigError;

typedef struct {
	guint eap_type;           /* EAPMethod/Type */
	guint inner_eap_type;     /* InnerAuthenticationMethod/EAPMethod/Type, or 0 */
	guint inner_non_eap_type; /* InnerAuthenticationMethod/NonEAPAuthMethod/Type, or 0 */
	GPtrArray *cas;           /* GBytes: DER certificates (ServerSideCredential/CA) */
	GPtrArray *server_ids;    /* gchar *, NULL-terminated: ServerSideCredential/ServerID */
	gchar *outer_identity;
	gchar *inner_identity_suffix;
	gboolean inner_identity_hint; /* the user name must end in @suffix */
	GBytes *client_pkcs12;        /* ClientSideCredential/ClientCertificate, or NULL */
	gchar *client_passphrase;     /* ClientSideCredential/Passphrase, or NULL */
	gint line, column;            /* where the AuthenticationMethod starts */
} EapConfigMethod;

typedef struct {
	gchar *id; /* the EAPIdentityProvider's ID attribute, or NULL */
	gchar *display_name;
	GPtrArray *methods;         /* EapConfigMethod *, the file's order */
	GPtrArray *ssids;           /* gchar *: IEEE80211/SSID */
	GPtrArray *consortium_oids; /* gchar *: IEEE80211/ConsortiumOID */
	GPtrArray *wired_ids;       /* gchar *: IEEE8023/NetworkID ("" when none) */
	gint line, column;          /* where the EAPIdentityProvider starts */
} EapConfigProvider;

typedef struct {
	GPtrArray *providers; /* EapConfigProvider *, at least one */
} EapConfig;

/* The file's bytes; a GError (EAP_CONFIG_ERROR_INVALID) names the element
 * and its line:column when anything is malformed, too large or missing. */
EapConfig *eap_config_parse(const guint8 *data, gsize len, GError **error);
void eap_config_free(EapConfig *config);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(EapConfig, eap_config_free)

/* The first of provider's methods joinctl import can turn into a profile
 * (PEAP, TTLS with a supported inner method, TLS with a client
 * certificate, PWD); NULL with EAP_CONFIG_ERROR_UNSUPPORTED naming what
 * the file offers when none is. */
const EapConfigMethod *eap_config_pick_method(const EapConfigProvider *provider, GError **error);

/* "PEAP/MSCHAPv2", "TTLS/PAP", "TLS", "EAP type 17": for messages. */
gchar *eap_config_method_describe(const EapConfigMethod *method);

G_END_DECLS
