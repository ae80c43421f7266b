/* A minimal assertion layer for the C unit tests: a failed check prints where and why and the test
 * exits 1 at the end (automake's protocol). */
#ifndef FSTUNE_TEST_CHECK_H
#define FSTUNE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_STR(got, want)                                                          \
	do {                                                                          \
		const char *g_ = (got), *w_ = (want);                                 \
		if (!g_ || strcmp(g_, w_) != 0) {                                     \
			fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, __LINE__, \
				g_ ? g_ : "(null)", w_);                              \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_CONTAINS(got, needle)                                                   \
	do {                                                                          \
		const char *g_ = (got), *n_ = (needle);                               \
		if (!g_ || !strstr(g_, n_)) {                                         \
			fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, \
				__LINE__, g_ ? g_ : "(null)", n_);                    \
			check_failures++;                                             \
		}                                                                     \
	} while (0)

#define CHECK_DONE() (check_failures ? 1 : 0)

#endif
