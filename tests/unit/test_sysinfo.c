/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tests of the run's environment facts in src/record/sysinfo.c against the machine tree in tests/fixtures/sysinfo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "run.h"
#include "sysinfo.h"

static char fixture[512];

static int use_fixture(void **state)
{
	(void)state;
	const char *top = getenv("KBENCH_TOP");
	snprintf(fixture, sizeof fixture, "%s/tests/fixtures/sysinfo", top ? top : ".");
	setenv("KBENCH_SYSFS_ROOT", fixture, 1);
	return 0;
}

static int no_root(void **state)
{
	(void)state;
	unsetenv("KBENCH_SYSFS_ROOT");
	return 0;
}

/* The storage facts for a scratch directory that need not exist here (it is
 * resolved as given and matched against the fixture's mounts). */
static struct run_meta storage(const char *dir)
{
	struct run_meta m;
	memset(&m, 0, sizeof m);
	sysinfo_fill_storage(&m, dir);
	return m;
}

static void root_partition_of_a_virtio_disk(void **state)
{
	(void)state;
	/* /tmp holds /tmp/x but not /tmpfoo/x: mount points match whole components. */
	struct run_meta m = storage("/kbench-no-such/tmpfoo/x");
	assert_string_equal(m.scratch_dir, "/kbench-no-such/tmpfoo/x");
	assert_string_equal(m.fs_type, "ext4");
	assert_string_equal(m.fs_options, "rw,relatime");
	assert_string_equal(m.fs_source, "/dev/vda1");
	assert_string_equal(m.io_scheduler, "mq-deadline"); /* vda1 is a partition: vda's */
}

static void tmpfs_has_no_scheduler(void **state)
{
	(void)state;
	struct run_meta m = storage("/tmp/kbench-no-such");
	assert_string_equal(m.fs_type, "tmpfs");
	assert_string_equal(m.fs_options, "rw,nosuid,nodev");
	assert_string_equal(m.fs_source, "tmpfs");
	assert_string_equal(m.io_scheduler, "none");
}

static void escaped_space_and_nvme(void **state)
{
	(void)state;
	struct run_meta m = storage("/mnt/scratch disk/kbench-no-such");
	assert_string_equal(m.fs_type, "xfs");
	assert_string_equal(m.fs_options, "rw,noatime");
	assert_string_equal(m.fs_source, "/dev/nvme0n1p2");
	assert_string_equal(m.io_scheduler, "none"); /* nvme0n1's [none] */
	/* "/mnt/scratch" alone is not that mount. */
	m = storage("/mnt/scratch");
	assert_string_equal(m.fs_type, "ext4");
}

static void dm_by_name_follows_its_slave(void **state)
{
	(void)state;
	/* btrfs says 0:45, so the device is found from /dev/mapper/vg-home's dm/name;
	 * dm-0's scheduler is none and its I/O goes to vda2, a partition of vda. */
	struct run_meta m = storage("/home/kbench-no-such/x");
	assert_string_equal(m.fs_type, "btrfs");
	assert_string_equal(m.fs_source, "/dev/mapper/vg-home");
	assert_string_equal(m.io_scheduler, "mq-deadline");
}

static void md_follows_its_member(void **state)
{
	(void)state;
	struct run_meta m = storage("/srv/raid/kbench-no-such");
	assert_string_equal(m.fs_type, "ext4");
	assert_string_equal(m.fs_options, "rw,relatime");
	assert_string_equal(m.fs_source, "/dev/md0");
	assert_string_equal(m.io_scheduler, "bfq");
}

static void later_mount_covers_earlier(void **state)
{
	(void)state;
	struct run_meta m = storage("/data/kbench-no-such");
	assert_string_equal(m.fs_type, "tmpfs");
	assert_string_equal(m.fs_source, "kbench-top");
	assert_string_equal(m.io_scheduler, "none");
}

static void relative_dir_made_absolute(void **state)
{
	(void)state;
	struct run_meta m = storage("kbench-no-such-relative");
	assert_true(m.scratch_dir[0] == '/');
	assert_non_null(strstr(m.scratch_dir, "/kbench-no-such-relative"));
}

static void swap_thp_clocksource(void **state)
{
	(void)state;
	struct run_meta m;
	memset(&m, 0, sizeof m);
	sysinfo_fill(&m);
	/* /proc/swaps wins over meminfo (which says 999 kB here); a swap file's name has an escaped space. */
	assert_true(m.swap_known);
	assert_int_equal(m.swap_total_kib, 1048572 + 524284);
	assert_int_equal(m.swap_used_kib, 2048);
	assert_string_equal(m.thp_enabled, "madvise");
	assert_string_equal(m.thp_defrag, "defer+madvise");
	assert_string_equal(m.clocksource, "kvm-clock");
	/* the governor and boost from the same tree as the clock telemetry */
	assert_string_equal(m.governor, "schedutil");
	assert_string_equal(m.boost, "on");
}

/* A strange machine: an empty tree (no mountinfo, no swaps, no meminfo, no
 * THP, no clocksource) gives unknown and n/a, and nothing fails. */
