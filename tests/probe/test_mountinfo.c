/* Unit test of the mountinfo parser and its look-ups (probes/mountinfo.h): escapes, optional
 * fields, stacked mounts, whole-component prefixes, and lines a parser must survive. */
#include "config.h"

#include <stdlib.h>

#include "probes/mountinfo.h"
#include "tests/lib/check.h"

static const char sample[] =
	"22 1 0:21 / /proc rw,relatime - proc proc rw\n"
	"27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard\n"
	"40 27 7:0 / /mnt/my\\040disk rw,noatime shared:5 master:2 - ext4 /dev/loop0 rw,stripe=48\n"
	"41 27 0:50 / /home rw - tmpfs tmpfs rw,size=8m\n"
	"42 27 8:1 / /home rw,relatime - xfs /dev/sda1 rw,sunit=128\n"
	"43 27 8:1 /sub /srv/bind rw - xfs /dev/sda1 rw\n"
	"44 27 0:51 / /homer rw - tmpfs tmpfs rw\n"
	"this line is garbage\n"
	"45 27 0:52 / /no-separator rw tmpfs tmpfs rw\n";

int main(void)
{
	struct mountinfo mi;
	const struct mountinfo_entry *e;
	char *s;

	CHECK(mountinfo_parse(sample, &mi) == 0);
	CHECK(mi.n == 7);

	e = mountinfo_by_id(&mi, 40);
	CHECK(e != NULL);
	if (e) {
		CHECK_STR(e->mount_point, "/mnt/my disk");
		CHECK_STR(e->fstype, "ext4");
		CHECK_STR(e->source, "/dev/loop0");
		CHECK_STR(e->options, "rw,noatime");
		CHECK_STR(e->super_options, "rw,stripe=48");
		CHECK(e->major == 7 && e->minor == 0);
		CHECK(e->parent_id == 27);
	}
	CHECK(mountinfo_by_id(&mi, 99) == NULL);

	/* The topmost of two mounts on /home wins; /homer is not under /home. */
	e = mountinfo_longest_prefix(&mi, "/home/user/file");
	CHECK(e && e->id == 42);
	e = mountinfo_longest_prefix(&mi, "/homer/x");
	CHECK(e && e->id == 44);
	e = mountinfo_longest_prefix(&mi, "/mnt/my disk/a");
	CHECK(e && e->id == 40);
	e = mountinfo_longest_prefix(&mi, "/mnt/my");
	CHECK(e && e->id == 27);
	e = mountinfo_longest_prefix(&mi, "/");
	CHECK(e && e->id == 27);

	/* By device: the mount of the filesystem's root beats a bind mount of a subdirectory. */
	e = mountinfo_by_devno(&mi, 8, 1);
	CHECK(e && e->id == 42);
	CHECK(mountinfo_by_devno(&mi, 9, 9) == NULL);

	CHECK(mountinfo_path_has_prefix("/a/b", "/a"));
	CHECK(mountinfo_path_has_prefix("/a", "/a/"));
	CHECK(!mountinfo_path_has_prefix("/ab", "/a"));
	CHECK(mountinfo_path_has_prefix("/anything", "/"));

	s = mountinfo_unescape("a\\040b\\011c\\134d\\012e\\9x\\");
	CHECK_STR(s, "a b\tc\\d\ne\\9x\\");
	free(s);
	mountinfo_free(&mi);

	CHECK(mountinfo_parse("", &mi) == 0);
	CHECK(mi.n == 0);
	mountinfo_free(&mi);
	return CHECK_DONE();
}
