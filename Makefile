# SPDX-License-Identifier: GPL-2.0-or-later
# kbench: build, test, install. `make deps` installs what the build needs.
# The version comes from one place, the VERSION file (what the next or current
# release is called). In a git checkout `git describe` says more: the release tag
# itself (v0.2.0 -> 0.2.0), or how far past it and at which commit
# (0.2.0-3-gabc1234, -dirty with uncommitted changes); with no tag yet, VERSION
# plus the commit (0.2.0+gabc1234). A tarball (`make dist`) has no .git and
# carries the version it was cut at in its VERSION file. VERSION=... overrides.
# Compile on every CPU unless a -j was given: a fresh clone's make test built one file at a time
# (about 1.5 min of its time on 2 CPUs). GNU make 4.3 and later take this; older ones ignore it.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif
VERSION_FILE := $(strip $(shell cat VERSION 2>/dev/null))
GIT_VERSION   = $(shell [ -e .git ] || exit 0; \
                  if v=$$(git describe --tags --match 'v[0-9]*' $(1) 2>/dev/null); then echo "$${v\#v}"; \
                  elif h=$$(git describe --always $(1) 2>/dev/null); then echo "$(VERSION_FILE)+g$$h"; fi)
ifeq ($(origin VERSION),undefined)
VERSION   := $(or $(call GIT_VERSION,--dirty),$(VERSION_FILE))
endif
PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR     = $(PREFIX)/bin
DATADIR    = $(PREFIX)/share/kbench
MANDIR     = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
LIBEXECDIR = $(PREFIX)/libexec/kbench

CC        ?= cc

# 32-bit and cross builds (docs/netbooks-arm.md): `make ARCH=i686`
# builds with gcc -m32 and Debian's i386 multiarch libraries, `make ARCH=arm64`
# with aarch64-linux-gnu-gcc and the arm64 ones, each into its own build
# directory (build-i686, build-arm64), leaving build/ and ./kbench alone. ARCH
# counts only on make's command line: a kernel tree's ARCH in the environment
# must not turn a native build into a cross build, and kbench's ARCH is not
# passed on to the tests, which build kernels.
ifeq ($(origin ARCH),command line)
KB_ARCH   := $(ARCH)
unexport ARCH
endif
KB_ARCH   ?= native
ifeq ($(KB_ARCH),i686)
KB_TRIPLET = i686-linux-gnu
KB_MULTIARCH = i386-linux-gnu
KB_DEB_ARCH = i386
KB_CC      = gcc -m32
else ifeq ($(KB_ARCH),arm64)
KB_TRIPLET = aarch64-linux-gnu
KB_MULTIARCH = aarch64-linux-gnu
KB_DEB_ARCH = arm64
KB_CC      = aarch64-linux-gnu-gcc
else ifneq ($(KB_ARCH),native)
$(error ARCH=$(KB_ARCH): kbench builds for ARCH=i686 or ARCH=arm64 (or natively, without ARCH))
endif
# How to run the target's programs here (docs, unit tests): arm64's under
# qemu-user on another CPU, with the arm64 multiarch loader and libraries.
KB_EXEC    =
ifeq ($(KB_ARCH),arm64)
ifneq ($(shell uname -m),aarch64)
KB_EXEC    = qemu-aarch64-static
endif
endif
# i686's under qemu-user too where this kernel cannot run 32-bit programs (IA32 emulation
# built out or switched off, as on some cloud VMs): the 32-bit loader itself is tried. The
# man page is then printed by the 32-bit binary under qemu-user; the tests are not run
# there (qemu-i386's signal return is not trusted with the workloads' timers).
ifeq ($(KB_ARCH),i686)
ifneq ($(wildcard /lib/ld-linux.so.2),)
ifneq ($(shell /lib/ld-linux.so.2 --version >/dev/null 2>&1 && echo ok),ok)
KB_NO32    = this kernel cannot run 32-bit programs (IA32 emulation off)
KB_EXEC    = qemu-i386-static
endif
endif
endif
ifneq ($(KB_ARCH),native)
ifeq ($(origin CC),default)
CC         = $(KB_CC)
endif
# Without the target's compiler every later check (SQLite's header first) would
# fail with a message about something else.
ifeq ($(filter deps clean format format-check,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(firstword $(CC))),)
$(error ARCH=$(KB_ARCH): the compiler $(firstword $(CC)) is not installed; run 'make deps ARCH=$(KB_ARCH)')
endif
endif
# i686 against the i386 libraries make deps unpacked into build-deps/i686-root when apt
# could not install them (tests/tools/i386_root.sh): found there, linked with their path.
KB_I386_ROOT = $(CURDIR)/build-deps/i686-root
ifeq ($(KB_ARCH)$(wildcard $(KB_I386_ROOT)/packages),i686$(KB_I386_ROOT)/packages)
KB_I386_LIB = $(KB_I386_ROOT)/usr/lib/i386-linux-gnu:$(KB_I386_ROOT)/lib/i386-linux-gnu
KB_CC     += -idirafter $(KB_I386_ROOT)/usr/include $(patsubst %,-L%,$(subst :, ,$(KB_I386_LIB))) -Wl,-rpath,$(KB_I386_LIB)
ifeq ($(origin PKG_CONFIG),undefined)
PKG_CONFIG = env PKG_CONFIG_LIBDIR=$(KB_I386_ROOT)/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig pkg-config
endif
endif
# The target's pkg-config: its triplet's wrapper where installed, else
# pkg-config reading only the target's multiarch directory.
ifeq ($(origin PKG_CONFIG),undefined)
PKG_CONFIG = $(if $(shell command -v $(KB_TRIPLET)-pkg-config),$(KB_TRIPLET)-pkg-config,env PKG_CONFIG_LIBDIR=/usr/lib/$(KB_MULTIARCH)/pkgconfig:/usr/share/pkgconfig pkg-config)
endif
endif
PKG_CONFIG ?= pkg-config