static void empty_tree_unknown(void **state)
{
	(void)state;
	char root[] = "/tmp/kbench-unit-sysinfo.XXXXXX";
	assert_non_null(mkdtemp(root));
	setenv("KBENCH_SYSFS_ROOT", root, 1);
	struct run_meta m;
	memset(&m, 0, sizeof m);
	sysinfo_fill(&m);
	sysinfo_fill_storage(&m, "/tmp");
	assert_false(m.swap_known);
	assert_string_equal(m.thp_enabled, "n/a");
	assert_string_equal(m.thp_defrag, "n/a");
	assert_string_equal(m.clocksource, "unknown");
	assert_string_equal(m.governor, "n/a");
	assert_string_equal(m.boost, "n/a");
	assert_string_equal(m.scratch_dir, "/tmp");
	assert_string_equal(m.fs_type, "unknown");
	assert_string_equal(m.fs_options, "unknown");
	assert_string_equal(m.io_scheduler, "unknown");

	/* No /proc/swaps: meminfo's SwapTotal and SwapFree; a total of 0 is "no swap", known. */
	char p[300];
	snprintf(p, sizeof p, "%s/proc", root);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/proc/meminfo", root);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("MemTotal: 1000 kB\nSwapTotal:  4096 kB\nSwapFree:  1024 kB\n", f);
	fclose(f);
	sysinfo_fill(&m);
	assert_true(m.swap_known);
	assert_int_equal(m.swap_total_kib, 4096);
	assert_int_equal(m.swap_used_kib, 3072);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("SwapTotal: 0 kB\nSwapFree: 0 kB\n", f);
	fclose(f);
	sysinfo_fill(&m);
	assert_true(m.swap_known);
	assert_int_equal(m.swap_total_kib, 0);

	/* A mountinfo without the mount (no "/"), and a block device sysfs does not show. */
	snprintf(p, sizeof p, "%s/proc/self", root);
	mkdir(p, 0755);
	snprintf(p, sizeof p, "%s/proc/self/mountinfo", root);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("22 1 0:21 / /proc rw - proc proc rw\n"
	      "garbage line\n"
	      "23 1 8:1 / /mnt rw,relatime - ext4 /dev/sdz1 rw\n", f);
	fclose(f);
	sysinfo_fill_storage(&m, "/tmp");
	assert_string_equal(m.fs_type, "unknown");
	sysinfo_fill_storage(&m, "/mnt/x");
	assert_string_equal(m.fs_type, "ext4");
	assert_string_equal(m.io_scheduler, "unknown");

	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	setenv("KBENCH_SYSFS_ROOT", fixture, 1);
}

/* ARM's /proc/cpuinfo has no model name (or one naming only the
 * architecture): the report's CPU lines name the cores and the board. */
static struct run_meta arm_machine(const char *tree)
{
	char root[600];
	struct run_meta m;
	const char *top = getenv("KBENCH_TOP");
	snprintf(root, sizeof root, "%s/tests/fixtures/%s", top ? top : ".", tree);
	setenv("KBENCH_SYSFS_ROOT", root, 1);
	memset(&m, 0, sizeof m);
	sysinfo_fill(&m);
	setenv("KBENCH_SYSFS_ROOT", fixture, 1);
	return m;
}

static void arm_cpuinfo_names_cores_and_board(void **state)
{
	(void)state;
	struct run_meta m = arm_machine("cpuinfo-rpi4");
	assert_string_equal(m.cpu_model, "ARM Cortex-A72, Raspberry Pi 4 Model B Rev 1.1");
	assert_float_equal(m.bogomips, 108.0, 1e-9);
	assert_string_equal(m.cpu_flags, "fp asimd evtstrm crc32 cpuid");
	/* big.LITTLE, each kind once; the board from the device tree */
	m = arm_machine("cpuinfo-rk3399");
	assert_string_equal(m.cpu_model, "ARM Cortex-A53 + ARM Cortex-A72, Pine64 Pinebook Pro");
	assert_float_equal(m.bogomips, 48.0, 1e-9);
	/* a 32-bit kernel: "ARMv7 Processor rev 4 (v7l)" gives way to the cores */
	m = arm_machine("cpuinfo-rpi3-armv7");
	assert_string_equal(m.cpu_model, "ARM Cortex-A53, Raspberry Pi 3 Model B Rev 1.2");
	assert_non_null(strstr(m.cpu_flags, "neon"));
}

static void scratch_dir_rule(void **state)
{
	(void)state;
	const char *old = getenv("TMPDIR");
	char *saved = old ? strdup(old) : NULL;
	setenv("TMPDIR", "/var/tmp", 1);
	assert_string_equal(sysinfo_scratch_dir("/x"), "/x");
	assert_string_equal(sysinfo_scratch_dir(NULL), "/var/tmp");
	assert_string_equal(sysinfo_scratch_dir(""), "/var/tmp");
	setenv("TMPDIR", "", 1);
	assert_string_equal(sysinfo_scratch_dir(NULL), "/tmp");
	unsetenv("TMPDIR");
	assert_string_equal(sysinfo_scratch_dir(NULL), "/tmp");
	if (saved)
		setenv("TMPDIR", saved, 1);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(root_partition_of_a_virtio_disk),
		cmocka_unit_test(tmpfs_has_no_scheduler),
		cmocka_unit_test(escaped_space_and_nvme),
		cmocka_unit_test(dm_by_name_follows_its_slave),
		cmocka_unit_test(md_follows_its_member),
		cmocka_unit_test(later_mount_covers_earlier),
		cmocka_unit_test(relative_dir_made_absolute),
		cmocka_unit_test(swap_thp_clocksource),
		cmocka_unit_test(empty_tree_unknown),
		cmocka_unit_test(scratch_dir_rule),
		cmocka_unit_test_setup(arm_cpuinfo_names_cores_and_board, use_fixture),
	};
	return cmocka_run_group_tests(tests, use_fixture, no_root);
}
