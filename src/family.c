/* Finding the family of a test row, a result or a row of a comparison. */
#include "family.h"

#include <stdio.h>
#include <string.h>

#include "run.h"
#include "tests.h"

const struct family *family_of(const struct test_def *t)
{
	/* family_list[0] is the rate tests, the default */
	return t && t->family ? t->family : family_list[0];
}

const struct family *family_of_result(const struct test_result *t)
{
	return family_of_id(t->id);
}

const struct family *family_of_id(const char *id)
{
	char test[64];
	/* a compare row's id is "test:point" */
	snprintf(test, sizeof test, "%.*s", (int)strcspn(id, ":"), id);
	return family_of(test_find(test));
}
