/*
 * kbench's C compiler test input: a small word-frequency program that the
 * "C" test compiles and links again and again. It is kbench's own program,
 * of the size and kind of UnixBench's cctest.c (a few functions, a struct,
 * loops, stdio/stdlib/string), not a copy of it. It is never run by the test.
 *
 * Usage: cctest [N] < text   prints the N most frequent words (default 10).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORD_MAX 32
#define TABLE_SIZE 1024

struct word {
	char text[WORD_MAX];
	unsigned long count;
	struct word *next;
};

static struct word *table[TABLE_SIZE];
static unsigned long distinct;

/* FNV-1a: cheap and spreads short words well enough. */
static unsigned long hash(const char *s)
{
	unsigned long h = 2166136261UL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619UL;
	}
	return h % TABLE_SIZE;
}

static int is_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'';
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static struct word *lookup(const char *text)
{
	unsigned long h = hash(text);
	struct word *w;

	for (w = table[h]; w != NULL; w = w->next)
		if (strcmp(w->text, text) == 0)
			return w;
	w = malloc(sizeof *w);
	if (w == NULL) {
		fprintf(stderr, "cctest: out of memory\n");
		exit(1);
	}
	strncpy(w->text, text, WORD_MAX - 1);
	w->text[WORD_MAX - 1] = '\0';
	w->count = 0;
	w->next = table[h];
	table[h] = w;
	distinct++;
	return w;
}

/* Reads words (letters and apostrophes) from f, counting each. */
static unsigned long count_words(FILE *f)
{
	char buf[WORD_MAX];
	unsigned long total = 0;
	size_t len = 0;
	int c;

	do {
		c = getc(f);
		if (c != EOF && is_letter(c)) {
			if (len < WORD_MAX - 1)
				buf[len++] = (char)lower(c);
			continue;
		}
		if (len > 0) {
			buf[len] = '\0';
			lookup(buf)->count++;
			total++;
			len = 0;
		}
	} while (c != EOF);
	return total;
}

static int by_count(const void *a, const void *b)
{
	const struct word *x = *(const struct word *const *)a;
	const struct word *y = *(const struct word *const *)b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->text, y->text);
}

static struct word **sorted_words(void)
{
	struct word **all = calloc(distinct + 1, sizeof *all);
	struct word *w;
	size_t i, n = 0;

	if (all == NULL) {
		fprintf(stderr, "cctest: out of memory\n");
		exit(1);
	}
	for (i = 0; i < TABLE_SIZE; i++)
		for (w = table[i]; w != NULL; w = w->next)
			all[n++] = w;
	qsort(all, n, sizeof *all, by_count);
	return all;
}

static void free_words(struct word **all)
{
	size_t i;

	for (i = 0; i < distinct; i++)
		free(all[i]);
	free(all);
}

/* The longest word and the mean length of the distinct words. */
static void word_lengths(struct word **all, size_t *longest, double *mean)
{
	size_t i, len, sum = 0;

	*longest = 0;
	for (i = 0; i < distinct; i++) {
		len = strlen(all[i]->text);
		sum += len;
		if (len > strlen(all[*longest]->text))
			*longest = i;
	}
	*mean = distinct ? (double)sum / (double)distinct : 0.0;
}

int main(int argc, char **argv)
{
	unsigned long total, i, top = 10;
	struct word **all;
	size_t longest;
	double mean;

	if (argc > 1)
		top = strtoul(argv[1], NULL, 10);
	total = count_words(stdin);
	all = sorted_words();
	printf("%lu words, %lu distinct\n", total, distinct);
	if (distinct > 0) {
		word_lengths(all, &longest, &mean);
		printf("longest: %s, mean length %.2f\n", all[longest]->text, mean);
	}
	for (i = 0; i < top && i < distinct; i++)
		printf("%8lu %5.1f%%  %s\n", all[i]->count,
		       100.0 * (double)all[i]->count / (double)total, all[i]->text);
	free_words(all);
	return 0;
}
