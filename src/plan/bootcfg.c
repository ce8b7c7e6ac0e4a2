/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Boot loader menus read as GRUB and systemd-boot read them: grub.cfg's menuentry and submenu blocks, Boot Loader Specification entries. */
#include "bootcfg.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

const char *bootcfg_loader_name(enum bootcfg_loader l)
{
	return l == BOOTCFG_GRUB ? "GRUB" : l == BOOTCFG_SDBOOT ? "systemd-boot" : "none";
}

void bootcfg_free(struct boot_menu *m)
{
	free(m->e);
	memset(m, 0, sizeof *m);
}

static struct boot_entry *add_entry(struct boot_menu *m)
{
	if (m->n == m->cap) {
		int cap = m->cap ? m->cap * 2 : 16;
		struct boot_entry *e = realloc(m->e, (size_t)cap * sizeof *e);
		if (!e)
			abort();
		m->e = e;
		m->cap = cap;
	}
	struct boot_entry *e = &m->e[m->n++];
	memset(e, 0, sizeof *e);
	return e;
}

/* Appends "a>b" path parts, cut at the buffer's end. */
static void path_join(char *dst, size_t size, const char *head, const char *tail)
{
	if (head && *head)
		snprintf(dst, size, "%s>%s", head, tail);
	else
		snprintf(dst, size, "%s", tail);
}

/* The release in an image's file name: vmlinuz-6.1.0-13-amd64, kernel-6.1.31-gentoo,
 * after a GRUB device ("(hd0,gpt2)/vmlinuz-..." or "($root)/..."). "" when the
 * name holds none (vmlinuz-linux, a rescue image). */
static void release_of_image(const char *path, char *rel, size_t size, bool *rescue)
{
	rel[0] = 0;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	static const char *const prefixes[] = { "vmlinuz-", "vmlinux-", "kernel-", "bzImage-", "Image-", "linux-" };
	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t n = strlen(prefixes[i]);
		if (strncmp(base, prefixes[i], n) == 0) {
			base += n;
			if (strncmp(base, "0-rescue", 8) == 0) {
				*rescue = true;
				return;
			}
			if (isdigit((unsigned char)*base))
				snprintf(rel, size, "%.*s", (int)strcspn(base, " \t"), base);
			return;
		}
	}
}

static bool says_recovery(const char *s)
{
	return strcasestr(s, "recovery") || strcasestr(s, "rescue") || strcasestr(s, "fallback");
}

/* ---- grub.cfg ---- */

#define GRUB_WORD 512
#define GRUB_WORDS 48
#define GRUB_DEPTH 16

/* One command of the script: its words, and whether each was written bare
 * (unquoted), so that a literal "{" or "$menuentry_id_option" is known. */
struct grub_cmd {
	int n;
	char w[GRUB_WORDS][GRUB_WORD];
	bool bare[GRUB_WORDS];
};

struct grub_block {
	enum { BLK_OTHER, BLK_MENU, BLK_ENTRY } kind;
	char title[256], id[256];
	int entry; /* BLK_ENTRY: its index in the menu */
};

struct grub_parse {
	struct boot_menu *m;
	struct grub_block stack[GRUB_DEPTH];
	int depth;  /* blocks open; those past GRUB_DEPTH are counted, not kept */
};

/* The title and the id of a menuentry or submenu command's words. */
static void entry_names(const struct grub_cmd *c, char *title, size_t tsize, char *id, size_t isize)
{
	title[0] = id[0] = 0;
	bool have_title = false;
	for (int i = 1; i < c->n; i++) {
		const char *w = c->w[i];
		if (c->bare[i] && !strcmp(w, "{"))
			break;
		if (c->bare[i] && (!strcmp(w, "$menuentry_id_option") || !strcmp(w, "${menuentry_id_option}") ||
				   !strcmp(w, "--id"))) {
			if (i + 1 < c->n)
				snprintf(id, isize, "%s", c->w[++i]);
			continue;
		}
		if (!strncmp(w, "--id=", 5)) {
			snprintf(id, isize, "%s", w + 5);
			continue;
		}
		if (!strncmp(w, "--", 2)) {
			/* options with a value of their own word */
			if (!strchr(w, '=') && (!strcmp(w, "--class") || !strcmp(w, "--users") || !strcmp(w, "--hotkey") ||
						!strcmp(w, "--source")) && i + 1 < c->n)
				i++;
			continue;
		}
		if (!have_title) {
			snprintf(title, tsize, "%s", w);
			have_title = true;
		}
	}
}

