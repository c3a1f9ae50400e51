/* joind-file.c - atomic writes into the state directory. */
#include "joind-file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "joind-error.h"

static gboolean
write_all(int fd, const gchar *data, gsize len)
{
	while (len > 0) {
		gssize n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return FALSE;
		data += n;
		len -= (gsize)n;
	}
	return TRUE;
}

void
joind_file_sync_dir(const gchar *dir_path)
{
	int fd = g_open(dir_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);

	if (fd < 0)
		return;
	if (fsync(fd) < 0)
		g_debug("fsync(%s): %s", dir_path, g_strerror(errno));
	g_close(fd, NULL);
}

/* A temporary is ".<name>" TEMP_MARK "XXXXXX": no name an administrator
 * gives a file of theirs, so that one left by a kill is known for ours. */
#define TEMP_MARK ".joind-tmp-"

/* Temporary file in the same directory (so rename is atomic). */
gboolean
joind_file_write_atomically(const gchar *path, const gchar *data, gsize len, GError **error)
{
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autofree gchar *base = g_path_get_basename(path);
	g_autofree gchar *tmp = g_strdup_printf("%s/.%s" TEMP_MARK "XXXXXX", dir, base);
	int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0600);
	int saved_errno;

	if (fd < 0) {
		saved_errno = errno;
		goto fail;
	}
	if (fchmod(fd, 0600) < 0 || !write_all(fd, data, len) || fsync(fd) < 0) {
		saved_errno = errno;
		g_close(fd, NULL);
		goto fail_unlink;
	}
	if (!g_close(fd, NULL) || rename(tmp, path) < 0) {
		saved_errno = errno;
		goto fail_unlink;
	}
	joind_file_sync_dir(dir);
	return TRUE;

/* cleanup: the temporary file, then the error for the caller */
fail_unlink:
	g_unlink(tmp);
/* cleanup: nothing to release, only the error to set */
fail:
	g_set_error(error, JOIND_ERROR, JOIND_ERROR_FAILED, "Could not write %s: %s", path,
	            g_strerror(saved_errno != 0 ? saved_errno : EIO));
	return FALSE;
}

guint
joind_file_remove_stale(const gchar *dir_path)
{
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	const gchar *name;
	guint removed = 0;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		const gchar *mark = g_strrstr(name, TEMP_MARK);
		g_autofree gchar *path = NULL;

		if (name[0] != '.' || mark == NULL || strlen(mark) != strlen(TEMP_MARK) + 6)
			continue;
		path = g_build_filename(dir_path, name, NULL);
		if (g_unlink(path) == 0)
			removed++;
		else
			g_warning("Could not remove %s, left by an interrupted write: %s", path,
			          g_strerror(errno));
	}
	if (removed > 0)
		g_message("%s: removed %u temporary file(s) an interrupted write left", dir_path,
		          removed);
	return removed;
}