PKGS       = ncursesw jansson sqlite3
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -lncursesw -ltinfo -ljansson -lsqlite3)

# The run store's index is SQLite (src/store/storeidx.c): without its headers the
# build stops here with what to install, rather than at a compiler error.
ifeq ($(filter deps clean format format-check,$(MAKECMDGOALS)),)
ifneq ($(shell printf '\043include <sqlite3.h>\n' | $(CC) $(PKG_CFLAGS) -E -x c - >/dev/null 2>&1 && echo ok),ok)
$(error SQLite is missing: kbench keeps its run index in SQLite; install libsqlite3-dev (Debian) or sqlite-devel (Fedora), or run 'make deps')
endif
endif

# kbench's own code.
CFLAGS    ?= -O2 -g
WARN       = -Wall -Wextra -Wno-unused-parameter -Wno-format-truncation
# 64-bit file offsets and time_t on 32-bit machines too (no-ops on 64-bit):
# scratch files past 2 GiB, and dates past 2038 in run files.
DEFS       = -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 -DKBENCH_VERSION='"$(VERSION)"' -DKBENCH_DATADIR='"$(DATADIR)"' \
             -DKBENCH_LIBEXECDIR='"$(LIBEXECDIR)"'
# src/ is one folder per part (docs/HACKING.md, Layout); a header is included by its name,
# a telemetry or workload header by telemetry/NAME.h, workloads/NAME.h.
SRC_PARTS  = base record engine registry families store compare session plan cli
SRC_INC    = -Isrc $(patsubst %,-Isrc/%,$(SRC_PARTS))
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(WARN) $(DEFS) $(SRC_INC) -Iui $(PKG_CFLAGS)
LIBS       = $(PKG_LIBS) -lpfm -lsensors -lm

# The kbench binary links its libraries statically and is not PIE: it
# starts without applying libpfm4's ~43,600 relocations. Where an archive is
# missing, the shared library is used. (The exec and fork loops do not run
# in it: see kbench-exec below.)
static_or_shared = $(if $(filter /%,$(shell $(CC) -print-file-name=lib$(1).a)),$(shell $(CC) -print-file-name=lib$(1).a),-l$(1))
BIN_LIBS   = $(foreach l,pfm sensors jansson sqlite3 ncursesw tinfo,$(call static_or_shared,$(l))) -lm
BIN_LDFLAGS = -no-pie
# LINK_STATIC=0 links the shared libraries instead, as a distribution's package
# does (debian/rules, the RPM spec): their security fixes then reach kbench. PIE
# then, as the distribution builds everything: the libraries are relocated anyway,
# and no exec loop runs in kbench itself (kbench-exec below).
ifeq ($(LINK_STATIC),0)
BIN_LIBS   = $(LIBS)
BIN_LDFLAGS =
endif
ifeq ($(SAN),1)
BIN_LIBS   = $(LIBS)
BIN_LDFLAGS =
endif

# The workloads are compiled the way UnixBench 6.0.0 compiles its programs
# (its OPTON on Linux x86-64), not with kbench's flags: the scores must match.
# -march=native is right when the compiler targets the machine it runs on; a
# binary for another CPU (ARCH=i686 or arm64, a Debian cross build's CC, gcc
# -m32) takes the named baseline of its target instead, which the run records
# with the build flags: i686 is Debian i386's baseline (every netbook's Atom,
# no SSE needed), armv8-a Debian arm64's (Raspberry Pi 3 and later).
KB_TARGET := $(shell echo | $(CC) $(CFLAGS) -dM -E - 2>/dev/null | \
	sed -n 's/^\#define __\(x86_64\|i386\|aarch64\|arm\)__ 1$$/\1/p' | head -n 1)
