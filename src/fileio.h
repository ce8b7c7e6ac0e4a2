/* Reading a whole, bounded, regular file: what the run-file reader and the importer share. */
#ifndef KBENCH_FILEIO_H
#define KBENCH_FILEIO_H

#include <stddef.h>

/* Reads PATH (a regular file of 1 to MAX bytes) into a malloc'd, NUL-ended
 * buffer. Returns 0, or -errno with "<what>: <why>" in err. */
int file_read_all(const char *path, const char *what, size_t max, char **buf, size_t *len,
		  char *err, size_t errlen);

#endif
