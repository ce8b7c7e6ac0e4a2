/* Reading a whole, bounded, regular file: what the run-file reader and the importer share. */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
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