KB_HOST   := $(shell uname -m | sed 's/^i[3-6]86$$/i386/; s/^arm64$$/aarch64/; s/^armv.*/arm/')
ifeq ($(KB_TARGET),$(KB_HOST))
WL_ARCH_FLAGS = -march=native -mtune=native
else ifeq ($(KB_TARGET),i386)
WL_BASELINE = i686
WL_ARCH_FLAGS = -march=i686 -mtune=generic
else ifeq ($(KB_TARGET),aarch64)
WL_BASELINE = armv8-a
WL_ARCH_FLAGS = -march=armv8-a -mtune=generic
else ifeq ($(KB_TARGET),x86_64)
WL_BASELINE = x86-64
WL_ARCH_FLAGS = -march=x86-64 -mtune=generic
else
WL_BASELINE = the compiler's default
WL_ARCH_FLAGS =
endif
# `make bench-fidelity ARCH=i686` on an x86 machine sets a 32-bit kbench beside
# UnixBench built with `make CC="gcc -m32"` here, whose Makefile adds -march=native
# -mtune=native: this CPU runs both, so kbench's workloads take the same flags
# (not the i686 baseline of a binary meant for a netbook), in a build directory of
# their own that leaves build-i686's baseline build alone.
ifneq ($(filter bench-fidelity bench-fidelity-cpu,$(MAKECMDGOALS)),)
ifeq ($(KB_ARCH)-$(KB_TARGET),i686-i386)
ifneq ($(filter i386 x86_64,$(KB_HOST)),)
KB_FIDELITY32 = 1
WL_BASELINE =
WL_ARCH_FLAGS = -march=native -mtune=native
endif
endif
endif
WL_CFLAGS ?= -O3 -ffast-math $(WL_ARCH_FLAGS)
# i386: gcc notes at every file that struct worker_slot's 64-bit atomics are
# aligned as GCC 11 aligns them; the slots are shared only between kbench and
# kbench-exec, built by one compiler, so the note is noise.
ifeq ($(KB_TARGET),i386)
KB_NOPSABI = -Wno-psabi
# kbench's own code (not the workloads, compiled as UnixBench's are) rounds
# to double wherever C says a value is one: gnu11's default lets x87 keep 80
# bits in stored variables too. Ranks and thresholds are also computed so that
# excess precision cannot move them (docs/netbooks-arm.md).
KB_FPFLAGS = -fexcess-precision=standard
endif
WARN      += $(KB_NOPSABI)
ALL_CFLAGS += $(KB_FPFLAGS)
KB_BASELINE_NOTE = $(if $(WL_BASELINE), (for another CPU: baseline $(WL_BASELINE)))

BUILD      = build
ifneq ($(KB_ARCH),native)
BUILD      = build-$(KB_ARCH)
endif
ifeq ($(KB_FIDELITY32),1)
BUILD      = build-i686-fidelity
endif
ifeq ($(SAN),1)
BUILD      = build-san
ifneq ($(KB_ARCH),native)
BUILD      = build-$(KB_ARCH)-san
endif
SANFLAGS   = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ALL_CFLAGS += $(SANFLAGS)
WL_CFLAGS  += $(SANFLAGS) -g
LDFLAGS    += $(SANFLAGS)
endif
ALL_CFLAGS += -DKBENCH_BUILD_FLAGS='"$(CC) $(CFLAGS) | workloads: $(WL_CFLAGS)$(KB_BASELINE_NOTE)"'

