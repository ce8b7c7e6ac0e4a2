/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A store of a test group's own: KBENCH_HOME in a fresh directory under /tmp, removed after the group (cmocka's group setup and teardown). Include after cmocka.h. */
#ifndef KBENCH_TESTS_TMPSTORE_H
#define KBENCH_TESTS_TMPSTORE_H

#include <stdio.h>
#include <stdlib.h>

/* The directory the group's store is in (the store itself is its store/): a test may make
 * other stores beside it. */
static char tmpstore_home[64];

__attribute__((unused)) static int tmpstore_setup(void **state)
{
	snprintf(tmpstore_home, sizeof tmpstore_home, "/tmp/kbench-test-store.XXXXXX");
	if (!mkdtemp(tmpstore_home))
		return -1;
	char dir[128];
	snprintf(dir, sizeof dir, "%s/store", tmpstore_home);
	setenv("KBENCH_HOME", dir, 1);
	return 0;
}

__attribute__((unused)) static int tmpstore_teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpstore_home);
	return system(cmd);
}

#endif
