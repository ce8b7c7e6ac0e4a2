/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-worker event counters: libpfm4 names the events, perf_event_open (behind a swappable backend) counts them on each worker and its children, on every core-type PMU of a hybrid CPU. */
#include "telemetry/counters.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

#include "telemetry/sysroot.h"

static int pfm_started; /* 0 no, 1 yes, -1 failed */
static char pfm_error[120];

int counters_pfm_start(char *err, size_t errlen)
{
	if (!pfm_started) {
		int rc = pfm_initialize();
		pfm_started = rc == PFM_SUCCESS ? 1 : -1;
		if (rc != PFM_SUCCESS)
			snprintf(pfm_error, sizeof pfm_error, "libpfm4 failed to start: %s",
				 pfm_strerror(rc));
	}
	if (pfm_started < 0) {
		snprintf(err, errlen, "%s", pfm_error);
		return -ENODEV;
	}
	return 0;
}

int counters_read_paranoid(void)
{
	char buf[32];
	if (sysroot_read_line("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf) < 0)
		return -99;
	return atoi(buf);
}

/* strlen + memcpy: snprintf between members of one struct trips -Wrestrict. */
static void set_str(char *dst, size_t size, const char *src)
{
	size_t l = strlen(src);
	if (l >= size)
		l = size - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

/* ---- the kernel's backend ---- */

/* Root, or CAP_PERFMON (38) or CAP_SYS_ADMIN (21) in the effective set: the
 * kernel lets these count kernel space at any perf_event_paranoid
 * (Documentation/admin-guide/perf-security.rst). */
static bool real_privileged(void)
{
	if (geteuid() == 0)
		return true;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return false;
	char line[256];
	unsigned long long eff = 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> 38 & 1) || (eff >> 21 & 1);
}

static int real_open(const struct perf_event_attr *a, pid_t pid)
{
	struct perf_event_attr copy = *a;
	long fd = syscall(SYS_perf_event_open, &copy, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

static int real_read(int fd, uint64_t v[3])
{
	ssize_t n = read(fd, v, 3 * sizeof v[0]);
	if (n != (ssize_t)(3 * sizeof v[0]))
		return n < 0 ? -errno : -EIO;
	return 0;
}

static void real_enable(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

static void real_close(int fd)
{
	close(fd);
}

static const struct counter_backend real_backend = {
	.name = "perf_event_open",
	.paranoid = counters_read_paranoid,
	.privileged = real_privileged,
	.open = real_open,
	.read = real_read,
	.enable = real_enable,
	.close = real_close,
};

static const struct counter_backend *backend = &real_backend;

void counters_use_backend(const struct counter_backend *b)
{
	backend = b ? b : &real_backend;
}

/* perf stat's names for the generic events, so default rows read the same. */
static void classify(struct counter_event *e)
{
	static const struct {
		uint32_t type;
		uint64_t config;
		const char *label;
		enum counter_role role;
	} known[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", ROLE_CYCLES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions", ROLE_INSTRUCTIONS },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses", ROLE_CACHE_MISSES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "branch-misses", ROLE_BRANCH_MISSES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches", ROLE_BRANCHES },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "ref-cycles", ROLE_REF_CYCLES },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", ROLE_TASK_CLOCK },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", ROLE_OTHER },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations", ROLE_OTHER },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", ROLE_OTHER },
	};
	set_str(e->label, sizeof e->label, e->name);
	e->role = ROLE_OTHER;
	if (!e->encoded)
		return;
	/* Only the scheduler switches and migrates a task, in kernel context:
	 * counted user-only they read 0, which is not a measurement. */
	e->kernel_only = e->attr.type == PERF_TYPE_SOFTWARE &&
			 (e->attr.config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
			  e->attr.config == PERF_COUNT_SW_CPU_MIGRATIONS);
	e->per_pmu = e->attr.type == PERF_TYPE_HARDWARE || e->attr.type == PERF_TYPE_HW_CACHE;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (e->attr.type == known[i].type && e->attr.config == known[i].config) {
			/* A qualified name (":u", modifiers) keeps the user's spelling. */
			if (!strchr(strstr(e->name, "::") ? strstr(e->name, "::") + 2 : e->name, ':'))
				snprintf(e->label, sizeof e->label, "%s", known[i].label);
			e->role = known[i].role;
		}
}

/* "pmu::event": is pmu a PMU libpfm4 knows, and is it on this machine? */
static int pmu_known(const char *name, bool *present)
{
	const char *sep = strstr(name, "::");
	if (!sep)
		return 0;
	size_t l = (size_t)(sep - name);
	pfm_pmu_t p;
	pfm_for_all_pmus(p)
	{
		pfm_pmu_info_t info;
		memset(&info, 0, sizeof info);
		info.size = sizeof info;
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.name)
			continue;
		if (strlen(info.name) == l && !strncasecmp(info.name, name, l)) {
			*present = info.is_present;
			return 1;
		}
	}
	return 0;
}

