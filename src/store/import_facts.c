/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The header facts of an import (System:, OS:, CPU 0:, Storage:, ...), in a log or around a table. */
#include "import_priv.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "run.h"

/* The value after `key` up to the end of the line, or in collapsed text up
 * to the next key that UnixBench prints after it. */
static bool header_value(const char *p, const char *end, const char *key, char *out, size_t size)
{
	static const char *const stops[] = { " OS: ", " Machine: ", " Language: ", " CPU 0:",
		" Graphics: ", " Kernel: ", "-----", "Benchmark Run:", " Uptime: ", " Storage: ",
		" Kernel settings: ", NULL };
	const char *k = import_find(p, end, key);
	while (k && k > p && !import_is_sp(k[-1]) && k[-1] != '\n')
		k = import_find(k + 1, end, key);
	if (!k)
		return false;
	const char *v = k + strlen(key), *e = v;
	while (e < end && *e != '\n')
		e++;
	for (int i = 0; stops[i]; i++) {
		const char *st = import_find(v, e, stops[i]);
		if (st && st < e)
			e = st;
	}
	import_trim_copy(out, size, v, e);
	return out[0] != 0;
}

/* The last occurrence of needle in s, or NULL. */
static char *last_of(char *s, const char *needle)
{
	char *last = NULL;
	for (char *q = strstr(s, needle); q; q = strstr(q + 1, needle))
		last = q;
	return last;
}

/* kbench's "Storage: DIR on TYPE (OPTIONS) SOURCE, scheduler SCHED" (src/compare/report.c),
 * or "DIR (filesystem unknown)". TYPE and OPTIONS hold no blanks, so DIR ends
 * at the last " on " that such a pair follows: DIR is whatever --tmpdir was,
 * the source is a device or a server's path. */
static void storage_facts(char *v, struct run_meta *m)
{
	static const char unknown_fs[] = " (filesystem unknown)";
	size_t n = strlen(v), u = sizeof unknown_fs - 1;
	if (n > u && !strcmp(v + n - u, unknown_fs)) {
		v[n - u] = 0;
		snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", v);
		snprintf(m->fs_type, sizeof m->fs_type, "unknown");
		snprintf(m->fs_options, sizeof m->fs_options, "unknown");
		snprintf(m->fs_source, sizeof m->fs_source, "unknown");
		snprintf(m->io_scheduler, sizeof m->io_scheduler, "unknown");
		return;
	}
	char *sched = last_of(v, ", scheduler ");
	if (!sched)
		return;
	*sched = 0;
	sched += strlen(", scheduler ");
	char *on = NULL, *paren = NULL, *close = NULL;
	for (char *o = strstr(v, " on "); o; o = strstr(o + 1, " on ")) {
		char *type = o + 4, *pa = strstr(type, " (");
		if (!pa || pa == type || memchr(type, ' ', (size_t)(pa - type)))
			continue;
		char *opts = pa + 2, *cl = strstr(opts, ") ");
		if (!cl || cl == opts || memchr(opts, ' ', (size_t)(cl - opts)))
			continue;
		on = o, paren = pa, close = cl;
	}
	if (!on)
		return;
	char *type = on + 4, *opts = paren + 2;
	*on = *paren = *close = 0;
	snprintf(m->scratch_dir, sizeof m->scratch_dir, "%s", v);
	snprintf(m->fs_type, sizeof m->fs_type, "%s", type);
	snprintf(m->fs_options, sizeof m->fs_options, "%s", opts);
	snprintf(m->fs_source, sizeof m->fs_source, "%s", close + 2);
	snprintf(m->io_scheduler, sizeof m->io_scheduler, "%s", sched);
}

/* The text of one part of a fact line: after `key`, up to `stop` (or the end). */
static bool part(const char *v, const char *key, const char *stop, char *out, size_t size)
{
	const char *k = strstr(v, key);
	if (!k)
		return false;
	k += strlen(key);
	const char *e = stop ? strstr(k, stop) : NULL;
	if (!e)
		e = k + strlen(k);
	snprintf(out, size, "%.*s", (int)(e - k), k);
	return out[0] != 0;
}

/* kbench's "Kernel settings: clocksource C, THP E (defrag D)[, memory M MiB], swap S",
 * where S is "none", "unknown" or "N MiB (U MiB used)". Each part is read on its own. */
static void settings_facts(const char *v, struct run_meta *m)
{
	char buf[128];
	if (!strncmp(v, "clocksource ", 12) && part(v, "clocksource ", ", THP ", buf, sizeof buf))
		snprintf(m->clocksource, sizeof m->clocksource, "%s", buf);
	if (part(v, ", THP ", " (defrag ", buf, sizeof buf))
		snprintf(m->thp_enabled, sizeof m->thp_enabled, "%s", buf);
	if (part(v, " (defrag ", ")", buf, sizeof buf))
		snprintf(m->thp_defrag, sizeof m->thp_defrag, "%s", buf);
	unsigned long long mem;
	if (part(v, ", memory ", ", swap ", buf, sizeof buf) && sscanf(buf, "%llu MiB", &mem) == 1 &&
	    mem > 0 && mem < (1ull << 40))
		m->mem_kib = mem * 1024;
	if (!part(v, ", swap ", NULL, buf, sizeof buf))
		return;
	unsigned long long total, used;
	if (!strcmp(buf, "none")) {
		m->swap_known = true;
		m->swap_total_kib = m->swap_used_kib = 0;
	} else if (sscanf(buf, "%llu MiB (%llu MiB used)", &total, &used) == 2 &&
		   total < (1ull << 40) && used < (1ull << 40)) {
		m->swap_known = true;
		m->swap_total_kib = total * 1024;
		m->swap_used_kib = used * 1024;
	}
}

