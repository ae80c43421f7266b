/* Unit tests of units and formatting, the exit-status merge and the sysroot path helper. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstune/error.h"
#include "fstune/path.h"
#include "fstune/units.h"
#include "tests/lib/check.h"

static void test_format(void)
{
	char b[UNITS_BUFSZ];

	CHECK_STR(units_bytes(b, sizeof(b), 512), "512 B");
	CHECK_STR(units_bytes(b, sizeof(b), 4096), "4 KiB");
	CHECK_STR(units_bytes(b, sizeof(b), 1536 * 1024), "1.5 MiB");
	CHECK_STR(units_bytes(b, sizeof(b), 1ULL << 30), "1 GiB");
	CHECK_STR(units_bytes(b, sizeof(b), 1000204886016ULL), "931.5 GiB");
	CHECK_STR(units_duration_us(b, sizeof(b), 0.85, true), "850 ns");
	CHECK_STR(units_duration_us(b, sizeof(b), 12.34, true), "12.3 us");
	CHECK_STR(units_duration_us(b, sizeof(b), 4200, true), "4.20 ms");
	CHECK_STR(units_duration_us(b, sizeof(b), 1.25e6, true), "1.25 s");
	CHECK_STR(units_duration_us(b, sizeof(b), 200e6, true), "200 s (3 min 20 s)");
	CHECK_STR(units_duration_us(b, sizeof(b), 30e6, true), "30 s");
	/* vm.dirtytime_expire_seconds: the exact seconds, then how long that is; never "720 min 0 s" */
	CHECK_STR(units_duration_us(b, sizeof(b), 43200e6, true), "43200 s (12 h)");
	CHECK_STR(units_duration_us(b, sizeof(b), 90061e6, true), "90061 s (1 d 1 h)");
	/* one size form everywhere: exact stays short, a rounded figure keeps the count with its unit */
	CHECK_STR(units_size(b, sizeof(b), 1073741824), "1 GiB");
	CHECK_STR(units_size(b, sizeof(b), 270553174016ULL), "252.0 GiB (270553174016 B)");
	CHECK_STR(units_size(b, sizeof(b), 512), "512 B");
	/* a number in each unit (the facts schema gives every key one) */
	CHECK_STR(units_value(b, sizeof(b), UNITS_SECONDS, 0.31144, false), "311 ms");
	CHECK_STR(units_value(b, sizeof(b), UNITS_SHARE, 0.31144, false), "31.1%");
	CHECK_STR(units_value(b, sizeof(b), UNITS_CENTISECS, 3000, true), "3000 (30 s)");
	CHECK_STR(units_value(b, sizeof(b), UNITS_KIB, 128, true), "128 KiB");
	CHECK_STR(units_value(b, sizeof(b), UNITS_PLAIN, 0.31144, false), "0.3114");
	CHECK_STR(units_count(b, sizeof(b), 950), "950");
	CHECK_STR(units_count(b, sizeof(b), 12345), "12.3k");
	CHECK_STR(units_count(b, sizeof(b), 1.2e6), "1.20M");
	CHECK_STR(units_rate(b, sizeof(b), 812e6), "812 MB/s");
}

static void test_parse(void)
{
	uint64_t v;
	double s;

	CHECK(units_parse_size("4096", &v) && v == 4096);
	CHECK(units_parse_size("4k", &v) && v == 4096);
	CHECK(units_parse_size("4KiB", &v) && v == 4096);
	CHECK(units_parse_size("1.5M", &v) && v == 1572864);
	CHECK(units_parse_size("2G", &v) && v == 2147483648ULL);
	CHECK(!units_parse_size("", &v));
	CHECK(!units_parse_size("-1", &v));
	CHECK(!units_parse_size("4x", &v));
	CHECK(!units_parse_size("1.3", &v));
	CHECK(!units_parse_size("99999999T", &v));
	CHECK(units_parse_seconds("2", &s) && s == 2.0);
	CHECK(units_parse_seconds("500ms", &s) && s == 0.5);
	CHECK(units_parse_seconds("1m", &s) && s == 60.0);
	CHECK(!units_parse_seconds("soon", &s));
}

static void test_exit_merge(void)
{
	CHECK(fst_exit_merge(FST_EXIT_PARTIAL, FST_EXIT_REFUSED) == FST_EXIT_REFUSED);
	CHECK(fst_exit_merge(FST_EXIT_THRESHOLD, FST_EXIT_PARTIAL) == FST_EXIT_PARTIAL);
	CHECK(fst_exit_merge(FST_EXIT_OK, FST_EXIT_THRESHOLD) == FST_EXIT_THRESHOLD);
	CHECK(fst_exit_merge(FST_EXIT_USAGE, FST_EXIT_REFUSED) == FST_EXIT_USAGE);
}

static void test_sysroot(void)
{
	char dir[] = "/tmp/fstune-unit.XXXXXX";
	char *p;
	long long n;
	FILE *fp;

	CHECK(mkdtemp(dir) != NULL);
	p = malloc(strlen(dir) + 64);
	sprintf(p, "%s/sys", dir);
	mkdir(p, 0755);
	sprintf(p, "%s/sys/devices", dir);
	mkdir(p, 0755);
	sprintf(p, "%s/sys/devices/sda", dir);
	mkdir(p, 0755);
	sprintf(p, "%s/sys/devices/sda/size", dir);
	fp = fopen(p, "w");
	fputs("1953525168\n", fp);
	fclose(fp);
	sprintf(p, "%s/sys/sda", dir);
	CHECK(symlink("devices/sda", p) == 0);

	path_set_sysroot(dir);
	CHECK(path_is_sysroot());
	CHECK(path_read_s64(&n, "/sys/%s/size", "sda") == 0 && n == 1953525168LL);
	CHECK_STR_FREE(path_read_string("/sys/devices/sda/size"), "1953525168");
	CHECK_STR_FREE(path_canonical("/sys/sda"), "/sys/devices/sda");
	CHECK(path_read_s64(&n, "/sys/missing") == -ENOENT);
	CHECK(path_exists("/sys/sda/size"));
	path_set_sysroot(NULL);
	CHECK(!path_is_sysroot());

	sprintf(p, "rm -rf '%s'", dir);
	CHECK(system(p) == 0);
	free(p);
}

int main(void)
{
	test_format();
	test_parse();
	test_exit_merge();
	test_sysroot();
	return CHECK_DONE();
}
