/* joind-profile-check.h - checking a profile file as it is read: every
 * group and key of iwd.network(5), joind's own, and what each method
 * plugin checks of its keys. Problems refuse the file; warnings (unknown
 * keys and groups, ...) are reported and the file is used. Each note reads
 * "path:line: ...", and none quotes a secret. */
#pragma once

#include "joind-profile.h"

G_BEGIN_DECLS

typedef struct {
	JoindProfile *profile; /* for the method plugins' checks */
	const gchar *path;
	const gchar *contents; /* the text, for line numbers */
	GKeyFile *keyfile;
	GHashTable *pems; /* embedded PEM name -> text, or NULL */
	JoindProfileType type;
	GPtrArray *problems; /* notes: the file is refused */
	GPtrArray *warnings; /* notes: reported, the file is used */
} JoindProfileCheck;

void joind_profile_check_init(JoindProfileCheck *check);
void joind_profile_check_clear(JoindProfileCheck *check);

/* At the line of key (of [group] when key is NULL). Never pass a secret's
 * value as an argument. */
void joind_profile_check_fail(JoindProfileCheck *check, const gchar *group, const gchar *key,
                              const gchar *format, ...) G_GNUC_PRINTF(4, 5);
void joind_profile_check_warn(JoindProfileCheck *check, const gchar *group, const gchar *key,
                              const gchar *format, ...) G_GNUC_PRINTF(4, 5);
/* A value fit for a sentence: "(hidden)" for a secret's, cut when long. */
gchar *joind_profile_check_show(const gchar *key, const gchar *value);
/* key of group; NULL when absent or when its escapes are wrong (reported). */
gchar *joind_profile_check_get_string(JoindProfileCheck *check, const gchar *group,
                                      const gchar *key);

/* The groups, [Settings] and [Security] of any profile ([Match] is the
 * profile's own). */
void joind_profile_check_file(JoindProfileCheck *check);
/* An access point profile (ap/<ssid>.ap): only the keys plugins declared
 * for it, each refused by name otherwise, and a secret. */
void joind_profile_check_ap(JoindProfileCheck *check);
/* The notes, one per line, in the order of the file. */
gchar *joind_profile_check_join(GPtrArray *notes);

G_END_DECLS
