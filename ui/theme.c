/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Colour roles and themes: what each UI element looks like in colour and without it. */
#include "theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Colour numbers as curses defines them (COLOR_BLACK..COLOR_WHITE); kept
 * here so this module and its tests need no curses. */
enum { C_DEF = -1, C_BLACK, C_RED, C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_WHITE };

const struct role_info theme_roles[ROLE_COUNT] = {
	[ROLE_NORMAL] = { "normal", 0, "", "" },
	[ROLE_TITLE] = { "title", THEME_REVERSE | THEME_BOLD, "", "" },
	[ROLE_HEADER] = { "header", THEME_BOLD, "", "" },
	[ROLE_BORDER] = { "border", 0, "", "" },
	[ROLE_DIM] = { "dim", 0, "", "" },
	[ROLE_SELECTED] = { "selected", THEME_REVERSE, ">", ">" },
	[ROLE_KEY] = { "key", THEME_BOLD, "", "" },
	[ROLE_KEYBAR] = { "keybar", THEME_REVERSE, "", "" },
	[ROLE_FASTER] = { "faster", THEME_BOLD, "▲", "+" },
	[ROLE_SLOWER] = { "slower", THEME_BOLD | THEME_UNDERLINE, "▼", "-" },
	[ROLE_NOISE] = { "noise", 0, "≈", "=" },
	[ROLE_RUNNING] = { "running", THEME_BOLD, "▶", ">" },
	[ROLE_DONE] = { "done", 0, "✓", "*" },
	[ROLE_FAILED] = { "failed", THEME_BOLD | THEME_UNDERLINE, "✗", "x" },
	[ROLE_BAR] = { "bar", 0, "", "" },
	[ROLE_SPARK] = { "spark", 0, "", "" },
	[ROLE_HOT] = { "hot", THEME_BOLD | THEME_REVERSE, "!", "!" },
	[ROLE_WARN] = { "warn", THEME_BOLD | THEME_REVERSE, "!", "!" },
	[ROLE_BIG] = { "big", THEME_BOLD, "", "" },
	[ROLE_REPLAY] = { "replay", THEME_REVERSE | THEME_BOLD, "", "" },
};

static void set(struct theme *t, enum role r, short fg, short bg, unsigned attrs)
{
	t->style[r] = (struct theme_style){ fg, bg, attrs };
}

void theme_builtin_default(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default");
	for (int r = 0; r < ROLE_COUNT; r++)
		set(t, r, C_DEF, C_DEF, 0);
	set(t, ROLE_TITLE, C_BLACK, C_CYAN, THEME_BOLD);
	set(t, ROLE_HEADER, C_CYAN, C_DEF, THEME_BOLD);
	set(t, ROLE_BORDER, C_BLUE, C_DEF, 0);
	set(t, ROLE_DIM, C_DEF, C_DEF, THEME_DIM);
	set(t, ROLE_SELECTED, C_BLACK, C_CYAN, 0);
	set(t, ROLE_KEY, C_BLACK, C_CYAN, 0);
	set(t, ROLE_KEYBAR, C_DEF, C_DEF, 0);
	set(t, ROLE_FASTER, C_GREEN, C_DEF, THEME_BOLD);
	set(t, ROLE_SLOWER, C_RED, C_DEF, THEME_BOLD);
	set(t, ROLE_NOISE, C_DEF, C_DEF, 0);
	set(t, ROLE_RUNNING, C_YELLOW, C_DEF, THEME_BOLD);
	set(t, ROLE_DONE, C_GREEN, C_DEF, 0);
	set(t, ROLE_FAILED, C_RED, C_DEF, THEME_BOLD);
	set(t, ROLE_BAR, C_CYAN, C_DEF, 0);
	set(t, ROLE_SPARK, C_MAGENTA, C_DEF, 0);
	set(t, ROLE_HOT, C_WHITE, C_RED, THEME_BOLD);
	set(t, ROLE_WARN, C_BLACK, C_YELLOW, 0);
	set(t, ROLE_BIG, C_CYAN, C_DEF, THEME_BOLD);
	set(t, ROLE_REPLAY, C_BLACK, C_MAGENTA, THEME_BOLD);
}