static void grub_command(struct grub_parse *p, const struct grub_cmd *c)
{
	if (c->n == 0)
		return;
	const char *cmd = c->w[0];
	bool opens = c->bare[c->n - 1] && !strcmp(c->w[c->n - 1], "{");
	if (c->bare[0] && !strcmp(cmd, "}")) {
		if (p->depth > 0)
			p->depth--;
		return;
	}
	if (!strcmp(cmd, "blscfg") || !strcmp(cmd, "bls_import"))
		p->m->bls = true;
	struct grub_block *top = p->depth > 0 && p->depth <= GRUB_DEPTH ? &p->stack[p->depth - 1] : NULL;
	if (top && top->kind == BLK_ENTRY && !opens &&
	    (!strcmp(cmd, "linux") || !strcmp(cmd, "linuxefi") || !strcmp(cmd, "linux16") || !strcmp(cmd, "kernel"))) {
		struct boot_entry *e = &p->m->e[top->entry];
		int a = 1;
		while (a < c->n && !strncmp(c->w[a], "--", 2))
			a++;
		if (a < c->n && !e->kernel[0]) {
			const char *k = c->w[a];
			/* a GRUB device before the path: (hd0,gpt2)/vmlinuz, ($root)/vmlinuz */
			if (*k == '(' && strchr(k, ')'))
				k = strchr(k, ')') + 1;
			snprintf(e->kernel, sizeof e->kernel, "%s", k);
			bool rescue = false;
			release_of_image(k, e->release, sizeof e->release, &rescue);
			e->recovery |= rescue;
		}
		return;
	}
	if (!opens)
		return;
	/* a block: a menu, an entry, or anything else (function, ...) */
	struct grub_block b = { .kind = BLK_OTHER };
	bool inside_entry = false;
	for (int i = 0; i < p->depth && i < GRUB_DEPTH; i++)
		inside_entry |= p->stack[i].kind == BLK_ENTRY || p->stack[i].kind == BLK_OTHER;
	if (!inside_entry && (!strcmp(cmd, "menuentry") || !strcmp(cmd, "submenu"))) {
		char title[256], id[256];
		entry_names(c, title, sizeof title, id, sizeof id);
		path_join(b.title, sizeof b.title, top ? top->title : "", title);
		/* an entry without an id is named by its title in the id path, as GRUB's default is */
		path_join(b.id, sizeof b.id, top ? top->id : "", id[0] ? id : title);
		if (!strcmp(cmd, "submenu")) {
			b.kind = BLK_MENU;
		} else {
			b.kind = BLK_ENTRY;
			b.entry = p->m->n;
			struct boot_entry *e = add_entry(p->m);
			snprintf(e->title, sizeof e->title, "%s", b.title);
			snprintf(e->id, sizeof e->id, "%s", b.id);
			e->recovery = says_recovery(title);
		}
	}
	if (p->depth < GRUB_DEPTH)
		p->stack[p->depth] = b;
	p->depth++;
}