static int encode(struct counters *c, struct counter_event *e, char *err, size_t errlen)
{
	memset(&e->attr, 0, sizeof e->attr);
	pfm_perf_encode_arg_t arg;
	memset(&arg, 0, sizeof arg);
	arg.attr = &e->attr;
	arg.size = sizeof arg;
	/* Non-root with paranoid >= 2 may count user space only: ask for that, not EACCES. */
	int plm = c->user_only ? PFM_PLM3 : PFM_PLM0 | PFM_PLM3;
	int rc = pfm_get_os_event_encoding(e->name, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (rc == PFM_SUCCESS) {
		e->encoded = true;
		e->attr.size = sizeof e->attr;
		e->state = COUNTER_UNOPENED;
		return 0;
	}
	bool present = false;
	if (rc == PFM_ERR_NOTFOUND && pmu_known(e->name, &present) && !present) {
		/* A real PMU, only not this machine's: the row stays, as perf does. */
		e->state = COUNTER_NOT_SUPPORTED;
		char pmu[96];
		set_str(pmu, sizeof pmu, e->name);
		*strstr(pmu, "::") = '\0';
		snprintf(e->why, sizeof e->why, "the %s PMU is not on this machine", pmu);
		return 0;
	}
	if (rc == PFM_ERR_NOTFOUND)
		snprintf(err, errlen, "unknown event '%s' (kbench events lists the events this machine knows)",
			 e->name);
	else
		snprintf(err, errlen, "event '%s': %s (kbench events lists the events this machine knows)",
			 e->name, pfm_strerror(rc));
	return -EINVAL;
}

int counters_init(struct counters *c, const char *list, char *err, size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->be = backend;
	c->paranoid = c->be->paranoid();
	c->user_only = !c->be->privileged() && c->paranoid >= 2;
	/* One core type: its PMU is the generic one and nothing needs splitting. */
	c->npmus = counters_core_pmus(c->pmu, COUNTERS_MAX_PMUS);
	if (c->npmus < 2)
		c->npmus = 0;
	c->nslots = c->npmus ? c->npmus : 1;
	if (counters_pfm_start(err, errlen) < 0)
		return -ENODEV;
	if (!list || !*list)
		list = COUNTERS_DEFAULT;
	char *copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	int rc = 0;
	char *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		size_t l = strlen(tok);
		while (l && tok[l - 1] == ' ')
			tok[--l] = '\0';
		if (!*tok)
			continue;
		if (c->nevents == COUNTERS_MAX_EVENTS) {
			snprintf(err, errlen, "too many events (at most %d)", COUNTERS_MAX_EVENTS);
			rc = -EINVAL;
			break;
		}
		if (l >= sizeof c->ev[0].name) {
			snprintf(err, errlen, "event name too long: '%.40s...'", tok);
			rc = -EINVAL;
			break;
		}
		struct counter_event *e = &c->ev[c->nevents];
		memset(e, 0, sizeof *e);
		set_str(e->name, sizeof e->name, tok);
		if ((rc = encode(c, e, err, errlen)) < 0)
			break;
		classify(e);
		c->nevents++;
	}
	free(copy);
	if (rc == 0 && c->nevents == 0) {
		snprintf(err, errlen, "--events names no event");
		rc = -EINVAL;
	}
	return rc;
}

static void free_fds(struct counters *c)
{
	free(c->fd);
	free(c->val);
	c->fd = NULL;
	c->val = NULL;
	c->ncopies = 0;
}

/* The attr of event e on core-type PMU p: the kernel's extended hardware
 * type (the PMU's type in config's upper half, as perf stat opens cpu_core/
 * and cpu_atom/ events), or the event itself on a CPU of one core type. */
static struct perf_event_attr attr_on(const struct counters *c, const struct counter_event *ev, int p)
{
	struct perf_event_attr a = ev->attr;
	if (c->npmus && ev->per_pmu)
		a.config = (a.config & 0xffffffffULL) | (uint64_t)c->pmu[p].type << 32;
	return a;
}

/* Opens one event on one pid in its slots; returns the row's state. */
static enum counter_state open_row(struct counters *c, const struct counter_event *ev, pid_t pid, int *fd,
				   int *err)
{
	int nslots = c->npmus && ev->per_pmu ? c->npmus : 1, opened = 0;
	for (int p = 0; p < c->nslots; p++)
		fd[p] = -1;
	for (int p = 0; p < nslots; p++) {
		struct perf_event_attr a = attr_on(c, ev, p);
		a.disabled = 1;
		a.inherit = 1; /* execl, spawn and the shell tests work in children */
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int r = c->be->open(&a, pid);
		if (r < 0)
			*err = -r;
		else
			fd[p] = r, opened++;
	}
	if (!opened && nslots > 1) {
		/* A kernel before the extended hardware type: the event as it is,
		 * on whichever core type the kernel picks. */
		struct perf_event_attr a = ev->attr;
		a.disabled = 1;
		a.inherit = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int r = c->be->open(&a, pid);
		if (r >= 0)
			fd[0] = r, opened++;
	}
	return opened ? COUNTER_NOT_COUNTED : counter_state_for_errno(*err);
}

