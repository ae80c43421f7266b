/* The files of a directory with a suffix, sorted (dirnames.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/dirnames.h"
#include "lib/xalloc.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **dir_names(DIR *d, const char *suffix, size_t *n)
{
	size_t cap = 16, suffix_len = strlen(suffix);
	char **names = xmalloc(cap * sizeof(*names));
	struct dirent *de;

	*n = 0;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len <= suffix_len || strcmp(de->d_name + len - suffix_len, suffix))
			continue;
		if (*n == cap) {
			cap *= 2;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = xstrdup(de->d_name);
	}
	qsort(names, *n, sizeof(*names), by_name);
	return names;
}
