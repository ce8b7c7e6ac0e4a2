/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boot loader's menu as a plan needs it: its entries from grub.cfg or Boot Loader Specification files, and the one-shot command for each. */
#ifndef KBENCH_BOOTCFG_H
#define KBENCH_BOOTCFG_H

#include <stdbool.h>
#include <stddef.h>

enum bootcfg_loader {
	BOOTCFG_NONE,   /* no configuration found */
	BOOTCFG_GRUB,   /* GRUB 2: grub-reboot (grub2-reboot on Fedora) */
	BOOTCFG_SDBOOT, /* systemd-boot: bootctl set-oneshot */
};

/* One entry of the menu. */
struct boot_entry {
	char id[256];     /* what the one-shot command takes: GRUB's ids, submenus
			     first, joined by '>' ("gnulinux-advanced-UUID>gnulinux-6.1.0-13-amd64-advanced-UUID"),
			     the titles when an entry has no id; a BLS entry's file name
			     (systemd-boot keeps ".conf", GRUB's blscfg drops it) */
	char title[256];  /* the menu's words, submenus first, joined by '>' */
	char kernel[256]; /* the image as the configuration names it ("/boot/vmlinuz-6.1.0-13-amd64") */
	char release[96]; /* the kernel release it boots, as uname -r says it; "" unknown */
	bool recovery;    /* recovery mode, a rescue kernel or a fallback initramfs */
};

struct boot_menu {
	enum bootcfg_loader loader;
	bool bls;          /* GRUB reading BLS entries (Fedora's blscfg) */
	char config[512];  /* what was read: a file, or a directory of entries */
	int n, cap;
	struct boot_entry *e;
};

/* Adds the entries of a grub.cfg text (menuentry and submenu blocks, nested;
 * functions and other commands are passed over). Returns how many it added.
 * Sets m->bls when the text loads BLS entries (blscfg). Never fails: text it
 * cannot read as an entry is not one. */
int bootcfg_parse_grub(struct boot_menu *m, const char *text, size_t len);

/* Adds one Boot Loader Specification entry (a loader/entries/NAME.conf file's
 * text): its id is NAME with ".conf" when keep_suffix (systemd-boot), else
 * without (GRUB). Returns 1, or 0 when the text names no kernel (no linux or
 * efi line: not a Linux entry). */
int bootcfg_parse_bls(struct boot_menu *m, const char *name, const char *text, size_t len, bool keep_suffix);

/* The release a kernel image says it is: an x86 bzImage's version string (its
 * setup header, Documentation/arch/x86/boot.rst: kernel_version). 0 with the
 * release in buf, or -1 (not a bzImage, unreadable). */
int bootcfg_image_release(const char *path, char *buf, size_t size);

/* Reads this machine's boot loader configuration under root ("" for /):
 * systemd-boot's entries when the firmware says systemd-boot started this
 * boot (the LoaderInfo EFI variable) or no grub.cfg exists beside them, else
 * grub.cfg (/boot/grub, /boot/grub2) with the BLS entries blscfg reads. An
 * entry whose image names no release (Arch's /vmlinuz-linux) takes it from the
 * image's header when it can be read. 0, or -1 with err filled (no boot loader
 * configuration found, or none readable: kbench must then be told by hand). */
int bootcfg_read(struct boot_menu *m, const char *root, char *err, size_t errlen);

/* The entry that boots `want`: an entry id or title (exact), else a kernel
 * release: the entries that boot it, recovery ones last, and of those one
 * whose id names the release (GRUB's advanced entries, which stay what they
 * are when another kernel is installed) before one that does not (the
 * "simple" entry, which always boots the newest). NULL with why filled. */
const struct boot_entry *bootcfg_find(const struct boot_menu *m, const char *want, char *why, size_t whylen);

/* The command that boots entry e once, at the next boot only, without
 * changing the default: argv[0..2] and NULL ("grub-reboot ID", "bootctl
 * set-oneshot ID"); grub2-reboot where only that is on PATH. */
void bootcfg_oneshot_argv(const struct boot_menu *m, const struct boot_entry *e, const char *argv[4]);

const char *bootcfg_loader_name(enum bootcfg_loader l); /* "GRUB", "systemd-boot", "none" */
void bootcfg_free(struct boot_menu *m);

#endif
