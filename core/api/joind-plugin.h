/* joind-plugin.h - the descriptor every plugin exports.
 *
 * A plugin is a shared object exporting exactly one symbol,
 * JOIND_PLUGIN_SYMBOL, a constant JoindPluginDescriptor. The loader reads
 * abi_major and struct_size before anything else and refuses the module if
 * either does not match, so the layout after those two fields may change
 * with the major number.
 *
 * What a plugin provides (its EAP methods, the main.conf keys it reads) is
 * data in the descriptor, so that a manifest generated from the built module
 * (joind-<name>.plugin beside joind-<name>.so) can tell the daemon the same
 * without opening the module: plugins/README.md.
 */
#pragma once

#include <glib.h>

#include "joind-export.h"

G_BEGIN_DECLS

typedef struct _JoindCore JoindCore;
typedef struct _JoindEapMethodOps JoindEapMethodOps; /* joind-eap.h */
typedef struct _JoindConfigKey JoindConfigKey;
typedef struct _JoindProfileKey JoindProfileKey; /* joind-profile.h */

/* Bump the major number for any incompatible change to core/api/. */
#define JOIND_PLUGIN_ABI_MAJOR 3u
/* Bump the minor number when adding to core/api/ compatibly. */
#define JOIND_PLUGIN_ABI_MINOR 2u

#define JOIND_PLUGIN_SYMBOL "joind_plugin_descriptor"

/* When a plugin with a manifest is opened (plugins/README.md); without
 * either flag, at start (or, for EAP methods, on first use). ABI 2.2. */
typedef enum {
	JOIND_PLUGIN_FLAG_NONE = 0,
	/* Opened once the machine has a radio: a wiphy in
	 * /sys/class/ieee80211 at start, or the kernel announcing one. */
	JOIND_PLUGIN_FLAG_OPEN_WITH_RADIO = 1 << 0,
	/* Opened only when main.conf turns its first key, a bool, on. */
	JOIND_PLUGIN_FLAG_OPEN_WHEN_ENABLED = 1 << 1,
} JoindPluginFlags;

typedef struct {
	guint32 abi_major;   /* JOIND_PLUGIN_ABI_MAJOR; checked first */
	guint32 struct_size; /* sizeof (JoindPluginDescriptor); checked second */
	guint32 abi_minor;
	const gchar *name; /* short, unique: "ethernet-8021x", "eap-tls" */
	const gchar *description;
	gint priority; /* lower runs init first: EAP methods before devices */
	guint32 flags; /* JoindPluginFlags */
	gboolean (*init)(JoindCore *core, GError **error);
	void (*shutdown)(JoindCore *core);
	/* ABI 2.0: the EAP methods init() registers (NULL-terminated, or NULL),
	 * and the main.conf keys the plugin reads (a table ended by an entry
	 * whose group is NULL, or NULL), declared by the loader before init(). A
	 * plugin that provides EAP methods is opened only when a profile first
	 * names one of its methods; its main.conf keys (ABI 3.0) are declared
	 * from its manifest meanwhile. */
	const JoindEapMethodOps *const *eap_methods;
	const JoindConfigKey *config_keys;
	/* ABI 3.0: the profile keys the plugin owns (a table ended by an
	 * entry whose group is NULL, or NULL), declared by the loader when it
	 * finds the plugin, so that profiles are checked with them whether or
	 * not the module is ever opened (joind-profile.h). */
	const JoindProfileKey *profile_keys;
} JoindPluginDescriptor;

/* ---- main.conf settings a plugin reads (ABI 1.4) ---- */

typedef enum {
	JOIND_CONFIG_BOOL,   /* true or false */
	JOIND_CONFIG_INT,    /* a whole number from min to max */
	JOIND_CONFIG_STRING, /* one of choices, or any text when choices is NULL */
	JOIND_CONFIG_STRV,   /* comma-separated words */
	/* the last value, which name tables are checked against */
	JOIND_CONFIG_LAST = JOIND_CONFIG_STRV,
} JoindConfigType;

struct _JoindConfigKey {
	const gchar *group;
	const gchar *key;
	JoindConfigType type;
	const gchar *default_value; /* as it would be written in main.conf */
	gint min;                   /* JOIND_CONFIG_INT only */
	gint max;
	const gchar *const *choices; /* JOIND_CONFIG_STRING: allowed values, or NULL */
};

/* Declares the main.conf keys a plugin reads: keys is a table ended by an
 * entry whose group is NULL, valid as long as the process runs (a static
 * table of the module). The loader calls it with the descriptor's
 * config_keys before init(); a plugin's own rooms (and tests that build
 * them without the loader) call it before reading any of them with
 * joind_core_get_config_*(). main.conf's values for these keys are checked at
 * once: a bad one is reported with the file and line and the default is used.
 * Keys and groups of main.conf that no plugin declares are reported once
 * every plugin has started. JOIND_ERROR_BUSY when a key is declared already
 * (two plugins may share a group, never a key). */
JOIND_EXPORT gboolean joind_core_declare_config(JoindCore *core, const JoindConfigKey *keys,
                                                GError **error);

/* Load order bands: methods must exist before devices start using them. */
#define JOIND_PLUGIN_PRIORITY_EAP_METHOD 10
#define JOIND_PLUGIN_PRIORITY_DEVICE     50

/* Defines the one exported symbol of a plugin module; eap_methods_,
 * config_keys_, profile_keys_ and flags_ (JoindPluginFlags) as in the
 * descriptor. */
#define JOIND_PLUGIN_DEFINE_KEYS(name_, description_, priority_, init_, shutdown_, eap_methods_, \
                                 config_keys_, profile_keys_, flags_)                            \
	__attribute__((visibility(                                                               \
	        "default"))) extern const JoindPluginDescriptor joind_plugin_descriptor;         \
	const JoindPluginDescriptor joind_plugin_descriptor = {                                  \
	        .abi_major = JOIND_PLUGIN_ABI_MAJOR,                                             \
	        .struct_size = sizeof(JoindPluginDescriptor),                                    \
	        .abi_minor = JOIND_PLUGIN_ABI_MINOR,                                             \
	        .name = (name_),                                                                 \
	        .description = (description_),                                                   \
	        .priority = (priority_),                                                         \
	        .flags = (flags_),                                                               \
	        .init = (init_),                                                                 \
	        .shutdown = (shutdown_),                                                         \
	        .eap_methods = (eap_methods_),                                                   \
	        .config_keys = (config_keys_),                                                   \
	        .profile_keys = (profile_keys_),                                                 \
	}

/* The same, for a plugin that owns no profile key. */
#define JOIND_PLUGIN_DEFINE_FLAGS(name_, description_, priority_, init_, shutdown_, eap_methods_, \
                                  config_keys_, flags_)                                           \
	JOIND_PLUGIN_DEFINE_KEYS(name_, description_, priority_, init_, shutdown_, eap_methods_,  \
	                         config_keys_, NULL, flags_)

/* The same, opened at start (or, for EAP methods, on first use). */
#define JOIND_PLUGIN_DEFINE_FULL(name_, description_, priority_, init_, shutdown_, eap_methods_,  \
                                 config_keys_)                                                    \
	JOIND_PLUGIN_DEFINE_FLAGS(name_, description_, priority_, init_, shutdown_, eap_methods_, \
	                          config_keys_, 0)

/* A plugin that provides no EAP method and reads no main.conf key. */
#define JOIND_PLUGIN_DEFINE(name_, description_, priority_, init_, shutdown_) \
	JOIND_PLUGIN_DEFINE_FULL(name_, description_, priority_, init_, shutdown_, NULL, NULL)

G_END_DECLS