void import_header_facts(const char *p, const char *end, struct run_meta *m)
{
	char buf[1024];
	if (header_value(p, end, "System:", buf, sizeof buf)) {
		char *colon = strchr(buf, ':');
		if (colon)
			*colon = 0;
		snprintf(m->hostname, sizeof m->hostname, "%s", buf);
	}
	if (header_value(p, end, "OS:", buf, sizeof buf)) {
		/* "GNU/Linux -- 6.1.0-13-amd64 -- #1 SMP PREEMPT_DYNAMIC ..." */
		char *a = strstr(buf, " -- ");
		if (a) {
			*a = 0;
			char *b = strstr(a + 4, " -- ");
			if (b) {
				*b = 0;
				snprintf(m->kernel_version, sizeof m->kernel_version, "%s", b + 4);
			}
			snprintf(m->kernel_release, sizeof m->kernel_release, "%s", a + 4);
		}
		snprintf(m->os, sizeof m->os, "%s", buf);
	}
	if (header_value(p, end, "Kernel:", buf, sizeof buf))
		snprintf(m->kernel_release, sizeof m->kernel_release, "%s", buf);
	if (header_value(p, end, "Machine:", buf, sizeof buf)) {
		char *sp = strchr(buf, ' ');
		if (sp)
			*sp = 0;
		snprintf(m->machine, sizeof m->machine, "%s", buf);
	}
	if (header_value(p, end, "Language:", buf, sizeof buf)) {
		/* en_US.utf8 (charmap="UTF-8", collate="UTF-8"): the quotes are kept, as UnixBench prints them. */
		char *cm = strstr(buf, "charmap="), *co = strstr(buf, "collate=");
		if (cm) {
			cm += 8;
			snprintf(m->charmap, sizeof m->charmap, "%.*s", (int)strcspn(cm, ",)"), cm);
		}
		if (co) {
			co += 8;
			snprintf(m->collate, sizeof m->collate, "%.*s", (int)strcspn(co, ",)"), co);
		}
		char *sp = strchr(buf, ' ');
		if (sp)
			*sp = 0;
		snprintf(m->lang, sizeof m->lang, "%s", buf);
	}
	/* The uptime line (only where lines survived: a collapsed one has no edges). */
	const char *la = import_find(p, end, "load average");
	if (la) {
		const char *ls = la, *le = la;
		while (ls > p && ls[-1] != '\n')
			ls--;
		while (le < end && *le != '\n')
			le++;
		const char *rl = import_find(ls, le, "; runlevel");
		if (la - ls < 120 && le - la < 120)
			import_trim_copy(m->uptime, sizeof m->uptime, ls, rl ? rl : le);
	}
	if (header_value(p, end, "CPU 0:", buf, sizeof buf)) {
		/* "AMD EPYC (4890.8 bogomips) <flag words>" */
		char *bm = strstr(buf, " bogomips)");
		if (bm) {
			char *open = bm;
			while (open > buf && *open != '(')
				open--;
			if (*open == '(') {
				m->bogomips = strtod(open + 1, NULL);
				if (!isfinite(m->bogomips) || m->bogomips < 0)
					m->bogomips = 0;
				char *flags = bm + strlen(" bogomips)");
				while (*flags == ' ')
					flags++;
				snprintf(m->cpu_flags, sizeof m->cpu_flags, "%s", flags);
				/* In a log the flag words are the next, indented line. */
				const char *c0 = import_find(p, end, "CPU 0:");
				const char *nl = c0 ? memchr(c0, '\n', (size_t)(end - c0)) : NULL;
				if (!m->cpu_flags[0] && nl && nl + 1 < end && import_is_sp(nl[1])) {
					const char *fe = memchr(nl + 1, '\n', (size_t)(end - nl - 1));
					if (!import_find(nl + 1, fe ? fe : end, ":"))
						import_trim_copy(m->cpu_flags, sizeof m->cpu_flags, nl + 1, fe ? fe : end);
				}
				while (open > buf && open[-1] == ' ')
					open--;
				*open = 0;
			}
		}
		snprintf(m->cpu_model, sizeof m->cpu_model, "%s", buf);
	}
	if (header_value(p, end, "Storage:", buf, sizeof buf))
		storage_facts(buf, m);
	if (header_value(p, end, "Kernel settings:", buf, sizeof buf))
		settings_facts(buf, m);
	int ncpu = 0;
	char key[16];
	for (int i = 0; i < 4096; i++) {
		snprintf(key, sizeof key, "CPU %d:", i);
		if (!import_find(p, end, key))
			break;
		ncpu++;
	}
	if (ncpu)
		m->ncpus = ncpu;
}
