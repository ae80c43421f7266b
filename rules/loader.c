/* Finding and reading rule files: directory listing in name order, the ownership and mode checks
 * that keep a root run from executing a file someone else could have written, control characters
 * stripped, and the limits of one sandboxed run. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dirnames.h"
#include "lib/xalloc.h"
#include "rules/internal.h"
#include "fstune/shell.h"

#define RULE_FILE_MAX (1024 * 1024) /* bytes: a rule file is a page of Lua, not a data set */

static long long env_number(const char *name, long long def, long long lo, long long hi)
{
	const char *s = getenv(name);
	char *end;
	long long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return def;
	return v;
}

void rules_limits_get(struct rules_limits *out)
{
	/* Defaults: a real rule runs thousands of instructions in well under a millisecond; these
	 * leave three orders of magnitude of room and still end a runaway rule within seconds. */
	out->insn_budget = env_number("FSTUNE_RULES_INSN_BUDGET", 20000000LL, 1000, 1LL << 40);
	out->timeout_ms = (long)env_number("FSTUNE_RULES_TIMEOUT_MS", 5000, 10, 600000);
	out->mem_bytes = (size_t)env_number("FSTUNE_RULES_MEM_BYTES", 64LL << 20, 1 << 20, 1LL << 34);
}

size_t rules_strip_controls(char *s, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		/* C0 controls and DEL; a NUL would also end the chunk early in messages */
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			continue;
		/* UTF-8 encoded C1 controls (U+0080..U+009F: 0xC2 0x80..0x9F), e.g. a CSI */
		if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 &&
		    (unsigned char)s[i + 1] <= 0x9f) {
			i++;
			continue;
		}
		s[o++] = (char)c;
	}
	s[o] = '\0';
	return o;
}

/* As root, a file or directory another user or group could write would let them run code in a
 * root process's rule (and steer its advice): refuse it. */
static bool mode_is_safe(const struct stat *st, const char *what, const char *path,
			 struct rules_load_msg *m)
{
	if (geteuid() != 0)
		return true;
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		char *q = fst_shell_quote(path);

		snprintf(m->text, sizeof(m->text), "refused: %s %s is writable by group or others", what,
			 path);
		/* the files of a directory made under the same umask are writable too: one command for
		 * both, so the next run is not refused file by file */
		snprintf(m->fix, sizeof(m->fix), "chmod %sgo-w %s", strcmp(what, "directory") ? "" : "-R ", q);
		free(q);
		return false;
	}
	return true;
}

bool rules_read_file(const char *path, struct rule_file *rf, struct rules_load_msg *m)
{
	struct stat st, dst;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	ssize_t n;
	size_t got = 0;
	int fd;

	memset(rf, 0, sizeof(*rf));
	m->fix[0] = '\0';
	rf->path = xstrdup(path);
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	else
		strcpy(dir, ".");
	if (stat(dir, &dst) == 0 && !mode_is_safe(&dst, "directory", dir, m)) {
		free(dir);
		return false;
	}
	free(dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(m->text, sizeof(m->text), "cannot open: %s", strerror(errno));
		return false;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(m->text, sizeof(m->text), "not a regular file");
		close(fd);
		return false;
	}
	if (!mode_is_safe(&st, "file", path, m)) {
		close(fd);
		return false;
	}
	if (st.st_size > RULE_FILE_MAX) {
		snprintf(m->text, sizeof(m->text), "larger than %d bytes", RULE_FILE_MAX);
		close(fd);
		return false;
	}
	rf->text = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size && (n = read(fd, rf->text + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	close(fd);
	/* Lua's own refusal (mode "t") would see the stripped signature as a syntax error; say what
	 * it really is. */
	if (got >= 4 && !memcmp(rf->text, "\x1bLua", 4)) {
		snprintf(m->text, sizeof(m->text), "precompiled Lua (bytecode) is refused: rules must be text");
		return false;
	}
	rf->len = rules_strip_controls(rf->text, got);
	return true;
}

char **rules_list_dir(const char *dir, size_t *n, struct rules_load_msg *m)
{
	struct stat st;
	char **names;
	DIR *d;

	*n = 0;
	m->fix[0] = '\0';
	d = opendir(dir);
	if (!d) {
		snprintf(m->text, sizeof(m->text), "cannot open the rules directory: %s", strerror(errno));
		return NULL;
	}
	if (fstat(dirfd(d), &st) != 0 || !mode_is_safe(&st, "directory", dir, m)) {
		closedir(d);
		return NULL;
	}
	names = dir_names(d, ".lua", n);
	closedir(d);
	for (size_t i = 0; i < *n; i++) {
		char *name = names[i];

		names[i] = xasprintf("%s/%s", dir, name);
		free(name);
	}
	return names;
}