ENGINE_SRC = $(filter-out src/cli/main.c,$(wildcard $(patsubst %,src/%/*.c,$(SRC_PARTS)) src/telemetry/*.c))
WL_SRC     = $(wildcard src/workloads/*.c)
UI_SRC     = $(wildcard ui/*.c)
LIB_OBJ    = $(patsubst %.c,$(BUILD)/%.o,$(ENGINE_SRC) $(UI_SRC)) \
             $(patsubst %.c,$(BUILD)/%.o,$(WL_SRC))
MAIN_OBJ   = $(BUILD)/src/cli/main.o
UNIT_SRC   = $(wildcard tests/unit/test_*.c)
UNIT_BIN   = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
DEPFLAGS   = -MMD -MP

.PHONY: all deps run test unit unit-build bench bench-quick bench-fidelity bench-verdicts install uninstall clean format format-check docs help
##u make                 build ./kbench, its man page and bash completion (build/)
all: kbench docs

# make help: the targets, one line each, from the comments beside their rules: "##u " a
# user's target, "##d " a contributor's.
help:
	@echo "Using kbench:"; sed -n 's/^##u /  /p' $(firstword $(MAKEFILE_LIST))
	@echo "Developing kbench (docs/HACKING.md):"; sed -n 's/^##d /  /p' $(firstword $(MAKEFILE_LIST))

# The man page and the bash completion are printed by the binary from its option
# table (src/cli/options_table.c), so they cannot disagree with what it parses.
##u make docs            the man page and bash completion, printed by the binary from its option table
docs: $(BUILD)/kbench.1 $(BUILD)/kbench.bash-completion
$(BUILD)/kbench.1: $(BUILD)/kbench
	$(KB_EXEC) $(BUILD)/kbench help --man >$@.tmp && mv -f $@.tmp $@
$(BUILD)/kbench.bash-completion: $(BUILD)/kbench
	$(KB_EXEC) $(BUILD)/kbench completion bash >$@.tmp && mv -f $@.tmp $@

# The files that print KBENCH_VERSION are compiled again when it changes (a new
# commit, a tag, a dirty tree): a stamp rewritten only when its text differs.
VERSION_USERS = $(patsubst %.c,$(BUILD)/%.o,$(shell grep -l KBENCH_VERSION src/*.c src/*/*.c ui/*.c 2>/dev/null))
$(VERSION_USERS): $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' >$@
.PHONY: FORCE
FORCE:

$(BUILD)/kbench: $(MAIN_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $^ $(BIN_LIBS)

# kbench-skeleton: kbench with the skeleton family listed too (src/families/skeleton/: a
# whole family on the defaults, the recipe in docs/HACKING.md), which `make test` builds and
# tests/system/family_skeleton.sh takes end to end, so the recipe cannot go stale. Only the
# registry differs, compiled again with KBENCH_SKELETON; the skeleton's loop, skeleton_loop.c,
# takes the workloads' flags as every family's loop does.
SKEL_SRC   = $(wildcard src/families/skeleton/*.c)
SKEL_OBJ   = $(patsubst %.c,$(BUILD)/%.o,$(SKEL_SRC)) $(BUILD)/src/registry/family_list_skeleton.o
$(BUILD)/src/registry/family_list_skeleton.o: src/registry/family_list.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -DKBENCH_SKELETON $(DEPFLAGS) -c -o $@ $<
$(BUILD)/kbench-skeleton: $(MAIN_OBJ) $(filter-out $(BUILD)/src/registry/family_list.o,$(LIB_OBJ)) $(SKEL_OBJ)
	$(CC) $(LDFLAGS) $(BIN_LDFLAGS) -o $@ $^ $(BIN_LIBS)

# kbench-exec: the small program the execl, spawn and sysexec loops and the
# shell, grep and C compiler loops run in (src/helper/kbench-exec.c says
# why). Built as UnixBench builds execl, spawn and looper: its compiler
# flags, linked dynamically against libc only, PIE as the compiler's default.
HELPER_OBJ = $(BUILD)/src/helper/kbench-exec.o $(BUILD)/src/engine/workload.o \
             $(patsubst %,$(BUILD)/src/workloads/%.o,execl spawn syscall looper)
$(BUILD)/kbench-exec: $(HELPER_OBJ)
	$(CC) $(WL_CFLAGS) -o $@ $^

$(BUILD)/src/helper/%.o: src/helper/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WL_CFLAGS) -Wall -Wextra $(KB_NOPSABI) $(DEFS) $(SRC_INC) $(DEPFLAGS) -c -o $@ $<

kbench: $(BUILD)/kbench $(BUILD)/kbench-exec
ifeq ($(SAN),1)
	@echo "sanitized build: $(BUILD)/kbench"
else ifneq ($(BUILD),build)
	@echo "$(BUILD)/kbench and $(BUILD)/kbench-exec built (./kbench is the native build's)"
else
	cp $(BUILD)/kbench $@.tmp && mv -f $@.tmp $@  # a running kbench keeps its old file
endif

$(BUILD)/src/workloads/%.o: src/workloads/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WL_CFLAGS) -Wall $(KB_NOPSABI) $(DEFS) $(SRC_INC) $(DEPFLAGS) -c -o $@ $<

# A family's loop lives beside its family, as NAME_loop.c (src/families/memlat_loop.c):
# the workers run it, so it takes the workloads' flags as UnixBench's loops do.
$(BUILD)/src/families/%_loop.o: src/families/%_loop.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(WL_CFLAGS) -Wall $(KB_NOPSABI) $(DEFS) $(SRC_INC) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Itests/unit -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS) -lcmocka

# The tests' own programs: a known slowdown of system calls for the plan tests
# (tests/tools/slow_syscalls.c) and the pace probe the pace source is checked
# against (tests/bench/pace_probe.c, make bench-host-pace's), found by the tests in $(BUILD).
TOOLS_BIN  = $(BUILD)/slow_syscalls $(BUILD)/pace_probe
$(BUILD)/slow_syscalls: tests/tools/slow_syscalls.c
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 $(CFLAGS) $(WARN) -o $@ $<
$(BUILD)/pace_probe: tests/bench/pace_probe.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDFLAGS)

# Debian/Ubuntu packages; other distributions: see the list it prints. chromium and
# python3-pil are for the tests only: the HTML report is checked in a real browser.
DEB_PKGS = build-essential pkg-config libncurses-dev libjansson-dev libpfm4-dev \
           libsensors-dev libcmocka-dev tmux locales util-linux procps python3 valgrind \
           chromium python3-pil libsqlite3-dev sqlite3
# libsqlite3-dev: the store's index (src/store/storeidx.c); sqlite3, the command: the store
# tests look into the index with it.
# The export tests: a markdown parser renders the pasted tables; LAVA's test
# definition schema (voluptuous) and a YAML reader check contrib/lava/kbench.yaml.
DEB_PKGS += python3-markdown python3-voluptuous python3-yaml
# The machine corpus (tests/system/telemetry_machines.sh): lm-sensors' own `sensors -u` referees.
DEB_PKGS += lm-sensors
# The packages (docs/packaging.md): building the .deb and the RPM, lintian,
# and a clean Debian root for make package-test.
DEB_PKGS += dpkg-dev debhelper lintian debootstrap rpm
# `make deps ARCH=i686|arm64` adds the target's multiarch architecture and its
# libraries, and its compiler (i686: libc6-dbg:i386 too, without which valgrind
# cannot start a 32-bit program; arm64: the cross compiler and qemu-user to run the
# unit tests, and a whole arm64 machine: qemu-system and Debian's arm64 kernel).
KB_LIBS_DEV = libncurses-dev libjansson-dev libsqlite3-dev libpfm4-dev libsensors-dev libcmocka-dev
ifeq ($(KB_ARCH),i686)
DEB_CROSS  = gcc-multilib libc6-dbg:i386 $(addsuffix :i386,$(KB_LIBS_DEV))
FEDORA_CROSS = glibc-devel.i686 ncurses-devel.i686 jansson-devel.i686 sqlite-devel.i686 libpfm-devel.i686 lm_sensors-devel.i686 libcmocka-devel.i686
else ifeq ($(KB_ARCH),arm64)
DEB_CROSS  = gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static $(addsuffix :arm64,$(KB_LIBS_DEV))
# qemu-system-arm and cpio: a whole arm64 machine for what qemu-user cannot run
# (tests/tools/arm64_vm.sh; deps also fetches Debian's arm64 kernel for it into build-arm64/vm)
DEB_CROSS += qemu-system-arm cpio
FEDORA_CROSS = (none: Fedora packages no arm64 libraries for a cross build; build on the board)
endif
# A Debian mirror can be mid-sync for an hour (an index of one architecture older than
# another's, so multiarch versions cannot match): the install is tried DEPS_TRIES times,
# DEPS_WAIT seconds apart, each failure naming what is not installed; then it fails.
# apt sees only the machine's own architecture and the target's: a broken index of another
# foreign architecture (i386's, say, when arm64 is installed) would otherwise make apt drop
# every index of that suite, arm64's too, and leave versions that cannot match.
DEPS_TRIES ?= 8
DEPS_WAIT ?= 90
##u make deps            install the build and test dependencies (apt-get; elsewhere: the list)
deps:
	@echo "kbench needs: $(DEB_PKGS) $(DEB_CROSS)"
	@echo "(Fedora: gcc make pkgconf ncurses-devel jansson-devel sqlite-devel sqlite libpfm-devel lm_sensors-devel libcmocka-devel tmux glibc-langpack-en procps-ng util-linux python3 valgrind chromium python3-pillow python3-markdown python3-voluptuous python3-pyyaml lm_sensors rpm-build $(FEDORA_CROSS))"
	@if command -v apt-get >/dev/null; then \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		if [ -n "$(KB_DEB_ARCH)" ] && ! dpkg --print-foreign-architectures | grep -qx "$(KB_DEB_ARCH)"; then \
			$$SUDO dpkg --add-architecture $(KB_DEB_ARCH) || exit 1; \
		fi; \
		archs="-o APT::Architectures::=$$(dpkg --print-architecture)"; \
		[ -z "$(KB_DEB_ARCH)" ] || archs="$$archs -o APT::Architectures::=$(KB_DEB_ARCH)"; \
		try=1; log=$$(mktemp); \
		while :; do \
			$$SUDO apt-get update -qq $$archs >"$$log" 2>&1; \
			DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$archs $(DEB_PKGS) $(DEB_CROSS) >>"$$log" 2>&1 && break; \
			missing=; for p in $(DEB_PKGS) $(DEB_CROSS); do \
				dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
			done; \
			grep '^E:' "$$log" | sort -u | sed 's/^/  apt-get: /'; \
			if [ "$(KB_ARCH)" = i686 ] && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
				-o APT::Architectures::=$$(dpkg --print-architecture) $(DEB_PKGS) gcc-multilib >>"$$log" 2>&1 && \
				sh tests/tools/i386_root.sh $(KB_I386_ROOT) $(KB_LIBS_DEV); then \
				echo "make deps: apt cannot install the i386 packages (above): their libraries are in"; \
				echo "  build-deps/i686-root instead, which make ARCH=i686 builds against (without"; \
				echo "  libc6-dbg:i386, valgrind cannot start the 32-bit kbench)"; \
				i386_root=1; break; \
			fi; \
			if [ "$$try" -ge $(DEPS_TRIES) ]; then \
				echo "make deps: not installed after $$try tries:$$missing"; rm -f "$$log"; exit 1; \
			fi; \
			echo "make deps: try $$try of $(DEPS_TRIES) failed (a mirror mid-sync?), not installed:$$missing; again in $(DEPS_WAIT) s"; \
			sleep $(DEPS_WAIT); try=$$((try + 1)); \
		done; rm -f "$$log"; \
		[ "$(KB_ARCH)" != i686 ] || [ -n "$${i386_root:-}" ] || rm -rf $(KB_I386_ROOT); \
		if ! locale -a 2>/dev/null | grep -qi '^en_US.utf8$$'; then \
			$$SUDO sed -i 's/^# *en_US.UTF-8 UTF-8/en_US.UTF-8 UTF-8/' /etc/locale.gen && \
			$$SUDO locale-gen >/dev/null; \
		fi; \
		if [ "$(KB_ARCH)" = arm64 ]; then \
			sh tests/tools/arm64_vm.sh fetch build-arm64/vm || \
				echo "no arm64 kernel fetched: tests/system/arm64_system.sh will say so"; \
		fi; \
		echo "deps installed"; \
	else echo "no apt-get here: install the packages above with your package manager"; exit 1; fi

##u make run             build and open the console
run: kbench
	./kbench

##d make test            unit and system tests; TESTS="name ..." picks some, JOBS=N runs N at once
##d make test SAN=1      the same under AddressSanitizer and UBSan (build-san/)
##d make ARCH=i686       a 32-bit build in build-i686/; ARCH=arm64 a cross build in build-arm64/
test: kbench docs $(UNIT_BIN) $(TOOLS_BIN) $(BUILD)/kbench-skeleton $(BUILD)/probe_driver
ifneq ($(KB_NO32),)
	@echo "make test ARCH=$(KB_ARCH): $(KB_NO32): kbench, kbench-exec and the unit-test programs are built in $(BUILD)/, none is run"; exit 1
endif
	@KBENCH=$(abspath $(BUILD)/kbench) BUILD=$(BUILD) sh tests/tools/run.sh

# The probe corpus's driver (tests/system/telemetry_probes.sh): kbench's sensors report on every
# probe's tree from one process, not a kbench start per probe and user.
$(BUILD)/probe_driver: tests/tools/probe_driver.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

##d make unit            the unit tests alone (TESTS= narrows them; ARCH=arm64: under qemu-user)
# The unit tests alone (ARCH=arm64: under qemu-user). TESTS narrows them.
unit: $(UNIT_BIN)
ifneq ($(KB_NO32),)
	@echo "make unit ARCH=$(KB_ARCH): $(KB_NO32): the unit-test programs are built in $(BUILD)/tests, none is run"; exit 1
endif
	@KBENCH=$(abspath $(BUILD)/kbench) BUILD=$(BUILD) KBENCH_EXEC="$(KB_EXEC)" \
		TESTS="$(if $(TESTS),$(TESTS),test_)" sh tests/tools/run.sh

##d make unit-build      the unit-test programs built, not run (a kernel that cannot run them)
unit-build: $(UNIT_BIN)

##d make bench           what kbench's own machinery costs, side by side (not in CI)
bench: kbench $(BUILD)/observer_driver
	@sh tests/bench/bench.sh ./$(BUILD)/kbench
$(BUILD)/observer_driver: tests/bench/observer_driver.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

# libFuzzer targets for the parsers (clang): `make fuzz` builds them into
# build-fuzz/ and runs each for FUZZ_SECONDS on its corpus in tests/fuzz/corpus/ (new
# inputs go to build-fuzz/corpus-NAME, so the seed corpora stay as committed).
FUZZ_SECONDS ?= 60
# Each target runs in an empty directory of its own, which must stay empty: a
# parser given fuzz bytes writes no file (`sensors --dump FILE` once wrote 1,613).
FUZZ_WROTE_NOTHING = [ -z "$$(ls -A build-fuzz/cwd-$$t)" ] || \
	{ echo "fuzz_$$t wrote files where it ran: $$(ls -A build-fuzz/cwd-$$t | head -n 5)"; exit 1; }
##d make fuzz            every parser under libFuzzer (clang), FUZZ_SECONDS each (default 60)
.PHONY: fuzz fuzzers
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" \
		WL_CFLAGS="-O1 -g" fuzzers
	@for t in runfile import theme cli bootcfg boottime plan; do \
		echo "fuzzing $$t for $(FUZZ_SECONDS) s"; \
		mkdir -p build-fuzz/corpus-$$t; rm -rf build-fuzz/cwd-$$t; mkdir build-fuzz/cwd-$$t; \
		(cd build-fuzz/cwd-$$t && ../fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			../corpus-$$t ../../tests/fuzz/corpus/$$t >../fuzz_$$t.log 2>&1); rc=$$?; \
		tail -n 2 build-fuzz/fuzz_$$t.log; [ $$rc = 0 ] || exit 1; \
		$(FUZZ_WROTE_NOTHING); \
	done
# make fuzz-long: each target to FUZZ_RUNS executions (10 million: hours on a small
# machine); each prints its count and stops at the first crash. FUZZ_TARGETS picks
# some. Under ASan one input costs: theme and cli well under 1 ms, runfile about
# 0.5 ms (jansson's node-by-node allocations through ASan's allocator, and the run
# written back out), import 2-4 ms (every importer tries the text; libFuzzer's
# feature bookkeeping for its ~15,000 features): 10 million is minutes for theme
# and cli, hours for runfile and import on one core.
FUZZ_RUNS ?= 10000000
FUZZ_TARGETS ?= runfile import theme cli bootcfg boottime plan
##d make fuzz-long       the same, each parser to FUZZ_RUNS executions (hours)
.PHONY: fuzz-long
fuzz-long:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" \
		WL_CFLAGS="-O1 -g" fuzzers
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzzing $$t to $(FUZZ_RUNS) executions"; \
		mkdir -p build-fuzz/corpus-$$t; rm -rf build-fuzz/cwd-$$t; mkdir build-fuzz/cwd-$$t; \
		(cd build-fuzz/cwd-$$t && ../fuzz_$$t -runs=$(FUZZ_RUNS) -max_len=65536 \
			../corpus-$$t ../../tests/fuzz/corpus/$$t >../fuzz_$$t-long.log 2>&1); rc=$$?; \
		grep -E '^(#[0-9]+|Done [0-9]+ runs)' build-fuzz/fuzz_$$t-long.log | tail -n 1; \
		[ $$rc = 0 ] || { tail -n 20 build-fuzz/fuzz_$$t-long.log; exit 1; }; \
		$(FUZZ_WROTE_NOTHING); \
	done
fuzzers: $(patsubst tests/fuzz/%.c,$(BUILD)/%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_OBJ = $(filter-out $(BUILD)/ui/% $(BUILD)/src/cli/%,$(LIB_OBJ))
$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LIBS)
# The theme parser lives in ui/; the command-line target links every command and the
# console, with runner_new and telemetry_dump wrapped so that parsing never starts a run
# nor writes a file.
$(BUILD)/fuzz_theme: $(BUILD)/ui/theme.o
$(BUILD)/fuzz_theme: FUZZ_OBJ += $(BUILD)/ui/theme.o
$(BUILD)/fuzz_cli: $(LIB_OBJ)
$(BUILD)/fuzz_cli: FUZZ_OBJ = $(LIB_OBJ)
$(BUILD)/fuzz_cli: LIBS += -Wl,--wrap=runner_new -Wl,--wrap=telemetry_dump

# Not in CI: 200 back-to-back short runs in one process (a few minutes); its fds, memory
# and children must not grow (tests/bench/soak.sh).
##d make soak            200 short runs in one process: fds, memory, children must not grow
.PHONY: soak
soak: $(BUILD)/soak_driver
	@sh tests/bench/soak.sh $(BUILD)/soak_driver $(SOAK_RUNS)
$(BUILD)/soak_driver: tests/bench/soak_driver.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

# Not in CI: the A/B plan's shapes for make bench-sensitivity (tests/bench/sensitivity_plan.sh:
# a pool of quick A/A runs resampled into plans with a known shift, then a real plan with an
# injected slowdown at the promised size; an hour or more). bench-sensitivity runs it too.
##d make bench-sensitivity-plan  A/B plans: what each shape finds (hours)
.PHONY: bench-sensitivity-plan
bench-sensitivity-plan: kbench $(BUILD)/plan_resample $(TOOLS_BIN)
	@KBENCH=./$(BUILD)/kbench BUILD=$(BUILD) sh tests/bench/sensitivity_plan.sh
$(BUILD)/plan_resample: tests/bench/plan_resample.c $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LIBS)

# Not in CI: RUNS (9) quick index runs back to back, about half an hour, beside a probe that
# times a fixed chain every half second (tests/bench/host_pace.sh): how much of what moves a
# test's score from run to run the machine's own pace follows. OUT, RUNS, ARGS, PROBES: see the script.
##d make bench-host-pace  run-to-run noise against the machine's own pace (half an hour)
.PHONY: bench-host-pace
bench-host-pace: kbench $(BUILD)/pace_probe
	@KBENCH=./$(BUILD)/kbench PROBE=./$(BUILD)/pace_probe OUT="$(OUT)" RUNS="$(RUNS)" ARGS="$(ARGS)" PROBES="$(PROBES)" \
		sh tests/bench/host_pace.sh

# Not in CI: about two hours (2 full-length and 2 quick index runs, 1 copy).
##d make bench-quick     quick against full index medians, interleaved (about two hours)
bench-quick: kbench
	@KBENCH=./$(BUILD)/kbench sh tests/bench/bench-quick.sh

# Not in CI: kbench beside UnixBench itself, test by test, in ABBA order (about 2.5
# hours for the index at 1 and 2 copies, 2 rounds). UNIXBENCH = a built byte-unixbench's
# UnixBench directory; ROUNDS, COPIES, ITER, TESTS, OUT, ORDER, DIRECT, DURATION: see
# tests/bench/bench-fidelity.sh.
##d make bench-fidelity  kbench beside UnixBench, test by test (UNIXBENCH=DIR; hours)
bench-fidelity: kbench
	@UNIXBENCH="$(UNIXBENCH)" KBENCH=$(abspath $(BUILD)/kbench) ROUNDS="$(ROUNDS)" COPIES="$(COPIES)" \
		ITER="$(ITER)" TESTS="$(TESTS)" OUT="$(OUT)" ORDER="$(ORDER)" DIRECT="$(DIRECT)" \
		DURATION="$(DURATION)" sh tests/bench/bench-fidelity.sh

# Not in CI: the same programs as work per CPU-second (tests/bench/fidelity-cpu.sh), for a
# machine others load: a 1-copy rate there is mostly the CPU share a test got. About
# 5 minutes (6 tests x ROUNDS 5 x 2 sides x DURATION 4 s).
##d make bench-fidelity-cpu  the same as work per CPU-second, for a loaded machine
.PHONY: bench-fidelity-cpu
bench-fidelity-cpu: kbench
	@UNIXBENCH="$(UNIXBENCH)" KBENCH=$(abspath $(BUILD)/kbench) ROUNDS="$(ROUNDS)" DURATION="$(DURATION)" \
		TESTS="$(TESTS)" OUT="$(OUT)" sh tests/bench/fidelity-cpu.sh

# Not in CI: how often verdicts call noise a change here, before and after calibration, and
# whether a 10% slowdown is still found (about three hours: 10 + 3 A/A pairs, two
# calibrations, three detection runs). PHASES picks some; OUT keeps the runs (tests/bench/bench-verdicts.sh).
##d make bench-verdicts  how often verdicts call noise a change here (about three hours)
bench-verdicts: kbench
	@KBENCH=./$(BUILD)/kbench OUT="$(OUT)" PAIRS="$(PAIRS)" DPAIRS="$(DPAIRS)" CALIB="$(CALIB)" \
		sh tests/bench/bench-verdicts.sh $(PHASES)

# Not in CI: how much an answer costs here (tests/bench/sensitivity.sh): A/A runs of each shape
# of run in interleaved rounds, then per test and for the index the spread per root-minute, the
# false alarms, the smallest slowdown found 9 times in 10 in 10, 20 and 30 minutes per kernel,
# and time and scores against full-length runs (about 2 hours at its defaults: ROUNDS 8 of
# today's quick rule and the index allocation, FULL 2). PHASES, SHAPES, ROUNDS, FULL, OUT, BUDGETS,
# RESAMPLES, EXTRA, TESTS: see the script. It runs tests/bench/sensitivity_plan.sh too.
##d make bench-sensitivity  each run shape's noise per minute and what it can find (hours)
.PHONY: bench-sensitivity
bench-sensitivity: kbench $(BUILD)/plan_resample $(TOOLS_BIN)
	@KBENCH=./$(BUILD)/kbench BUILD=$(BUILD) OUT="$(OUT)" ROUNDS="$(ROUNDS)" SHAPES="$(SHAPES)" FULL="$(FULL)" \
		BUDGETS="$(BUDGETS)" RESAMPLES="$(RESAMPLES)" EXTRA="$(EXTRA)" TESTS="$(TESTS)" \
		sh tests/bench/sensitivity.sh $(PHASES)

##u make install         install under PREFIX (/usr/local; DESTDIR honoured)
install: kbench docs
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(DATADIR)/themes \
		$(DESTDIR)$(DATADIR)/docs $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 $(BUILD)/kbench.1 $(DESTDIR)$(MANDIR)/kbench.1
	install -m 644 $(BUILD)/kbench.bash-completion $(DESTDIR)$(BASHCOMPDIR)/kbench
	install -m 755 $(BUILD)/kbench $(DESTDIR)$(BINDIR)/kbench
	install -m 755 $(BUILD)/kbench-exec $(DESTDIR)$(LIBEXECDIR)/kbench-exec
	install -m 644 data/* $(DESTDIR)$(DATADIR)/
	chmod 755 $(DESTDIR)$(DATADIR)/*.sh  # scripts (kbench runs them with /bin/sh all the same)
	@if ls themes/*.theme >/dev/null 2>&1; then install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/; fi
	install -m 644 docs/*.md $(DESTDIR)$(DATADIR)/docs/  # the guide: kbench help TOPIC prints a page

##u make uninstall       remove what make install installed (stored runs stay)
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/kbench $(DESTDIR)$(MANDIR)/kbench.1 $(DESTDIR)$(BASHCOMPDIR)/kbench
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(LIBEXECDIR)

# The release tarball: HEAD's tracked files (not the work tree's), under
# kbench-VERSION/, with VERSION saying the version HEAD describes (so a build of
# the tarball, which has no .git, says the same). Reproducible: git archive dates
# every entry at HEAD's commit time (SOURCE_DATE_EPOCH, exported for tools that
# read it), and its gzip (gzip -cn) leaves out a name and a date.
DIST_VERSION = $(or $(call GIT_VERSION,),$(VERSION_FILE))
DISTDIR     ?= .
##d make dist            kbench-VERSION.tar.gz, the release tarball of HEAD
.PHONY: dist
dist:
	@[ -e .git ] || { echo "make dist: not a git checkout (the tarball is made of HEAD's tracked files)" >&2; exit 1; }
	@mkdir -p $(BUILD)/dist
	@echo '$(DIST_VERSION)' >$(BUILD)/dist/VERSION
	@mkdir -p $(DISTDIR)
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct HEAD); export SOURCE_DATE_EPOCH; \
	git archive --format=tar.gz -9 -o $(DISTDIR)/kbench-$(DIST_VERSION).tar.gz.tmp \
		--prefix=kbench-$(DIST_VERSION)/ --add-file=$(BUILD)/dist/VERSION HEAD -- ':(exclude)VERSION'
	@mv -f $(DISTDIR)/kbench-$(DIST_VERSION).tar.gz.tmp $(DISTDIR)/kbench-$(DIST_VERSION).tar.gz
	@echo "wrote $(DISTDIR)/kbench-$(DIST_VERSION).tar.gz"

# Not in CI (about 4 minutes with the Debian root cached, 6 without; docs/packaging.md): the .deb built from `make dist`'s tarball, lintian, installed into a
# clean Debian 12 root and run there as a user. Root and the network (the Debian
# mirror) needed. PKG_ARCHS="amd64 i386" tests the i386 package too.
PKG_ARCHS ?= $(shell dpkg --print-architecture 2>/dev/null)
##d make rpm             the RPM, from contrib/rpm/kbench.spec (rpmbuild)
##d make package-test    the .deb installed and run in a clean Debian 12 root (root, network)
.PHONY: package-test rpm
package-test:
	@sh tests/tools/package-test.sh $(PKG_ARCHS)

# The RPM (contrib/rpm/kbench.spec) from the tarball of HEAD, named as the spec's
# Version (VERSION), into build/rpm/RPMS (rpmbuild; --nodeps where the build
# dependencies are not RPMs, as on Debian: RPMBUILD_FLAGS=).
RPMBUILD_FLAGS ?= $(if $(wildcard /etc/debian_version),--nodeps)
rpm:
	@rm -rf $(BUILD)/rpm && mkdir -p $(BUILD)/rpm/SOURCES
	$(MAKE) -s dist DIST_VERSION=$(VERSION_FILE) DISTDIR=$(BUILD)/rpm/SOURCES
	rpmbuild -bb $(RPMBUILD_FLAGS) --define "_topdir $(abspath $(BUILD)/rpm)" contrib/rpm/kbench.spec
	@ls $(BUILD)/rpm/RPMS/*/kbench-*.rpm

##d make clean           remove the build directories and ./kbench
clean:
	rm -rf build build-san build-i686 build-i686-san build-i686-fidelity build-arm64 build-arm64-san build-pkgtest kbench

# The C files .clang-format describes. `make format` rewrites them; `make format-check`
# changes nothing and says which would change and by how many lines (FORMAT_FILES="src/x.c"
# checks some; `clang-format --dry-run FILE` shows where).
FORMAT_FILES ?= $(wildcard src/*.[ch] src/*/*.[ch] ui/*.[ch] tests/unit/*.c)
##d make format-check    what clang-format would change (FORMAT_FILES=...); make format applies it
format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@command -v clang-format >/dev/null 2>&1 || { echo "format-check: clang-format is not installed"; exit 1; }
	@total=0; for f in $(FORMAT_FILES); do \
		n=$$(clang-format "$$f" | diff "$$f" - | grep -c '^<'); \
		[ "$$n" = 0 ] || { echo "$$f: $$n lines would change"; total=$$((total + n)); }; \
	done; \
	if [ $$total -gt 0 ]; then echo "format-check: $$total lines differ from .clang-format"; exit 1; fi; \
	echo "format-check: every file matches .clang-format"

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)
