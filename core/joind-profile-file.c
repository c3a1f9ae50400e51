/* joind-profile-file.c - reading a profile file safely: regular files
 * only, bounded in size, complete, and wiped from memory after use (they
 * hold secrets). */
#include "joind-profile-store-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "joind-secret.h"

gboolean
joind_profile_file_read(const gchar *path, GBytes **contents, mode_t *mode, GError **error)
{
	return joind_profile_file_read_at(AT_FDCWD, path, path, contents, mode, error);
}

/* Reads a regular file without blocking on FIFOs or devices dropped into
 * the directory. A missing file is G_FILE_ERROR_NOENT. */
gboolean
joind_profile_file_read_at(int dirfd, const gchar *name, const gchar *path, GBytes **contents,
                           mode_t *mode, GError **error)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	struct stat st = {0};
	guint8 *buf = NULL;
	gsize len = 0;
	int saved_errno = 0;

	if (fd < 0 || fstat(fd, &st) < 0) {
		saved_errno = errno;
	} else if (!S_ISREG(st.st_mode) || st.st_size > JOIND_PROFILE_MAX_SIZE) {
		saved_errno = S_ISREG(st.st_mode) ? EFBIG : EINVAL;
	} else {
		buf = g_malloc((gsize)st.st_size + 1);
		while (len <= (gsize)st.st_size) {
			gssize n = read(fd, buf + len, (gsize)st.st_size + 1 - len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				saved_errno = n < 0 ? errno : 0;
				break;
			}
			len += (gsize)n;
			/* A regular file reads short only at its end: no second
			 * read() to hear that (one system call per file less). */
			if (len <= (gsize)st.st_size)
				break;
		}
		/* The file grew while we read: a writer is at work; its
		 * close (or its going quiet) will bring us back. */
		if (saved_errno == 0 && len > (gsize)st.st_size)
			saved_errno = EAGAIN;
	}
	if (fd >= 0)
		g_close(fd, NULL);
	if (saved_errno != 0) {
		if (buf != NULL)
			joind_secret_clear(buf, len);
		g_free(buf);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(saved_errno), "%s: %s",
		            path,
		            saved_errno == EINVAL  ? "not a regular file"
		            : saved_errno == EFBIG ? "larger than a profile can be (1 MiB)"
		                                   : g_strerror(saved_errno));
		return FALSE;
	}
	*mode = st.st_mode;
	*contents = g_bytes_new_with_free_func(buf, len, (GDestroyNotify)g_free, buf);
	return TRUE;
}

void
joind_profile_bytes_wipe(GBytes *bytes)
{
	gsize len = 0;
	gconstpointer data = g_bytes_get_data(bytes, &len);

	if (data != NULL)
		joind_secret_clear((gpointer)data, len);
	g_bytes_unref(bytes);
}
