/* A minimal assertion layer for the C unit tests: a failed check prints where and why and the test
 * exits 1 at the end (automake's protocol). */
#ifndef FSTUNE_TEST_CHECK_H
#define FSTUNE_TEST_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

/* One check of a text against another: equal, or containing it when `is_part`. NULL never passes. */
static inline void check_text(const char *file, int line, const char *got, const char *want, bool is_part)
{
	if (got && (is_part ? strstr(got, want) != NULL : strcmp(got, want) == 0))
		return;
	if (is_part)
		fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", file, line, got ? got : "(null)", want);
	else
		fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", file, line, got ? got : "(null)", want);
	check_failures++;
}

#define CHECK_STR(got, want) check_text(__FILE__, __LINE__, (got), (want), false)
#define CHECK_CONTAINS(got, needle) check_text(__FILE__, __LINE__, (got), (needle), true)

/* CHECK_STR of a string the call under test allocated for the caller, which it then frees. */
#define CHECK_STR_FREE(call, want)                                  \
	do {                                                        \
		char *gf_ = (call);                                 \
		check_text(__FILE__, __LINE__, gf_, (want), false); \
		free(gf_);                                          \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