void counters_attach(struct counters *c, const pid_t *pids, int npids)
{
	counters_detach(c);
	free_fds(c);
	size_t n = (size_t)npids * (size_t)c->nevents;
	c->fd = malloc((n ? n * (size_t)c->nslots : 1) * sizeof *c->fd);
	c->val = calloc(n ? n : 1, sizeof *c->val);
	if (!c->fd || !c->val) {
		free_fds(c);
		return;
	}
	c->ncopies = npids;
	for (int k = 0; k < npids; k++) {
		for (int e = 0; e < c->nevents; e++) {
			int i = k * c->nevents + e;
			struct counter_event *ev = &c->ev[e];
			int *fd = &c->fd[i * c->nslots];
			for (int p = 0; p < c->nslots; p++)
				fd[p] = -1;
			if (!ev->encoded) {
				c->val[i].state = ev->state;
				continue;
			}
			if (c->user_only && ev->kernel_only) {
				c->val[i].state = COUNTER_USER_ONLY;
				continue;
			}
			c->val[i].state = open_row(c, ev, pids[k], fd, &c->val[i].err);
		}
	}
}

void counters_enable(struct counters *c)
{
	for (int i = 0; i < c->ncopies * c->nevents * c->nslots; i++)
		if (c->fd[i] >= 0)
			c->be->enable(c->fd[i]);
}

void counters_read(struct counters *c)
{
	for (int i = 0; i < c->ncopies * c->nevents; i++) {
		const int *fd = &c->fd[i * c->nslots];
		uint64_t v[COUNTERS_MAX_PMUS][3];
		int nopen = 0, err = 0;
		for (int p = 0; p < c->nslots; p++) {
			memset(v[p], 0, sizeof v[p]);
			if (fd[p] < 0)
				continue;
			nopen++;
			int r = c->be->read(fd[p], v[p]);
			if (r < 0)
				err = -r;
		}
		if (!nopen)
			continue;
		if (err) {
			c->val[i].state = COUNTER_ERROR;
			c->val[i].err = err;
			continue;
		}
		if (c->npmus && c->ev[i % c->nevents].per_pmu)
			counter_sum_pmus((const uint64_t(*)[3])v, c->npmus, &c->val[i]);
		else
			counter_scale(v[0][0], v[0][1], v[0][2], &c->val[i]);
	}
}

void counters_detach(struct counters *c)
{
	if (!c->fd)
		return;
	for (int i = 0; i < c->ncopies * c->nevents * c->nslots; i++)
		if (c->fd[i] >= 0) {
			c->be->close(c->fd[i]);
			c->fd[i] = -1;
		}
}

void counters_free(struct counters *c)
{
	counters_detach(c);
	free_fds(c);
}

void counters_probe(struct counters *c, struct counter_value *out)
{
	for (int e = 0; e < c->nevents; e++) {
		memset(&out[e], 0, sizeof out[e]);
		if (!c->ev[e].encoded) {
			out[e].state = c->ev[e].state;
			continue;
		}
		if (c->user_only && c->ev[e].kernel_only) {
			out[e].state = COUNTER_USER_ONLY;
			continue;
		}
		struct perf_event_attr a = attr_on(c, &c->ev[e], 0);
		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int fd = c->be->open(&a, 0);
		if (fd < 0) {
			out[e].state = counter_state_for_errno(-fd);
			out[e].err = -fd;
			continue;
		}
		out[e].state = COUNTER_VALUE;
		c->be->close(fd);
	}
}

int counters_find(const struct counters *c, enum counter_role role)
{
	for (int e = 0; e < c->nevents; e++)
		if (c->ev[e].role == role)
			return e;
	return -1;
}

void counters_mode(const struct counters *c, char *buf, size_t size)
{
	if (!c->user_only) {
		snprintf(buf, size, "%s", "");
		return;
	}
	snprintf(buf, size, "user-only (perf_event_paranoid %d): no kernel time; GHz, switches: getrusage; "
		 "migrations n/a",
		 c->paranoid);
}

void counters_permission_hint(const struct counters *c, char *buf, size_t size)
{
	if (c->paranoid == -99)
		snprintf(buf, size, "perf_event_paranoid unreadable; run as root or grant CAP_PERFMON");
	else
		snprintf(buf, size,
			 "perf_event_paranoid is %d; fix: sudo sysctl kernel.perf_event_paranoid=1 "
			 "(or run as root / grant CAP_PERFMON)",
			 c->paranoid);
}