void theme_builtin_mono(struct theme *t)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "mono");
	t->mono = true;
	for (int r = 0; r < ROLE_COUNT; r++)
		set(t, r, C_DEF, C_DEF, theme_roles[r].mono);
}

static int colour_number(const char *w, short *out)
{
	static const char *const names[] = { "black", "red", "green", "yellow",
					     "blue", "magenta", "cyan", "white" };
	if (!strcmp(w, "default") || !strcmp(w, "none")) {
		*out = C_DEF;
		return 0;
	}
	bool bright = false;
	if (!strncmp(w, "bright", 6)) {
		bright = true;
		w += 6;
		if (*w == '-' || *w == '_')
			w++;
	}
	for (int i = 0; i < 8; i++)
		if (!strcmp(w, names[i])) {
			*out = (short)(i + (bright ? 8 : 0));
			return 0;
		}
	if (!bright && isdigit((unsigned char)*w)) {
		char *end;
		long v = strtol(w, &end, 10);
		if (!*end && v >= 0 && v <= 255) {
			*out = (short)v;
			return 0;
		}
	}
	return -1;
}

static int attr_bit(const char *w)
{
	if (!strcmp(w, "bold"))
		return THEME_BOLD;
	if (!strcmp(w, "reverse"))
		return THEME_REVERSE;
	if (!strcmp(w, "underline"))
		return THEME_UNDERLINE;
	if (!strcmp(w, "dim"))
		return THEME_DIM;
	return 0;
}

static int find_role(const char *name)
{
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!strcmp(theme_roles[r].name, name))
			return r;
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* One "role = value" line into t; returns 0 or fills err with what is wrong. */
static int parse_line(struct theme *t, char *line, char *err, size_t errlen)
{
	char *eq = strchr(line, '=');
	if (!eq) {
		snprintf(err, errlen, "expected 'role = colour', got '%s'", line);
		return -1;
	}
	*eq = '\0';
	char *key = trim(line), *val = trim(eq + 1);
	if (!strcmp(key, "base")) {
		char name[32];
		snprintf(name, sizeof name, "%s", t->name);
		if (!strcmp(val, "mono"))
			theme_builtin_mono(t);
		else if (!strcmp(val, "default"))
			theme_builtin_default(t);
		else {
			snprintf(err, errlen, "unknown base '%s' (mono or default)", val);
			return -1;
		}
		snprintf(t->name, sizeof t->name, "%s", name);
		return 0;
	}
	int r = find_role(key);
	if (r < 0) {
		snprintf(err, errlen, "unknown element '%s'", key);
		return -1;
	}
	struct theme_style st = { C_DEF, C_DEF, 0 };
	int ncolours = 0;
	bool want_bg = false;
	char *save = NULL;
	for (char *w = strtok_r(val, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		for (char *p = w; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		int bit = attr_bit(w);
		short c;
		if (bit) {
			st.attrs |= (unsigned)bit;
		} else if (!strcmp(w, "on")) {
			want_bg = true;
		} else if (colour_number(w, &c) == 0) {
			if (want_bg) {
				st.bg = c;
				want_bg = false;
			} else if (ncolours++ == 0) {
				st.fg = c;
			} else {
				snprintf(err, errlen, "two foreground colours for '%s' (use 'FG on BG')", key);
				return -1;
			}
		} else {
			snprintf(err, errlen, "'%s' is not a colour or attribute", w);
			return -1;
		}
	}
	if (want_bg) {
		snprintf(err, errlen, "'on' without a background colour for '%s'", key);
		return -1;
	}
	t->style[r] = st;
	return 0;
}

int theme_parse(struct theme *t, const char *name, const char *text, const char *file,
		char *err, size_t errlen)
{
	theme_builtin_default(t);
	snprintf(t->name, sizeof t->name, "%s", name ? name : "theme");
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		lineno++;
		if (n >= sizeof line) {
			snprintf(err, errlen, "%s:%d: line too long", file, lineno);
			theme_builtin_default(t);
			return -EINVAL;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *s = trim(line);
		if (!*s)
			continue;
		char why[200];
		if (parse_line(t, s, why, sizeof why) < 0) {
			snprintf(err, errlen, "%s:%d: %s", file, lineno, why);
			theme_builtin_default(t);
			return -EINVAL;
		}
	}
	return 0;
}

int theme_dirs(char dirs[][512], int max)
{
	int n = 0;
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	if (n < max && xdg && *xdg)
		snprintf(dirs[n++], 512, "%s/kbench/themes", xdg);
	else if (n < max && home && *home)
		snprintf(dirs[n++], 512, "%s/.config/kbench/themes", home);
	char exe[400];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			/* ./kbench and build/kbench both sit in or under the source tree */
			if (n < max)
				snprintf(dirs[n++], 512, "%s/themes", exe);
			if (n < max)
				snprintf(dirs[n++], 512, "%s/../themes", exe);
		}
	}
#ifdef KBENCH_DATADIR
	if (n < max)
		snprintf(dirs[n++], 512, "%s/themes", KBENCH_DATADIR);
#endif
	return n;
}

