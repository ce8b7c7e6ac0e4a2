/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the boot loader menus: real distributions' configurations (tests/fixtures/boot) and hostile ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "bootcfg.h"

static const char *fixture(const char *name)
{
	static char p[4][512];
	static int k;
	const char *top = getenv("KBENCH_TOP");
	char *s = p[k++ % 4];
	snprintf(s, 512, "%s/tests/fixtures/boot/%s", top ? top : ".", name);
	return s;
}

static const char *debian_adv(const char *rel, const char *kind)
{
	static char id[256];
	snprintf(id, sizeof id,
		 "gnulinux-advanced-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15>gnulinux-%s-%s-3f1c2a9e-5b7d-4e8a-9c61-2d0e7f4b8a15",
		 rel, kind);
	return id;
}

/* Debian 12's grub-mkconfig: the "simple" entry boots the newest kernel, the
 * submenu holds a normal and a recovery entry per kernel. A release finds the
 * submenu's normal entry, whose id stays its own when another kernel comes. */
static void test_debian(void **state)
{
	struct boot_menu m;
	char err[512];
	assert_int_equal(bootcfg_read(&m, fixture("debian12"), err, sizeof err), 0);
	assert_int_equal(m.loader, BOOTCFG_GRUB);
	assert_false(m.bls);
	assert_string_equal(m.config, "/boot/grub/grub.cfg");
	assert_int_equal(m.n, 7);
	assert_string_equal(m.e[0].title, "Debian GNU/Linux");
	assert_string_equal(m.e[0].release, "6.6.8-pf1");
	assert_false(m.e[0].recovery);
	const struct boot_entry *e = bootcfg_find(&m, "6.1.0-13-amd64", err, sizeof err);
	assert_non_null(e);
	assert_string_equal(e->id, debian_adv("6.1.0-13-amd64", "advanced"));
	assert_string_equal(e->title, "Advanced options for Debian GNU/Linux>Debian GNU/Linux, with Linux 6.1.0-13-amd64");
	assert_string_equal(e->kernel, "/boot/vmlinuz-6.1.0-13-amd64");
	e = bootcfg_find(&m, "6.6.8-pf1", err, sizeof err);
	assert_string_equal(e->id, debian_adv("6.6.8-pf1", "advanced"));
	/* the recovery entry is an entry too, named by its id */
	e = bootcfg_find(&m, debian_adv("6.1.0-18-amd64", "recovery"), err, sizeof err);
	assert_non_null(e);
	assert_true(e->recovery);
	/* by title */
	assert_ptr_equal(bootcfg_find(&m, "Debian GNU/Linux", err, sizeof err), &m.e[0]);
	/* a release no entry boots; a release's prefix is not it */
	assert_null(bootcfg_find(&m, "6.1.0-1", err, sizeof err));
	assert_non_null(strstr(err, "no entry of GRUB's menu (/boot/grub/grub.cfg) boots '6.1.0-1'"));
	const char *argv[4];
	e = bootcfg_find(&m, "6.1.0-18-amd64", err, sizeof err);
	bootcfg_oneshot_argv(&m, e, argv);
	assert_string_equal(argv[0], "grub-reboot");
	assert_string_equal(argv[1], debian_adv("6.1.0-18-amd64", "advanced"));
	assert_null(argv[2]);
	bootcfg_free(&m);
}

/* Ubuntu with its submenu, functions that are no entries, chainloaded
 * Windows entries without a kernel, and an entry without an id. */
static void test_ubuntu(void **state)
{
	struct boot_menu m;
	char err[512];
	assert_int_equal(bootcfg_read(&m, fixture("ubuntu1304"), err, sizeof err), 0);
	assert_int_equal(m.n, 11);
	const struct boot_entry *e = bootcfg_find(&m, "3.8.0-19-generic", err, sizeof err);
	assert_non_null(e);
	assert_string_equal(e->id, "gnulinux-advanced-1ceb24e6-fcf4-45cf-8c4d-44f0a8949941>"
				   "gnulinux-3.8.0-19-generic-advanced-1ceb24e6-fcf4-45cf-8c4d-44f0a8949941");
	assert_false(e->recovery);
	int windows = 0, recovery = 0;
	for (int i = 0; i < m.n; i++) {
		windows += strstr(m.e[i].title, "Windows") != NULL;
		recovery += m.e[i].recovery;
		if (strstr(m.e[i].title, "Windows"))
			assert_string_equal(m.e[i].release, "");
	}
	assert_int_equal(windows, 4);
	/* two (recovery mode) entries, and Windows' own recovery loader */
	assert_int_equal(recovery, 3);
	/* an entry without an id is named by its title */
	e = bootcfg_find(&m, "Windows UEFI bootmgfw.efi", err, sizeof err);
	assert_non_null(e);
	assert_string_equal(e->id, "Windows UEFI bootmgfw.efi");
	bootcfg_free(&m);
}

