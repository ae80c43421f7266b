/* Replays a fuzz corpus through a fuzz target in the ordinary (gcc, sanitized) build, so make check
 * re-runs every committed seed and every crash ever fixed. Arguments are files or directories; with
 * none, the corpus FUZZ_CORPUS under $FSTUNE_SRCDIR/tests/fuzz/corpus/. Exit 0, or 99 when an input
 * cannot be read (a crash aborts on its own). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz.h"

#ifndef FUZZ_CORPUS
#error FUZZ_CORPUS must name the corpus directory
#endif

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!fp) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(fp);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n > 0);
	fclose(fp);
	/* an exact-size copy, so ASan catches a read one byte past the input */
	unsigned char *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int replay_path(const char *path, size_t *count)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*count)++;
		return replay_file(path);
	}
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		char sub[4096];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		if (replay_path(sub, count) < 0)
			rc = -1;
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int rc = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			if (replay_path(argv[i], &count) < 0)
				rc = 99;
	} else {
		const char *src = getenv("FSTUNE_SRCDIR");
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", src ? src : ".", FUZZ_CORPUS);
		if (replay_path(dir, &count) < 0)
			rc = 99;
	}
	if (rc == 0 && count == 0) {
		fprintf(stderr, "replay: no inputs found\n");
		rc = 99;
	}
	printf("replayed %zu inputs of %s\n", count, FUZZ_CORPUS);
	return rc;
}