static char *read_small_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 65536, n;
	char *buf = malloc(cap + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, cap, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

int theme_load(struct theme *t, const char *name, char *err, size_t errlen)
{
	theme_builtin_default(t);
	if (!name || !*name || strchr(name, '/')) {
		snprintf(err, errlen, "no theme called '%s'", name ? name : "");
		return -ENOENT;
	}
	char dirs[6][512];
	int nd = theme_dirs(dirs, 6);
	for (int i = 0; i < nd; i++) {
		char path[600];
		snprintf(path, sizeof path, "%.511s/%.60s.theme", dirs[i], name);
		char *text = read_small_file(path);
		if (!text)
			continue;
		/* the file's own name first, so the line number survives a narrow message line */
		char *base = strrchr(path, '/');
		int rc = theme_parse(t, name, text, base ? base + 1 : path, err, errlen);
		free(text);
		if (rc < 0) {
			size_t n = strlen(err);
			snprintf(err + n, errlen - n, " (in %s)", dirs[i]);
		}
		return rc;
	}
	/* the two built-ins work even when no theme file is installed */
	if (!strcmp(name, "default"))
		return 0;
	if (!strcmp(name, "mono")) {
		theme_builtin_mono(t);
		return 0;
	}
	snprintf(err, errlen, "no theme called '%s' (looked in %s and the shipped themes)", name,
		 nd ? dirs[0] : "nowhere");
	return -ENOENT;
}

int theme_names(char names[][32], int max)
{
	static const char *const shipped[] = { "default", "projector", "light", "mono" };
	int n = 0;
	for (size_t i = 0; i < 4 && n < max; i++)
		snprintf(names[n++], 32, "%s", shipped[i]);
	char dirs[6][512];
	int nd = theme_dirs(dirs, 6);
	for (int d = 0; d < nd; d++) {
		DIR *dir = opendir(dirs[d]);
		if (!dir)
			continue;
		struct dirent *e;
		while ((e = readdir(dir)) && n < max) {
			size_t len = strlen(e->d_name);
			if (len < 7 || len > 30 || strcmp(e->d_name + len - 6, ".theme"))
				continue;
			char nm[32];
			snprintf(nm, sizeof nm, "%.*s", (int)(len - 6), e->d_name);
			bool seen = false;
			for (int k = 0; k < n; k++)
				seen |= !strcmp(names[k], nm);
			if (!seen)
				snprintf(names[n++], 32, "%s", nm);
		}
		closedir(dir);
	}
	return n;
}