/* Fedora: GRUB reads BLS entries (blscfg), named by file name without ".conf". */
static void test_fedora(void **state)
{
	struct boot_menu m;
	char err[512];
	assert_int_equal(bootcfg_read(&m, fixture("fedora39"), err, sizeof err), 0);
	assert_int_equal(m.loader, BOOTCFG_GRUB);
	assert_true(m.bls);
	assert_string_equal(m.config, "/boot/grub2/grub.cfg");
	assert_int_equal(m.n, 4); /* the firmware entry and three BLS files */
	const struct boot_entry *e = bootcfg_find(&m, "6.10.12-100.fc39.x86_64", err, sizeof err);
	assert_non_null(e);
	assert_string_equal(e->id, "0649288e52434223afde4c36460a375e-6.10.12-100.fc39.x86_64");
	assert_string_equal(e->title, "Fedora Linux (6.10.12-100.fc39.x86_64) 39 (Thirty Nine)");
	const struct boot_entry *r = bootcfg_find(&m, "0649288e52434223afde4c36460a375e-0-rescue", err, sizeof err);
	assert_non_null(r);
	assert_true(r->recovery);
	assert_string_equal(r->release, "");
	bootcfg_free(&m);
}

/* An x86 boot image holding only its setup header, with the version string at 0x200 + its offset. */
static void write_bzimage(const char *path, const char *version)
{
	unsigned char img[0x400] = { 0 };
	memcpy(img + 0x202, "HdrS", 4);
	unsigned off = 0x100;
	img[0x20e] = off & 0xff;
	img[0x20f] = off >> 8;
	snprintf((char *)img + 0x200 + off, sizeof img - 0x200 - off, "%s (builder@arch) #1 SMP PREEMPT_DYNAMIC", version);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(img, 1, sizeof img, f);
	fclose(f);
}

/* Arch with systemd-boot: ids keep ".conf", releases come from the images. */
static void test_arch(void **state)
{
	char tmp[] = "/tmp/kbench-bootcfg-XXXXXX", cmd[1024], p[600];
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof cmd, "cp -r '%s/boot' '%s/'", fixture("arch-sdboot"), tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(p, sizeof p, "%s/boot/vmlinuz-linux", tmp);
	write_bzimage(p, "6.7.2-arch1-1");
	snprintf(p, sizeof p, "%s/boot/vmlinuz-linux-lts", tmp);
	write_bzimage(p, "6.6.14-1-lts");
	struct boot_menu m;
	char err[512];
	assert_int_equal(bootcfg_read(&m, tmp, err, sizeof err), 0);
	assert_int_equal(m.loader, BOOTCFG_SDBOOT);
	assert_string_equal(m.config, "/boot/loader/entries");
	assert_int_equal(m.n, 3);
	const struct boot_entry *e = bootcfg_find(&m, "6.7.2-arch1-1", err, sizeof err);
	assert_non_null(e);
	assert_string_equal(e->id, "arch.conf"); /* not the fallback initramfs */
	e = bootcfg_find(&m, "6.6.14-1-lts", err, sizeof err);
	assert_string_equal(e->id, "arch-lts.conf");
	assert_true(bootcfg_find(&m, "arch-fallback.conf", err, sizeof err)->recovery);
	const char *argv[4];
	bootcfg_oneshot_argv(&m, e, argv);
	assert_string_equal(argv[0], "bootctl");
	assert_string_equal(argv[1], "set-oneshot");
	assert_string_equal(argv[2], "arch-lts.conf");
	bootcfg_free(&m);
	/* A grub.cfg beside the entries: systemd-boot only when the firmware says
	 * it started this boot (its LoaderInfo variable, UTF-16 after 4 bytes). */
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/boot/grub' '%s/sys/firmware/efi/efivars' && cp '%s/boot/grub/grub.cfg' '%s/boot/grub/'",
		 tmp, tmp, fixture("debian12"), tmp);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(bootcfg_read(&m, tmp, err, sizeof err), 0);
	assert_int_equal(m.loader, BOOTCFG_GRUB);
	bootcfg_free(&m);
	snprintf(p, sizeof p, "%s/sys/firmware/efi/efivars/LoaderInfo-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f", tmp);
	FILE *f = fopen(p, "wb");
	assert_non_null(f);
	const char *info = "systemd-boot 255.2-1";
	fwrite("\x06\0\0\0", 1, 4, f);
	for (const char *c = info; *c; c++)
		fwrite((char[]){ *c, 0 }, 1, 2, f);
	fclose(f);
	assert_int_equal(bootcfg_read(&m, tmp, err, sizeof err), 0);
	assert_int_equal(m.loader, BOOTCFG_SDBOOT);
	bootcfg_free(&m);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static void test_none(void **state)
{
	struct boot_menu m;
	char err[512];
	assert_int_equal(bootcfg_read(&m, "/nonexistent-kbench-root", err, sizeof err), -1);
	assert_non_null(strstr(err, "no boot loader configuration found"));
	assert_int_equal(m.loader, BOOTCFG_NONE);
}

