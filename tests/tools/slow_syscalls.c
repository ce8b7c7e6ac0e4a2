/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A known slowdown of system calls for the plan tests: a seccomp filter that costs a fixed extra per call, then a command. */
/*
 * slow_syscalls [--insns N | --percent X] [--calls LIST] [--verbose] -- COMMAND [ARG...]
 * slow_syscalls --measure [--insns N] [--calls LIST]
 *
 * The filter loads the call's first argument and runs N arithmetic
 * instructions on it before it allows the call, so every system call of
 * COMMAND and of everything it starts (the filter is inherited across fork
 * and exec) pays for N instructions. Reading an argument matters: since
 * Linux 5.11 seccomp caches, per system call number, a filter whose answer
 * does not depend on the arguments (kernel/seccomp.c, "seccomp_cache"), and
 * such a filter would then cost nothing at all. --calls getuid,umask makes
 * only those calls pay (the others' answer is the number's alone, which the
 * kernel caches): on a machine where entering any filter costs much (a VM
 * with mitigations: 140 ns on a 950 ns getpid), a small slowdown of a test
 * needs fewer calls to pay, not fewer instructions. A filter holds at most
 * BPF_MAXINSNS instructions, so a longer chain is several filters stacked
 * (the kernel runs each; their total is limited to 32768 instructions).
 *
 * --percent X picks N so that UnixBench's system call mix (close(dup()),
 * getpid, getuid, umask: src/workloads/syscall.c) runs X% slower, measured
 * here and now (a child process times the mix without and with filters of
 * two lengths, and N follows from the line through them). --measure prints
 * what it measured. The cost of an instruction differs between machines
 * (the BPF JIT on or off), which is why the tool measures rather than
 * assumes; a plan test states the change it measured, not the one asked.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Instructions around the chain in each filter: the argument load and the return. */
#define FILTER_OVERHEAD 2
/* The kernel's limit on all filters of a task together (MAX_INSNS_PER_PATH), less
 * the 4 instructions it counts per filter for its own bookkeeping, for 8 filters. */
#define TOTAL_MAX (32768 - 8 * 4 - 8 * FILTER_OVERHEAD)

static void usage(void)
{
	fprintf(stderr, "usage: slow_syscalls [--insns N | --percent X] [--calls LIST] [--verbose] -- COMMAND [ARG...]\n"
			"       slow_syscalls --measure [--insns N] [--calls LIST]\n");
	exit(2);
}

/* The system calls that pay (none listed: all of them), by number. */
static long calls[32];
static int ncalls;

static const struct {
	const char *name;
	long nr;
} call_names[] = {
	{ "getpid", SYS_getpid }, { "getuid", SYS_getuid }, { "umask", SYS_umask }, { "dup", SYS_dup },
	{ "close", SYS_close },	  { "read", SYS_read },	    { "write", SYS_write },
};

static int add_calls(const char *list)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		long nr = -1;
		for (size_t k = 0; k < sizeof call_names / sizeof call_names[0]; k++)
			if (!strcmp(w, call_names[k].name))
				nr = call_names[k].nr;
		if (nr < 0) {
			char *end;
			nr = strtol(w, &end, 10);
			if (*end || nr < 0)
				return -1;
		}
		if (ncalls == (int)(sizeof calls / sizeof calls[0]))
			return -1;
		calls[ncalls++] = nr;
	}
	return ncalls ? 0 : -1;
}

/* One filter of n chain instructions: for the listed calls (or all), A = low
 * word of args[0], then n times A += k or A ^= k; every call is allowed. A call
 * not listed gets its answer from the number alone, which the kernel caches. */
static int install_one(int n)
{
	struct sock_filter *f = calloc((size_t)n + FILTER_OVERHEAD + 2 + (size_t)ncalls, sizeof *f);
	if (!f)
		return -ENOMEM;
	int i = 0;
	if (ncalls) {
		f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
		/* a listed number jumps over the rest of the list and the allow below it */
		for (int c = 0; c < ncalls; c++)
			f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)calls[c],
							      (unsigned char)(ncalls - c), 0);
		f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
	for (int k = 0; k < n; k++)
		f[i++] = (struct sock_filter)BPF_STMT(BPF_ALU | (k & 1 ? BPF_XOR : BPF_ADD) | BPF_K,
						      0x9e3779b9u + (unsigned)k);
	f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)i, .filter = f };
	/* SPEC_ALLOW: without it the kernel also turns on its speculative store
	 * bypass mitigation for the task (Documentation/userspace-api/spec_ctrl.rst),
	 * which slows all of its code, not only its system calls. */
	int rc = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_SPEC_ALLOW, &prog);
	int e = errno;
	free(f);
	return rc < 0 ? -e : 0;
}

/* Filters adding up to n chain instructions (0 still installs one: reading the
 * argument has its own cost). 0, or -errno. */