int bootcfg_parse_grub(struct boot_menu *m, const char *text, size_t len)
{
	struct grub_parse p = { .m = m };
	struct grub_cmd *c = calloc(1, sizeof *c);
	if (!c)
		abort();
	int before = m->n;
	size_t i = 0, wl = 0;
	bool in_word = false, quoted = false, comment = false;
	char quote = 0;
	char *w = c->w[0];
	for (; i <= len; i++) {
		char ch = i < len ? text[i] : '\n';
		if (ch == 0)
			ch = ' '; /* a NUL in a text file is a separator, not its end */
		if (comment) {
			if (ch == '\n')
				comment = false;
			else
				continue;
		}
		if (quote) {
			if (ch == quote) {
				quote = 0;
			} else if (quote == '"' && ch == '\\' && i + 1 < len &&
				   strchr("\"\\$\n", text[i + 1])) {
				if (text[++i] != '\n' && wl + 1 < GRUB_WORD)
					w[wl++] = text[i];
			} else if (wl + 1 < GRUB_WORD) {
				w[wl++] = ch;
			}
			continue;
		}
		bool sep = ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == ';';
		if (!sep) {
			if (!in_word && ch == '#') {
				comment = true;
				continue;
			}
			in_word = true;
			if (ch == '\'' || ch == '"') {
				quote = ch;
				quoted = true;
			} else if (ch == '\\' && i + 1 < len) {
				if (text[++i] != '\n' && wl + 1 < GRUB_WORD)
					w[wl++] = text[i];
			} else if (wl + 1 < GRUB_WORD) {
				w[wl++] = ch;
			}
			continue;
		}
		if (in_word) {
			w[wl] = 0;
			c->bare[c->n] = !quoted;
			if (c->n + 1 < GRUB_WORDS)
				c->n++;
			w = c->w[c->n];
			wl = 0;
			in_word = quoted = false;
		}
		/* A command ends at a newline or ';', and after "{" or before "}" too:
		 * "menuentry 'x' { linux /v }" on one line is three commands. */
		bool brace = c->n > 0 && c->bare[c->n - 1] && (!strcmp(c->w[c->n - 1], "{") || !strcmp(c->w[c->n - 1], "}"));
		if (ch == '\n' || ch == ';' || brace) {
			if (brace && c->n > 1 && !strcmp(c->w[c->n - 1], "}")) {
				/* "... }": the words before it, then the close */
				c->n--;
				grub_command(&p, c);
				snprintf(c->w[0], GRUB_WORD, "}");
				c->bare[0] = true;
				c->n = 1;
			}
			grub_command(&p, c);
			c->n = 0;
			w = c->w[0];
		}
	}
	free(c);
	return m->n - before;
}

/* ---- Boot Loader Specification entries ---- */

int bootcfg_parse_bls(struct boot_menu *m, const char *name, const char *text, size_t len, bool keep_suffix)
{
	struct boot_entry e = { .id = "" };
	char version[96] = "";
	bool kernel = false;
	size_t nl = strlen(name);
	if (!keep_suffix && nl > 5 && !strcmp(name + nl - 5, ".conf"))
		nl -= 5;
	snprintf(e.id, sizeof e.id, "%.*s", (int)nl, name);
	for (size_t i = 0; i < len;) {
		size_t end = i;
		while (end < len && text[end] != '\n')
			end++;
		size_t k = i;
		while (k < end && (text[k] == ' ' || text[k] == '\t'))
			k++;
		size_t ks = k;
		while (k < end && text[k] != ' ' && text[k] != '\t')
			k++;
		size_t klen = k - ks;
		while (k < end && (text[k] == ' ' || text[k] == '\t'))
			k++;
		size_t ve = end;
		while (ve > k && (text[ve - 1] == ' ' || text[ve - 1] == '\t' || text[ve - 1] == '\r'))
			ve--;
		int vlen = (int)(ve - k);
		const char *v = text + k;
		if (klen && text[ks] != '#') {
			if (klen == 5 && !strncmp(text + ks, "title", 5)) {
				snprintf(e.title, sizeof e.title, "%.*s", vlen, v);
			} else if (klen == 7 && !strncmp(text + ks, "version", 7)) {
				snprintf(version, sizeof version, "%.*s", vlen, v);
			} else if ((klen == 5 && !strncmp(text + ks, "linux", 5)) ||
				   (klen == 3 && !strncmp(text + ks, "efi", 3))) {
				if (!kernel)
					snprintf(e.kernel, sizeof e.kernel, "%.*s", vlen, v);
				kernel = true;
			} else if (klen == 6 && !strncmp(text + ks, "initrd", 6)) {
				char initrd[256];
				snprintf(initrd, sizeof initrd, "%.*s", vlen, v);
				e.recovery |= says_recovery(initrd);
			}
		}
		i = end + 1;
	}
	if (!kernel)
		return 0;
	if (!e.title[0])
		snprintf(e.title, sizeof e.title, "%s", e.id);
	bool rescue = false;
	release_of_image(e.kernel, e.release, sizeof e.release, &rescue);
	if (version[0] && strncmp(version, "0-rescue", 8))
		snprintf(e.release, sizeof e.release, "%s", version);
	e.recovery |= rescue || says_recovery(e.title) || !strncmp(version, "0-rescue", 8);
	*add_entry(m) = e;
	return 1;
}

