/* The sysroot-aware path helper on a capture without sys/class/block (tests/fixtures/sysroot/
 * bcachefs-multi, as util-linux makes captures): names resolve through sys/block and the
 * sys/dev/block links, and the block devices are listed from those links. */
#include "config.h"

#include <stdlib.h>

#include "tests/lib/check.h"
#include "fstune/path.h"

int main(void)
{
	const char *src = getenv("FSTUNE_SRCDIR");
	char *root, *s, **names;
	size_t n;

	if (!src) {
		fprintf(stderr, "FSTUNE_SRCDIR is not set: run through make check\n");
		return 99;
	}
	root = malloc(strlen(src) + 64);
	sprintf(root, "%s/tests/fixtures/sysroot/bcachefs-multi", src);
	path_set_sysroot(root);

	CHECK(!path_exists("/sys/class/block"));
	/* a whole disk through sys/block, a partition through its sys/dev/block link */
	CHECK_STR_FREE(path_read_string("/sys/class/block/sdc/dev"), "8:32");
	CHECK_STR_FREE(path_read_string("/sys/class/block/sdc2/dev"), "8:34");
	CHECK(path_exists("/sys/class/block/sdc1/partition"));
	CHECK(!path_exists("/sys/class/block/sdc3"));
	CHECK(!path_exists("/sys/class/block/sd"));
	s = path_canonical("/sys/class/block/sdc1");
	CHECK_CONTAINS(s, "/block/sdc/sdc1");
	CHECK(s && s[0] == '/' && strncmp(s, root, strlen(root)) != 0);
	free(s);

	names = path_list_block(&n);
	CHECK(n == 4);
	if (n == 4) {
		CHECK_STR(names[0], "sdb");
		CHECK_STR(names[1], "sdc");
		CHECK_STR(names[2], "sdc1");
		CHECK_STR(names[3], "sdc2");
		CHECK(names[4] == NULL);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);

	path_set_sysroot(NULL);
	free(root);
	return CHECK_DONE();
}
