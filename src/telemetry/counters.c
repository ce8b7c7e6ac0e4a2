/* Per-worker event counters: libpfm4 names the events, perf_event_open counts them on each worker and its children. */
#include "telemetry/counters.h"

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

static long perf_open(struct perf_event_attr *attr, pid_t pid)
{
	return syscall(SYS_perf_event_open, attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
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
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", ROLE_TASK_CLOCK },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches", ROLE_OTHER },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations", ROLE_OTHER },
		{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", ROLE_OTHER },
	};
	set_str(e->label, sizeof e->label, e->name);
	e->role = ROLE_OTHER;
	if (!e->encoded)
		return;
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
	c->paranoid = counters_read_paranoid();
	c->user_only = geteuid() != 0 && c->paranoid >= 2;
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

enum counter_state counter_state_for_errno(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL: /* a VM without a PMU answers some hardware events with EINVAL */
	case ENOSYS: /* a kernel without perf events; qemu-user, which does not emulate the call */
		return COUNTER_NOT_SUPPORTED;
	case EACCES:
	case EPERM:
		return COUNTER_NO_PERMISSION;
	default:
		return COUNTER_ERROR;
	}
}

static void free_fds(struct counters *c)
{
	free(c->fd);
	free(c->val);
	c->fd = NULL;
	c->val = NULL;
	c->ncopies = 0;
}

void counters_attach(struct counters *c, const pid_t *pids, int npids)
{
	counters_detach(c);
	free_fds(c);
	size_t n = (size_t)npids * (size_t)c->nevents;
	c->fd = malloc((n ? n : 1) * sizeof *c->fd);
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
			c->fd[i] = -1;
			if (!ev->encoded) {
				c->val[i].state = ev->state;
				continue;
			}
			struct perf_event_attr a = ev->attr;
			a.disabled = 1;
			a.inherit = 1; /* execl, spawn and the shell tests work in children */
			a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
			long fd = perf_open(&a, pids[k]);
			if (fd < 0) {
				c->val[i].state = counter_state_for_errno(errno);
				c->val[i].err = errno;
				continue;
			}
			c->fd[i] = (int)fd;
			c->val[i].state = COUNTER_NOT_COUNTED;
		}
	}
}

void counters_enable(struct counters *c)
{
	for (int i = 0; i < c->ncopies * c->nevents; i++)
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void counter_scale(uint64_t raw, uint64_t enabled, uint64_t running, struct counter_value *out)
{
	out->raw = raw;
	out->enabled = enabled;
	out->running = running;
	if (running == 0) {
		/* Never on the PMU: a zero here would be a lie. */
		out->state = COUNTER_NOT_COUNTED;
		out->value = NAN;
		out->mux = 0;
		return;
	}
	out->state = COUNTER_VALUE;
	if (enabled > running) {
		out->mux = (double)running / (double)enabled;
		out->value = (double)raw * ((double)enabled / (double)running);
	} else {
		out->mux = 1;
		out->value = (double)raw;
	}
}

void counters_read(struct counters *c)
{
	for (int i = 0; i < c->ncopies * c->nevents; i++) {
		if (c->fd[i] < 0)
			continue;
		uint64_t buf[3];
		ssize_t n = read(c->fd[i], buf, sizeof buf);
		if (n != (ssize_t)sizeof buf) {
			c->val[i].state = COUNTER_ERROR;
			c->val[i].err = n < 0 ? errno : EIO;
			continue;
		}
		counter_scale(buf[0], buf[1], buf[2], &c->val[i]);
	}
}

void counters_detach(struct counters *c)
{
	if (!c->fd)
		return;
	for (int i = 0; i < c->ncopies * c->nevents; i++)
		if (c->fd[i] >= 0) {
			close(c->fd[i]);
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
		struct perf_event_attr a = c->ev[e].attr;
		a.disabled = 1;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		long fd = perf_open(&a, 0);
		if (fd < 0) {
			out[e].state = counter_state_for_errno(errno);
			out[e].err = errno;
			continue;
		}
		out[e].state = COUNTER_VALUE;
		close((int)fd);
	}
}

const char *counter_state_name(enum counter_state s)
{
	switch (s) {
	case COUNTER_VALUE: return "counted";
	case COUNTER_NOT_SUPPORTED: return "not supported";
	case COUNTER_NO_PERMISSION: return "no permission";
	case COUNTER_NOT_COUNTED: return "not counted";
	case COUNTER_ERROR: return "error";
	case COUNTER_UNOPENED: return "not opened";
	}
	return "?";
}

void counter_format(char *buf, size_t size, const struct counter_value *v)
{
	if (v->state != COUNTER_VALUE) {
		snprintf(buf, size, "<%s>", counter_state_name(v->state));
		return;
	}
	if (v->mux < 0.9995)
		snprintf(buf, size, "%.0f (mux %.0f%%)", v->value, v->mux * 100);
	else
		snprintf(buf, size, "%.0f", v->value);
}

int counters_find(const struct counters *c, enum counter_role role)
{
	for (int e = 0; e < c->nevents; e++)
		if (c->ev[e].role == role)
			return e;
	return -1;
}

double counter_ratio(const struct counter_value *num, const struct counter_value *den)
{
	if (!num || !den || num->state != COUNTER_VALUE || den->state != COUNTER_VALUE)
		return NAN;
	if (!(den->value > 0) || !isfinite(num->value))
		return NAN;
	return num->value / den->value;
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