static int parse(struct boot_menu *m, const char *text)
{
	memset(m, 0, sizeof *m);
	return bootcfg_parse_grub(m, text, strlen(text));
}

/* What grub.cfg allows beyond what generators write: entries on one line, ids
 * by --id, escaped quotes, nested submenus; and what it must survive. */
static void test_grub_syntax(void **state)
{
	struct boot_menu m;
	assert_int_equal(parse(&m, "menuentry 'One' --id one { linux /vmlinuz-1.2.3 ro; initrd /i }\n"
				   "submenu \"Outer \\\"quoted\\\"\" --id=outer {\n"
				   "  submenu Inner {\n"
				   "    menuentry \"Deep\" --class x --hotkey d { linux (hd0,gpt2)/boot/vmlinuz-4.5.6-zen }\n"
				   "  }\n"
				   "}\n"
				   "function f { menuentry 'not an entry' { linux /vmlinuz-9 } }\n"
				   "# menuentry 'a comment' {\n"),
			 2);
	assert_string_equal(m.e[0].id, "one");
	assert_string_equal(m.e[0].release, "1.2.3");
	assert_string_equal(m.e[1].title, "Outer \"quoted\">Inner>Deep");
	assert_string_equal(m.e[1].id, "outer>Inner>Deep");
	assert_string_equal(m.e[1].kernel, "/boot/vmlinuz-4.5.6-zen");
	assert_string_equal(m.e[1].release, "4.5.6-zen");
	bootcfg_free(&m);
	/* Broken texts: an unclosed quote, unbalanced braces, NUL bytes, a
	 * depth past the parser's: entries as far as they go, no crash. */
	static const char nul[] = "menuentry 'a\0b' { linux /vmlinuz-1 }";
	memset(&m, 0, sizeof m);
	assert_int_equal(bootcfg_parse_grub(&m, nul, sizeof nul - 1), 1);
	bootcfg_free(&m);
	assert_int_equal(parse(&m, "menuentry 'never closed { linux /vmlinuz-1"), 0);
	bootcfg_free(&m);
	assert_int_equal(parse(&m, "} } } menuentry x { }"), 1);
	bootcfg_free(&m);
	char deep[4096] = "";
	for (int i = 0; i < 40; i++)
		strcat(deep, "submenu s {\n");
	strcat(deep, "menuentry e { linux /vmlinuz-7.0 }\n");
	parse(&m, deep);
	assert_true(m.n <= 1);
	bootcfg_free(&m);
}

static void test_bls_syntax(void **state)
{
	struct boot_menu m = { 0 };
	const char *t = "# comment\n  title   Spaced  Title  \r\nversion\t6.8.0\nlinux /x\n";
	assert_int_equal(bootcfg_parse_bls(&m, "e.conf", t, strlen(t), false), 1);
	assert_string_equal(m.e[0].id, "e");
	assert_string_equal(m.e[0].title, "Spaced  Title");
	assert_string_equal(m.e[0].release, "6.8.0");
	/* no kernel: no Linux entry (a Windows entry with efi= has one: its loader) */
	assert_int_equal(bootcfg_parse_bls(&m, "w.conf", "title W\n", 8, true), 0);
	assert_int_equal(m.n, 1);
	bootcfg_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian),	    cmocka_unit_test(test_ubuntu),
		cmocka_unit_test(test_fedora),	    cmocka_unit_test(test_arch),
		cmocka_unit_test(test_none),	    cmocka_unit_test(test_grub_syntax),
		cmocka_unit_test(test_bls_syntax),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
