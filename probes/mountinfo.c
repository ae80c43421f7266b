/* Parses /proc/self/mountinfo into a table and answers the look-ups of target resolution and the
 * filesystem probes (mountinfo.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "probes/mountinfo.h"

char *mountinfo_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* Splits the next space-separated field off *p; NULL at the end of the line. */
static char *next_field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

/* Fills `e` from one line (modified in place). false for a malformed line. */
static bool parse_line(char *line, struct mountinfo_entry *e)
{
	char *p = line, *f[6], *sep, *fstype, *source, *super;
	unsigned maj, min;

	for (int i = 0; i < 6; i++) {
		f[i] = next_field(&p);
		if (!f[i])
			return false;
	}
	/* Optional fields (shared:N, master:N, ...) run up to a lone "-". */
	do {
		sep = next_field(&p);
	} while (sep && strcmp(sep, "-") != 0);
	if (!sep)
		return false;
	fstype = next_field(&p);
	source = next_field(&p);
	super = next_field(&p);
	if (!fstype || !source || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return false;

	e->id = atoi(f[0]);
	e->parent_id = atoi(f[1]);
	e->major = maj;
	e->minor = min;
	e->root = mountinfo_unescape(f[3]);
	e->mount_point = mountinfo_unescape(f[4]);
	e->options = xstrdup(f[5]);
	e->fstype = mountinfo_unescape(fstype);
	e->source = mountinfo_unescape(source);
	e->super_options = xstrdup(super ? super : "");
	return true;
}

int mountinfo_parse(const char *text, struct mountinfo *mi)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	size_t cap = 0;

	mi->v = NULL;
	mi->n = 0;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct mountinfo_entry e;

		if (!parse_line(line, &e))
			continue;
		if (mi->n == cap) {
			cap = cap ? cap * 2 : 64;
			mi->v = xrealloc(mi->v, cap * sizeof(*mi->v));
		}
		mi->v[mi->n++] = e;
	}
	free(copy);
	return 0;
}

int mountinfo_load(struct mountinfo *mi)
{
	char *text = path_read_table("/proc/self/mountinfo");

	mi->v = NULL;
	mi->n = 0;
	if (!text)
		return -errno;
	mountinfo_parse(text, mi);
	free(text);
	return 0;
}

void mountinfo_free(struct mountinfo *mi)
{
	for (size_t i = 0; i < mi->n; i++) {
		struct mountinfo_entry *e = &mi->v[i];

		free(e->root);
		free(e->mount_point);
		free(e->options);
		free(e->fstype);
		free(e->source);
		free(e->super_options);
	}
	free(mi->v);
	mi->v = NULL;
	mi->n = 0;
}

const struct mountinfo_entry *mountinfo_by_id(const struct mountinfo *mi, int id)
{
	for (size_t i = 0; i < mi->n; i++)
		if (mi->v[i].id == id)
			return &mi->v[i];
	return NULL;
}

const struct mountinfo_entry *mountinfo_by_devno(const struct mountinfo *mi, unsigned major,
						 unsigned minor)
{
	const struct mountinfo_entry *any = NULL, *root = NULL;

	for (size_t i = 0; i < mi->n; i++) {
		const struct mountinfo_entry *e = &mi->v[i];

		if (e->major != major || e->minor != minor)
			continue;
		any = e;
		if (strcmp(e->root, "/") == 0)
			root = e;
	}
	return root ? root : any;
}

bool mountinfo_path_has_prefix(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strcmp(prefix, "/") == 0)
		return path[0] == '/';
	while (n > 1 && prefix[n - 1] == '/')
		n--;
	return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

const struct mountinfo_entry *mountinfo_longest_prefix(const struct mountinfo *mi, const char *path)
{
	const struct mountinfo_entry *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < mi->n; i++) {
		const struct mountinfo_entry *e = &mi->v[i];
		size_t len = strlen(e->mount_point);

		if (!mountinfo_path_has_prefix(path, e->mount_point))
			continue;
		if (!best || len >= best_len) {
			best = e;
			best_len = len;
		}
	}
	return best;
}