/* ---- this machine ---- */

int bootcfg_image_release(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	unsigned char hdr[0x210];
	char ver[128];
	int rc = -1;
	if (pread(fd, hdr, sizeof hdr, 0) == (ssize_t)sizeof hdr && !memcmp(hdr + 0x202, "HdrS", 4)) {
		unsigned off = hdr[0x20e] | (unsigned)hdr[0x20f] << 8;
		ssize_t n = off ? pread(fd, ver, sizeof ver - 1, (off_t)off + 0x200) : -1;
		if (n > 0) {
			ver[n] = 0;
			size_t w = strcspn(ver, " \t\n");
			if (w > 0 && isdigit((unsigned char)ver[0])) {
				snprintf(buf, size, "%.*s", (int)w, ver);
				rc = 0;
			}
		}
	}
	close(fd);
	return rc;
}

/* Whether the firmware says systemd-boot started this boot: its LoaderInfo
 * variable (4 bytes of attributes, then UTF-16 text "systemd-boot 255.2-1"). */
static bool started_by_sdboot(const char *root)
{
	char path[4096], raw[128];
	snprintf(path, sizeof path, "%s/sys/firmware/efi/efivars/LoaderInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f", root);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, raw, sizeof raw);
	close(fd);
	char text[64];
	size_t t = 0;
	for (ssize_t i = 4; i + 1 < n && t + 1 < sizeof text && raw[i]; i += 2)
		text[t++] = raw[i];
	text[t] = 0;
	return !strncmp(text, "systemd-boot", 12);
}

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct boot_entry *)a)->id, ((const struct boot_entry *)b)->id);
}

/* Every NAME.conf in dir as BLS entries, in the order of their names. How many. */
static int read_bls_dir(struct boot_menu *m, const char *dir, bool keep_suffix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int before = m->n;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t nl = strlen(de->d_name);
		if (nl < 6 || strcmp(de->d_name + nl - 5, ".conf") || de->d_name[0] == '.')
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		char *text = NULL, err[256];
		size_t len = 0;
		if (file_read_all(path, "boot entry", 1 << 20, &text, &len, err, sizeof err) == 0) {
			bootcfg_parse_bls(m, de->d_name, text, len, keep_suffix);
			free(text);
		}
	}
	closedir(d);
	qsort(m->e + before, (size_t)(m->n - before), sizeof *m->e, by_id);
	return m->n - before;
}

/* An entry whose image names no release (Arch's /vmlinuz-linux): ask the
 * image, which lies under the partition the entries' directory is on. */
static void releases_from_images(struct boot_menu *m, int from, const char *part)
{
	for (int i = from; i < m->n; i++) {
		struct boot_entry *e = &m->e[i];
		if (e->release[0] || !e->kernel[0])
			continue;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", part, e->kernel[0] == '/' ? e->kernel + 1 : e->kernel);
		bootcfg_image_release(path, e->release, sizeof e->release);
	}
}

