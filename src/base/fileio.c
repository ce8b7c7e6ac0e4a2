/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a whole, bounded, regular file (the run-file reader, the importer), and writing one atomically (reports). */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int file_read_all(const char *path, const char *what, size_t max, char **buf, size_t *len,
		  char *err, size_t errlen)
{
	*buf = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", what, strerror(e));
		return -e;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", what);
		return -EINVAL;
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		snprintf(err, errlen, "%s: too large (%lld bytes, at most %zu)", what,
			 (long long)st.st_size, max);
		return -EFBIG;
	}
	size_t size = (size_t)st.st_size, got = 0;
	char *b = malloc(size + 1);
	if (!b) {
		close(fd);
		snprintf(err, errlen, "%s: out of memory", what);
		return -ENOMEM;
	}
	while (got < size) {
		ssize_t n = read(fd, b + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (got == 0) {
		free(b);
		snprintf(err, errlen, "%s: empty file", what);
		return -EINVAL;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;
}

int file_write_atomic(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err,
		      size_t errlen)
{
	char dir[4096], base[4096], tmp[8300];
	snprintf(dir, sizeof dir, "%s", path);
	snprintf(base, sizeof base, "%s", path);
	const char *d = dirname(dir), *b = basename(base);
	if (!*path || !*b || !strcmp(b, "/") || !strcmp(b, ".") || !strcmp(b, "..")) {
		snprintf(err, errlen, "cannot write '%s': not a file name", path);
		return -EINVAL;
	}
	snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", d, b);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	/* mkstemp makes it 0600; a report is as readable as any file the user makes */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	FILE *f = fdopen(fd, "w");
	int e = 0;
	if (!f) {
		e = errno;
		close(fd);
	} else {
		errno = 0;
		if (fn(f, arg) < 0 || fflush(f) != 0 || ferror(f))
			e = errno ? errno : EIO;
		if (!e && fsync(fileno(f)) < 0)
			e = errno;
		if (fclose(f) != 0 && !e)
			e = errno;
	}
	if (!e && rename(tmp, path) < 0)
		e = errno;
	if (e) {
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}
