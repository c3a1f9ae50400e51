/* joind-eap-method.h - the EAP method registry's side shared by sessions
 * and the profile check. */
#pragma once

#include "joind-eap.h"

G_BEGIN_DECLS

/* The methods a <P>Method value names (separated by ',', ';' or spaces),
 * each registered and carrying need (JOIND_EAP_METHOD_FLAG_OUTER or _INNER);
 * where ("file:line: EAP-Method") starts the error sentences. Element type
 * const JoindEapMethodOps *. */
GPtrArray *joind_eap_methods_parse(const gchar *setting, const gchar *where, guint32 need,
                                   GError **error);

/* Methods a plugin provides before its module is opened (its manifest):
 * the first lookup of name or type calls load(data), which is to open the
 * plugin so that its init() registers the method. Every method declared
 * with data is forgotten then, registered or not. */
typedef void (*JoindEapMethodLoadFunc)(gpointer data);
void joind_eap_declare_method(const gchar *name, guint8 type, JoindEapMethodLoadFunc load,
                              gpointer data);
void joind_eap_forget_declared(gconstpointer data);

/* Is key (of [Security]) one of iwd.network(5)'s EAP keys, or joind's
 * additions (EAP-RememberCredentials, <P>ServerKeyPin, <P>SystemCA,
 * <P>Version-Min/Max)? "EAP-" then, under any nesting of
 * PEAP-Phase2-/TTLS-Phase2-, a method key (Method, Identity, Password,
 * Password-Hash) or a TLS key under TLS-, PEAP- or TTLS-. */
gboolean joind_eap_key_is_known(const gchar *key);

G_END_DECLS