int bootcfg_read(struct boot_menu *m, const char *root, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	if (!root)
		root = "";
	static const char *const grub_cfgs[] = { "/boot/grub/grub.cfg", "/boot/grub2/grub.cfg" };
	static const char *const esps[] = { "/boot", "/efi", "/boot/efi" };
	char path[4096];
	const char *grub = NULL;
	for (size_t i = 0; i < sizeof grub_cfgs / sizeof grub_cfgs[0] && !grub; i++) {
		snprintf(path, sizeof path, "%s%s", root, grub_cfgs[i]);
		if (access(path, F_OK) == 0)
			grub = grub_cfgs[i];
	}
	bool sdboot = started_by_sdboot(root);
	if (sdboot || !grub) {
		for (size_t i = 0; i < sizeof esps / sizeof esps[0]; i++) {
			char part[4096];
			snprintf(part, sizeof part, "%s%s", root, esps[i]);
			snprintf(path, sizeof path, "%s/loader/entries", part);
			int from = m->n;
			if (read_bls_dir(m, path, true) > 0) {
				m->loader = BOOTCFG_SDBOOT;
				snprintf(m->config, sizeof m->config, "%s/loader/entries", esps[i]);
				releases_from_images(m, from, part);
				return 0;
			}
		}
	}
	if (grub) {
		char *text = NULL;
		size_t len = 0;
		snprintf(path, sizeof path, "%s%s", root, grub);
		char why[512];
		int rc = file_read_all(path, grub, 16 << 20, &text, &len, why, sizeof why);
		if (rc < 0) {
			snprintf(err, errlen, "%s%s", why, rc == -EACCES ? " (reading the boot menu needs root here)" : "");
			return -1;
		}
		m->loader = BOOTCFG_GRUB;
		snprintf(m->config, sizeof m->config, "%s", grub);
		bootcfg_parse_grub(m, text, len);
		free(text);
		if (m->bls) {
			snprintf(path, sizeof path, "%s/boot/loader/entries", root);
			int from = m->n;
			read_bls_dir(m, path, false);
			snprintf(path, sizeof path, "%s/boot", root);
			releases_from_images(m, from, path);
		}
		return 0;
	}
	snprintf(err, errlen, "no boot loader configuration found (no /boot/grub/grub.cfg, /boot/grub2/grub.cfg, "
			      "nor loader/entries in /boot, /efi or /boot/efi)");
	return -1;
}

static bool names_release(const struct boot_entry *e, const char *rel)
{
	const char *p = strstr(e->id, rel);
	size_t n = strlen(rel);
	/* a whole part of the id: 6.1.0-13 must not match 6.1.0-13-amd64's neighbour 6.1.0-1 */
	return p && (p == e->id || !isalnum((unsigned char)p[-1])) &&
	       (p[n] == 0 || (!isalnum((unsigned char)p[n]) && p[n] != '.'));
}

const struct boot_entry *bootcfg_find(const struct boot_menu *m, const char *want, char *why, size_t whylen)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].id, want) || !strcmp(m->e[i].title, want))
			return &m->e[i];
	const struct boot_entry *best = NULL;
	int best_rank = -1;
	for (int i = 0; i < m->n; i++) {
		const struct boot_entry *e = &m->e[i];
		if (strcmp(e->release, want))
			continue;
		int rank = (e->recovery ? 0 : 2) + (names_release(e, want) ? 1 : 0);
		if (rank > best_rank) {
			best = e;
			best_rank = rank;
		}
	}
	if (!best)
		snprintf(why, whylen, "no entry of %s's menu (%s) boots '%s'%s", bootcfg_loader_name(m->loader),
			 m->config[0] ? m->config : "none read", want,
			 m->n ? "" : ": the menu has no entries");
	return best;
}

static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		return false;
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		char full[4096];
		snprintf(full, sizeof full, "%.*s/%s", (int)n, p, name);
		if (n && access(full, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

void bootcfg_oneshot_argv(const struct boot_menu *m, const struct boot_entry *e, const char *argv[4])
{
	if (m->loader == BOOTCFG_SDBOOT) {
		argv[0] = "bootctl";
		argv[1] = "set-oneshot";
		argv[2] = e->id;
	} else {
		argv[0] = !on_path("grub-reboot") && on_path("grub2-reboot") ? "grub2-reboot" : "grub-reboot";
		argv[1] = e->id;
		argv[2] = NULL;
	}
	argv[3] = NULL;
}
