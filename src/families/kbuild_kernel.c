/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kbuild's kernel mode: what a Linux source (a tree or a tarball) must be, what building it needs, how long it takes. */
#include "kbuild.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const tar_suffixes[] = { ".tar.xz", ".tar.gz", ".tgz", ".tar.bz2", ".tar" };

bool kbuild_is_tarball(const char *path)
{
	size_t l = strlen(path);
	for (size_t i = 0; i < sizeof tar_suffixes / sizeof tar_suffixes[0]; i++) {
		size_t n = strlen(tar_suffixes[i]);
		if (l > n && !strcmp(path + l - n, tar_suffixes[i]))
			return true;
	}
	return false;
}

static bool exists_in(const char *dir, const char *name, bool want_dir)
{
	char p[PATH_MAX];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

int kbuild_check_source(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (!path[0]) {
		snprintf(err, errlen, "want a Linux source directory or tarball, not an empty path");
		return -1;
	}
	if (strlen(path) >= KBUILD_SOURCE_MAX - 64) {
		snprintf(err, errlen, "'%.40s...': a path of more than %d characters", path,
			 KBUILD_SOURCE_MAX - 64);
		return -1;
	}
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (!exists_in(path, "Makefile", false) || !exists_in(path, "Kconfig", false) ||
		    !exists_in(path, "arch", true) || !exists_in(path, "scripts", true)) {
			snprintf(err, errlen, "%.200s is not a Linux source tree (no Makefile, Kconfig, arch/ "
				 "and scripts/ at its top)", path);
			return -1;
		}
		/* The kernel refuses an out-of-tree build beside an in-tree one, and
		 * kbench never cleans a user's tree. */
		if (exists_in(path, ".config", false) || exists_in(path, "include/config", true)) {
			snprintf(err, errlen, "%.200s has been configured or built in place (.config): kbench "
				 "builds out of tree and leaves yours alone; give a clean tree (make mrproper "
				 "there) or a tarball", path);
			return -1;
		}
		if (access(path, R_OK | X_OK) != 0) {
			snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
			return -1;
		}
		return 0;
	}
	if (!S_ISREG(st.st_mode) || !kbuild_is_tarball(path)) {
		snprintf(err, errlen, "%.200s: want a Linux source directory or a .tar.xz, .tar.gz, .tgz, "
			 ".tar.bz2 or .tar file", path);
		return -1;
	}
	if (access(path, R_OK) != 0) {
		snprintf(err, errlen, "%.200s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static const char *const configs[] = { "tinyconfig", "defconfig", "allnoconfig" };

int kbuild_check_config(const char *target, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
		if (!strcmp(target, configs[i]))
			return 0;
	snprintf(err, errlen, "config '%.40s': want tinyconfig, defconfig or allnoconfig", target);
	return -1;
}

int kbuild_param_source(char *params, size_t len, const char *path)
{
	char abs[PATH_MAX];
	if (!realpath(path, abs))
		snprintf(abs, sizeof abs, "%s", path);
	size_t u = strlen(params);
	int n = snprintf(params + u, len - u, " source=");
	if (n < 0 || (size_t)n >= len - u)
		return -1;
	u += (size_t)n;
	for (const char *c = abs; *c; c++) {
		if (*c == ' ' || *c == '%' || *c == '\t' || *c == '\n')
			n = snprintf(params + u, len - u, "%%%02x", (unsigned char)*c);
		else
			n = snprintf(params + u, len - u, "%c", *c);
		if (n < 0 || (size_t)n >= len - u)
			return -1;
		u += (size_t)n;
	}
	return 0;
}

/* A program on $PATH. */
static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		char full[PATH_MAX];
		snprintf(full, sizeof full, "%.*s/%s", (int)l, l ? p : ".", prog);
		if (access(full, X_OK) == 0)
			return true;
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* Whether the compiler finds a header (libelf's gelf.h, OpenSSL's). */
static bool has_header(const char *cc, const char *header)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "echo '#include <%s>' | %s -E -x c - >/dev/null 2>&1", header, cc);
	int st = system(cmd);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int kbuild_preflight(const void *settings, char *err, size_t errlen)
{
	if (!settings)
		return 0;
	struct kbuild_opts o = *(const struct kbuild_opts *)settings;
	if (!o.source[0])
		return 0;
	if (kbuild_check_source(o.source, err, errlen) < 0)
		return -1;
	/* The tools a kernel build runs (Documentation/process/changes.rst),
	 * and what extracts the tarball, each with the Debian package. */
	struct {
		const char *prog, *pkg;
		bool want;
	} tools[] = {
		{ "make", "make", true },
		{ "gcc", "gcc", true },
		{ "flex", "flex", true },
		{ "bison", "bison", true },
		{ "bc", "bc", true },
		{ "tar", "tar", kbuild_is_tarball(o.source) },
		{ "xz", "xz-utils", strstr(o.source, ".tar.xz") != NULL },
		{ "gzip", "gzip", strstr(o.source, ".tar.gz") || strstr(o.source, ".tgz") },
		{ "bzip2", "bzip2", strstr(o.source, ".tar.bz2") != NULL },
	};
	char missing[160] = "", pkgs[160] = "";
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
		if (tools[i].want && !on_path(tools[i].prog)) {
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
				 missing[0] ? ", " : "", tools[i].prog);
			snprintf(pkgs + strlen(pkgs), sizeof pkgs - strlen(pkgs), " %s", tools[i].pkg);
		}
	if (!missing[0]) {
		/* objtool (x86) links libelf; defconfig's module signing, OpenSSL */
		struct utsname u;
		bool x86 = uname(&u) == 0 && (!strcmp(u.machine, "x86_64") || !strcmp(u.machine, "i686"));
		if (x86 && !has_header("gcc", "gelf.h")) {
			snprintf(missing, sizeof missing, "libelf's headers (gelf.h, for objtool)");
			snprintf(pkgs, sizeof pkgs, " libelf-dev");
		}
		if (!strcmp(o.config, "defconfig") && !has_header("gcc", "openssl/opensslv.h")) {
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%sOpenSSL's headers",
				 missing[0] ? ", " : "");
			snprintf(pkgs + strlen(pkgs), sizeof pkgs - strlen(pkgs), " libssl-dev");
		}
	}
	if (missing[0]) {
		snprintf(err, errlen, "building a kernel needs %s, not found (Debian:%s)", missing, pkgs);
		return -1;
	}
	return 0;
}

/* User + system seconds of one build after make clean: tinyconfig's
 * measured here (Linux 6.1.192, gcc 12.2, x86_64, a 2-CPU AMD EPYC VM:
 * 265 to 270 in four timed builds at -j1 and -j2 beside other processes),
 * defconfig's assumed (its objects are about six times as many, and
 * larger), not measured. */
#define TINYCONFIG_CPU_SECONDS 268.0
#define DEFCONFIG_CPU_SECONDS 3000.0

double kbuild_kernel_cpu_seconds(const char *config)
{
	return !strcmp(config, "defconfig") ? DEFCONFIG_CPU_SECONDS : TINYCONFIG_CPU_SECONDS;
}
