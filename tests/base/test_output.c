/* The atomic writer: a committed write replaces the file whole and leaves no temporary; a write that
 * fails, or one not committed, leaves the old file as it was and no temporary either; a link is
 * written through and kept; a directory is refused; text for a terminal shows control characters. */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fstune/output.h"
#include "tests/lib/check.h"

static char dir[] = "/tmp/fstune-test-output.XXXXXX";

/* The path of `name` in the test's directory (a static buffer). */
static const char *in_dir(const char *name)
{
	static char p[256];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

/* The whole content of `name` in the test's directory, or NULL. Caller frees. */
static char *slurp(const char *name)
{
	FILE *fp = fopen(in_dir(name), "r");
	char *s = calloc(1, 1 << 17);
	size_t n;

	if (!fp) {
		free(s);
		return NULL;
	}
	n = fread(s, 1, (1 << 17) - 1, fp);
	s[n] = '\0';
	fclose(fp);
	return s;
}

/* How many entries of the directory start with '.' and are not "." or "..": temporaries. */
static int temporaries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	if (d)
		closedir(d);
	return n;
}

/* Writes `text` to `name` with the writer and finishes with `commit`; the finish's status. */
static int write_file(const char *name, const char *text, bool commit)
{
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *o = fst_output_open(in_dir(name), &err);

	if (!o)
		return err.status;
	fputs(text, fst_output_stream(o));
	return fst_output_finish(o, commit, &err);
}

static void test_commit(void)
{
	struct stat st;
	mode_t mask = umask(022);

	CHECK(write_file("a", "old\n", true) == FST_EXIT_OK);
	CHECK_STR_FREE(slurp("a"), "old\n");
	CHECK(stat(in_dir("a"), &st) == 0 && (st.st_mode & 0777) == 0644);
	CHECK(write_file("a", "new\n", true) == FST_EXIT_OK);
	CHECK_STR_FREE(slurp("a"), "new\n");
	CHECK(temporaries() == 0);
	umask(mask);
}

static void test_no_commit(void)
{
	CHECK(write_file("a", "half", false) == FST_EXIT_OK);
	CHECK_STR_FREE(slurp("a"), "new\n");
	CHECK(temporaries() == 0);
}

/* A write the file size limit stops (EFBIG, SIGXFSZ ignored): the error, the old file, no temporary. */
static void test_failed_write(void)
{
	struct fst_error err = FST_ERROR_INIT;
	struct rlimit old, small = {.rlim_cur = 1024, .rlim_max = RLIM_INFINITY};
	struct fst_output *o;
	size_t i;

	getrlimit(RLIMIT_FSIZE, &old);
	small.rlim_max = old.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
	o = fst_output_open(in_dir("a"), &err);
	CHECK(o != NULL);
	for (i = 0; o && i < 4096; i++)
		fputs("0123456789abcdef", fst_output_stream(o));
	CHECK(fst_output_finish(o, true, &err) == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "writing ");
	setrlimit(RLIMIT_FSIZE, &old);
	CHECK_STR_FREE(slurp("a"), "new\n");
	CHECK(temporaries() == 0);
}

static void test_link_and_directory(void)
{
	struct fst_error err = FST_ERROR_INIT;
	struct stat st;

	CHECK(symlink("a", in_dir("link")) == 0);
	CHECK(write_file("link", "through\n", true) == FST_EXIT_OK);
	CHECK(lstat(in_dir("link"), &st) == 0 && S_ISLNK(st.st_mode));
	CHECK_STR_FREE(slurp("a"), "through\n");
	CHECK(fst_output_open(dir, &err) == NULL);
	CHECK(err.status == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "is a directory");
	CHECK(temporaries() == 0);
	unlink(in_dir("link"));
}

static void test_text_only(void)
{
	struct fst_error err = FST_ERROR_INIT;
	struct fst_output *o = fst_output_open(in_dir("t"), &err);

	CHECK(o != NULL);
	if (!o)
		return;
	fst_output_text_only(o);
	fputs("a\033[2Jb\tc\n", fst_output_stream(o));
	CHECK(fst_output_finish(o, true, &err) == FST_EXIT_OK);
	CHECK_STR_FREE(slurp("t"), "a\\x1b[2Jb\tc\n");
	unlink(in_dir("t"));
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_commit();
	test_no_commit();
	test_failed_write();
	test_link_and_directory();
	test_text_only();
	unlink(in_dir("a"));
	rmdir(dir);
	return CHECK_DONE();
}