static int install(long n)
{
	if (n < 0)
		return 0;
	/* Without CAP_SYS_ADMIN the kernel takes a filter only from a task that
	 * can gain no privileges (Documentation/userspace-api/seccomp_filter.rst). */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	int per = BPF_MAXINSNS - FILTER_OVERHEAD - 2 - ncalls;
	do {
		int k = n > per ? per : (int)n;
		int rc = install_one(k);
		if (rc < 0)
			return rc;
		n -= k;
	} while (n > 0);
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Nanoseconds per round of UnixBench's system call mix, over `rounds` rounds. */
static double mix_ns(long rounds)
{
	double t0 = now();
	for (long i = 0; i < rounds; i++) {
		close(dup(0));
		syscall(SYS_getpid); /* not the C library's, which may cache it */
		getuid();
		umask(022);
	}
	return (now() - t0) * 1e9 / rounds;
}

/* A child with a filter of n instructions (a filter cannot be removed) that
 * times the mix each time it is asked: a byte in, a double out. */
struct timer {
	pid_t pid;
	int ask, answer;
};

static int timer_start(struct timer *t, long n)
{
	int in[2], out[2];
	if (pipe(in) < 0 || pipe(out) < 0)
		return -1;
	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (t->pid == 0) {
		close(in[1]);
		close(out[0]);
		double fail = -1;
		if (install(n) < 0) {
			ssize_t w = write(out[1], &fail, sizeof fail);
			_exit(w < 0);
		}
		char c;
		while (read(in[0], &c, 1) == 1) {
			double ns = mix_ns(4000);
			if (write(out[1], &ns, sizeof ns) != (ssize_t)sizeof ns)
				break;
		}
		_exit(0);
	}
	close(in[0]);
	close(out[1]);
	t->ask = in[1];
	t->answer = out[0];
	return 0;
}

static double timer_ask(struct timer *t)
{
	double ns = -1;
	if (write(t->ask, "t", 1) != 1 || read(t->answer, &ns, sizeof ns) != (ssize_t)sizeof ns)
		return -1;
	return ns;
}

/* Killed, not told by closing its pipe: the other timers hold copies of that pipe's ends. */
static void timer_stop(struct timer *t)
{
	close(t->ask);
	close(t->answer);
	kill(t->pid, SIGKILL);
	int st;
	waitpid(t->pid, &st, 0);
}

/* The mix without a filter and with filters of n/4 and n instructions: the
 * least of 25 timings each, taken in turns, so that other processes' load
 * (which only ever adds time) falls on all three alike. The cost is a line,
 * base + fixed + per * n: entering the filter at all costs something. */
static int measure(long n, double *base, double *fixed, double *per)
{
	struct timer t[3];
	long len[3] = { -1, n / 4, n }; /* -1: no filter at all */
	double best[3] = { 1e30, 1e30, 1e30 };
	for (int k = 0; k < 3; k++)
		if (timer_start(&t[k], len[k]) < 0)
			return -1;
	int rc = 0;
	for (int rep = 0; rep < 25 && !rc; rep++)
		for (int k = 0; k < 3; k++) {
			double ns = timer_ask(&t[k]);
			if (ns <= 0)
				rc = -1;
			else if (ns < best[k])
				best[k] = ns;
		}
	for (int k = 0; k < 3; k++)
		timer_stop(&t[k]);
	if (rc)
		return -1;
	*base = best[0];
	*per = (best[2] - best[1]) / (double)(len[2] - len[1]);
	*fixed = best[1] - best[0] - *per * (double)len[1];
	return *per > 0 ? 0 : -1;
}

static int bad(const char *what)
{
	fprintf(stderr, "slow_syscalls: %s\n", what);
	return 2;
}

int main(int argc, char **argv)
{
	long insns = -1;
	double percent = -1;
	int verbose = 0, do_measure = 0, i;
	for (i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (!strcmp(argv[i], "--insns") && i + 1 < argc) {
			insns = strtol(argv[++i], &end, 10);
			if (*end || insns < 0 || insns > TOTAL_MAX)
				return bad("--insns takes 0 to 32000");
		} else if (!strcmp(argv[i], "--percent") && i + 1 < argc) {
			percent = strtod(argv[++i], &end);
			if (*end || !(percent > 0) || percent > 1000)
				return bad("--percent takes a number above 0");
		} else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
			if (add_calls(argv[++i]) < 0)
				return bad("--calls takes names (getpid,getuid,umask,dup,close,read,write) or numbers, at most 32");
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--measure")) {
			do_measure = 1;
		} else {
			usage();
		}
	}
	if (insns >= 0 && percent > 0)
		usage();
	double base, fixed, per;
	if (do_measure || percent > 0) {
		long probe = insns > 0 ? insns : 4000;
		if (measure(probe, &base, &fixed, &per) < 0)
			return bad("the mix's time did not grow with the filter (a machine too busy to time?)");
		if (do_measure) {
			printf("mix %.1f ns per round (5 calls); a filter adds %.1f ns plus %.4f ns per instruction"
			       " per round; %ld instructions: +%.1f%%\n",
			       base, fixed, per, probe, (fixed + per * probe) / base * 100);
			return 0;
		}
		insns = (long)((percent / 100 * base - fixed) / per + 0.5);
		if (insns < 0) {
			fprintf(stderr, "slow_syscalls: a filter alone adds %.1f%% to the mix here, more than %g%%"
					" (--calls with fewer calls pays less)\n", fixed / base * 100, percent);
			return 1;
		}
		if (insns > TOTAL_MAX) {
			fprintf(stderr, "slow_syscalls: %g%% needs %ld filter instructions, more than the kernel takes\n",
				percent, insns);
			return 1;
		}
		if (verbose)
			fprintf(stderr, "slow_syscalls: %g%% of a %.1f ns mix round: %ld instructions (+%.1f ns fixed)\n",
				percent, base, insns, fixed);
	}
	if (i >= argc || insns < 0)
		usage();
	int rc = install(insns);
	if (rc < 0) {
		fprintf(stderr, "slow_syscalls: seccomp filter not installed: %s\n", strerror(-rc));
		return 1;
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "slow_syscalls: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
