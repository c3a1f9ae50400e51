/* joind-profile.h - provisioning files that the core reads for plugins.
 *
 * Profiles live in the state directory, named and formatted like iwd's:
 *   <ssid>.open | <ssid>.psk | <ssid>.8021x   (=<hex> for SSIDs that are not
 *                                              printable file names)
 *   wired/<name>.8021x                         ([Match] Interface=, MACAddress=)
 *   ap/<ssid>.ap                               an access point's (iwd's format)
 * The core watches the directory and reloads files live; plugins look
 * profiles up here and listen to JoindCore::profile-changed.
 */
#pragma once

#include <gio/gio.h>

#include "joind-export.h"

G_BEGIN_DECLS

typedef struct _JoindCore JoindCore;
typedef struct _JoindProfileKey JoindProfileKey;

typedef enum {
	JOIND_PROFILE_TYPE_OPEN,
	JOIND_PROFILE_TYPE_PSK,
	JOIND_PROFILE_TYPE_8021X,
	JOIND_PROFILE_TYPE_WIRED, /* wired/<name>.8021x */
	/* ap/<ssid>.ap (ABI 3.1): made over ProfileManager1 and read when an
	 * access point starts from it; the store holds none (it is no
	 * network to join) and no profile-changed is emitted for one. */
	JOIND_PROFILE_TYPE_AP,
} JoindProfileType;

typedef enum {
	JOIND_PROFILE_CHANGE_ADDED,
	JOIND_PROFILE_CHANGE_CHANGED,
	JOIND_PROFILE_CHANGE_REMOVED,
	/* the last value, which name tables are checked against */
	JOIND_PROFILE_CHANGE_LAST = JOIND_PROFILE_CHANGE_REMOVED,
} JoindProfileChange;

#define JOIND_TYPE_PROFILE (joind_profile_get_type())
JOIND_EXPORT
G_DECLARE_FINAL_TYPE(JoindProfile, joind_profile, JOIND, PROFILE, GObject)

JOIND_EXPORT JoindProfileType joind_profile_get_profile_type(JoindProfile *self);
/* A type's file extension, which is also iwd's name for it: "open", "psk",
 * "8021x" (wired profiles too) or "ap". */
JOIND_EXPORT const gchar *joind_profile_type_to_extension(JoindProfileType type);
/* A profile is a snapshot of one file: when the file changes the store makes
 * a new JoindProfile (carried by profile-changed CHANGED); one held by a
 * plugin keeps the values it was made with. */

/* The SSID bytes; NULL for wired profiles. */
JOIND_EXPORT GBytes *joind_profile_get_ssid(JoindProfile *self);
/* The SSID for display (non-UTF-8 bytes escaped), or the wired file stem. */
JOIND_EXPORT const gchar *joind_profile_get_name(JoindProfile *self);
JOIND_EXPORT const gchar *joind_profile_get_path(JoindProfile *self);
/* NULL when the key is absent. */
JOIND_EXPORT gchar *joind_profile_get_string(JoindProfile *self, const gchar *group,
                                             const gchar *key);
JOIND_EXPORT gboolean joind_profile_get_boolean(JoindProfile *self, const gchar *group,
                                                const gchar *key, gboolean default_value);
JOIND_EXPORT gboolean joind_profile_has_key(JoindProfile *self, const gchar *group,
                                            const gchar *key);
/* Line of a key in its file (1-based), 0 when unknown: for error sentences. */
JOIND_EXPORT guint joind_profile_get_line(JoindProfile *self, const gchar *group, const gchar *key);
/* "<file>:<line>: <key>" (or "<file>: <key>" when the key is absent), to
 * start error sentences about a key (ABI 1.4). */
JOIND_EXPORT gchar *joind_profile_describe_key(JoindProfile *self, const gchar *group,
                                               const gchar *key);
/* iwd's embedded PEMs: the PEM text of the file's [@pem@name] group, which a
 * value "embed:name" (e.g. EAP-TLS-CACert=embed:ca) refers to; NULL when the
 * file embeds none by that name. The text may hold a private key. */
JOIND_EXPORT const gchar *joind_profile_get_embedded_pem(JoindProfile *self, const gchar *name);
/* Wired profiles: does [Match] select this link? Interface= holds one or
 * more globs, MACAddress= one or more addresses (separated by spaces); when
 * both are given both must match; a profile without them matches nothing. */
JOIND_EXPORT gboolean joind_profile_matches_link(JoindProfile *self, const gchar *ifname,
                                                 const gchar *address);

/* ---- profile keys a plugin owns (ABI 3.0) ----
 *
 * The core checks every profile as it is read, whether or not the plugin
 * that acts on it is open: a plugin lists the keys it reads in its
 * descriptor (profile_keys, joind-plugin.h) with the kind of value each
 * takes, and the core refuses a bad value with the file and line. A key
 * no plugin (and not the core) owns is warned about and kept. */

typedef enum {
	JOIND_PROFILE_KEY_BOOL,            /* true or false */
	JOIND_PROFILE_KEY_WORDS,           /* comma-separated words, each one of choices */
	JOIND_PROFILE_KEY_UNICAST_ADDRESS, /* a station's own MAC address: unicast, not zero */
	JOIND_PROFILE_KEY_PASSPHRASE,      /* 8 to 63 printable ASCII characters (a secret) */
	JOIND_PROFILE_KEY_HEX256,          /* 64 hexadecimal digits (a secret) */
	JOIND_PROFILE_KEY_TEXT,            /* any text the plugin reads as it is */
	/* the last value, which name tables are checked against */
	JOIND_PROFILE_KEY_LAST = JOIND_PROFILE_KEY_TEXT,
} JoindProfileKeyType;

/* The bit of a JoindProfileType in JoindProfileKey.profiles. */
#define JOIND_PROFILE_KEY_IN(type) (1u << (type))

struct _JoindProfileKey {
	guint32 profiles;   /* JOIND_PROFILE_KEY_IN() of the types it belongs in */
	const gchar *group; /* "Settings" or "Security"; "General" too in ap profiles */
	const gchar *key;   /* a name, or a prefix ending in '*' ("SAE-PT-Group*") */
	JoindProfileKeyType type;
	/* JOIND_PROFILE_KEY_WORDS: what one word is, for sentences ("a
	 * transition mode"), and the words allowed (NULL-terminated). */
	const gchar *what;
	const gchar *const *choices;
};

/* Declares the profile keys a plugin owns: keys is a table ended by an
 * entry whose group is NULL, valid as long as the process runs. The loader
 * declares a plugin's (profile_keys, joind-plugin.h) when it finds the
 * plugin; a plugin's rooms built without the loader (unit tests) call this
 * before the profiles that use them are read. Declaring a table again does
 * nothing. */
JOIND_EXPORT void joind_core_declare_profile_keys(JoindCore *core, const JoindProfileKey *keys);

G_END_DECLS
