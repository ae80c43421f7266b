/* Drop-in configuration directories as systemd lists them (sysctl.d(5), udev(7)): every file of
 * every directory, ordered by file name whatever the directory, a name in a higher-priority
 * directory hiding the same name below it, a link to /dev/null masking it. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/path.h"
#include "lib/xalloc.h"
#include "probes/owners.h"

char *owners_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

void owners_lines(char *text, bool continued, void (*fn)(char *line, int no, void *arg), void *arg)
{
	char *p = text;
	int no = 1;

	while (p && *p) {
		char *end = strchr(p, '\n');
		int joined = 0;

		while (continued && end && end > p && end[-1] == '\\') {
			end[-1] = ' ';
			*end = ' ';
			end = strchr(end, '\n');
			joined++;
		}
		if (end)
			*end = '\0';
		fn(p, no, arg);
		no += 1 + joined;
		p = end ? end + 1 : NULL;
	}
}

/* `dir`/`rel` with "." and ".." components folded, so a relative link such as Debian's
 * 99-sysctl.conf -> ../sysctl.conf names /etc/sysctl.conf. Caller frees. */
static char *join_folded(const char *dir, const char *rel)
{
	char *all = rel[0] == '/' ? xstrdup(rel) : xasprintf("%s/%s", dir, rel);
	char *out = xcalloc(1, strlen(all) + 2), *save = NULL, *part;
	size_t len = 0;

	for (part = strtok_r(all, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
		if (!strcmp(part, "."))
			continue;
		if (!strcmp(part, "..")) {
			while (len > 0 && out[len - 1] != '/')
				len--;
			if (len > 0)
				len--;
			out[len] = '\0';
			continue;
		}
		len += (size_t)sprintf(out + len, "/%s", part);
	}
	if (!len)
		strcpy(out, "/");
	free(all);
	return out;
}

struct found {
	char *name, *path;
	size_t prio; /* index of the directory: lower wins */
};

static int cmp_found(const void *a, const void *b)
{
	const struct found *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->prio > y->prio) - (x->prio < y->prio);
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && !strcmp(s + n - m, suffix);
}

/* Every file ending in `suffix` of every directory, unsorted. */
static struct found *scan(const char *const *dirs, const char *suffix, size_t *n)
{
	struct found *v = NULL;

	*n = 0;
	for (size_t d = 0; dirs[d]; d++) {
		DIR *dp = path_opendir("%s", dirs[d]);
		struct dirent *de;

		while (dp && (de = readdir(dp))) {
			if (de->d_name[0] == '.' || de->d_type == DT_DIR || !has_suffix(de->d_name, suffix))
				continue;
			v = xrealloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = (struct found){xstrdup(de->d_name), xasprintf("%s/%s", dirs[d], de->d_name), d};
		}
		if (dp)
			closedir(dp);
	}
	return v;
}

struct owners_conf *owners_conf_list(const char *const *dirs, const char *suffix, size_t *n)
{
	size_t nf, out = 0;
	struct found *f = scan(dirs, suffix, &nf);
	struct owners_conf *c = nf ? xcalloc(nf, sizeof(*c)) : NULL;

	if (nf)
		qsort(f, nf, sizeof(*f), cmp_found);
	for (size_t i = 0; i < nf; i++) {
		char *link;

		if (out && !strcmp(c[out - 1].name, f[i].name)) { /* hidden by a higher directory */
			free(f[i].name);
			free(f[i].path);
			continue;
		}
		c[out].name = f[i].name;
		c[out].path = f[i].path;
		link = path_readlink("%s", f[i].path);
		if (link && !strcmp(link, "/dev/null")) {
			c[out].masked = true;
		} else if (link) {
			char *dir = xstrndup(f[i].path, (size_t)(strrchr(f[i].path, '/') - f[i].path));

			c[out].target = join_folded(dir, link);
			free(dir);
		}
		free(link);
		out++;
	}
	free(f);
	*n = out;
	if (!out) {
		free(c);
		c = NULL;
	}
	return c;
}

void owners_conf_free(struct owners_conf *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].path);
		free(c[i].target);
	}
	free(c);
}

char *owners_conf_read(const struct owners_conf *c)
{
	if (c->masked)
		return NULL;
	return path_read_string("%s", c->target ? c->target : c->path);
}
