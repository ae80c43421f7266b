/* The persistent forms of a change, installed as files: a sysctl.d line, a udev rule, an option in
 * the fstab entry of the mount point. Each edit replaces what set the same thing before (the same
 * sysctl key, the same device attribute, the option and its opposites), so applying twice leaves one
 * line; the previous content is kept for undo. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "lib/xalloc.h"
#include "probes/owners.h"
#include "fstune/rules.h"

static const char file_header[] =
	"# Written by fstune apply; fstune undo puts back what was here before (see fstune history).\n";

/* Appends `s` (and a newline unless it ends in one) to the growing string *acc. */
static void append_line(char **acc, const char *s, size_t n)
{
	size_t len = strlen(*acc);

	*acc = xrealloc(*acc, len + n + 2);
	memcpy(*acc + len, s, n);
	(*acc)[len + n] = '\0';
	if (n == 0 || s[n - 1] != '\n')
		strcat(*acc, "\n");
}

/* A line's text without surrounding blanks, as a new string. */
static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* The sysctl key a sysctl.d line assigns ("-vm.x = 1" and "vm/x=1" too), dotted as the owners
 * probe reads it (sysctl.d(5)'s rule), or NULL. Caller frees. */
static char *sysctl_key(const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	char *key, *dotted;

	if (!eq)
		return NULL;
	key = trimmed(line, (size_t)(eq - line));
	if (key[0] == '#' || key[0] == ';' || !key[0]) {
		free(key);
		return NULL;
	}
	dotted = owners_sysctl_normalize(key[0] == '-' ? key + 1 : key);
	free(key);
	return dotted;
}

/* What identifies a udev rule line of fstune's: everything up to the attribute's assignment. */
static size_t udev_identity(const char *line, size_t n)
{
	const char *attr = NULL;

	for (const char *p = line; p + 5 <= line + n; p++)
		if (!strncmp(p, "ATTR{", 5))
			attr = p;
	if (!attr)
		return 0;
	for (const char *p = attr; p < line + n; p++)
		if (*p == '=' && p[-1] == '}')
			return (size_t)(p - line) + 1;
	return 0;
}

/* Whether existing line `l` is replaced by the new form `add` (lines). */
static bool is_replaced(const char *kind, const char *l, size_t n, const char *add)
{
	if (!strcmp(kind, "sysctl.d")) {
		char *k = sysctl_key(l, n), *want = sysctl_key(add, strlen(add));
		bool same = k && want && !strcmp(k, want);

		free(k);
		free(want);
		return same;
	}
	for (const char *a = add; *a;) {
		const char *end = strchr(a, '\n');
		size_t an = end ? (size_t)(end - a) : strlen(a), id = udev_identity(a, an);

		if (id && n >= id && !strncmp(a, l, id))
			return true;
		a += an + (end != NULL);
	}
	return false;
}

/* Whether text `s` has line `l` (n bytes) as one of its lines. */
static bool has_line(const char *s, const char *l, size_t n)
{
	for (const char *p = s; p && *p;) {
		const char *end = strchr(p, '\n');
		size_t pn = end ? (size_t)(end - p) : strlen(p);

		if (pn == n && !strncmp(p, l, n))
			return true;
		p += pn + (end != NULL);
	}
	return false;
}

/* The new content of a sysctl.d or udev file: its lines without those the new form replaces, then
 * the new form. */
static char *edit_lines(const char *kind, const char *prev, const char *add)
{
	char *out = xstrdup(prev ? "" : file_header);

	for (const char *l = prev; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l) : strlen(l);

		if (!is_replaced(kind, l, n, add))
			append_line(&out, l, n);
		l += n + (end != NULL);
	}
	/* a comment the file holds already (the same reason for the same disk) is not written twice */
	for (const char *a = add; *a;) {
		const char *end = strchr(a, '\n');
		size_t an = end ? (size_t)(end - a) : strlen(a);

		if (a[0] != '#' || !has_line(prev, a, an))
			append_line(&out, a, an);
		a += an + (end != NULL);
	}
	return out;
}

/* Whether fstab option `o` (len bytes) is one of `off` (comma-separated, as the setting table's
 * rules_setting_mount_change gives them; "name=" stands for every value of a valued option). */
static bool is_turned_off(const char *o, size_t len, const char *off)
{
	for (const char *f = off; *f;) {
		const char *comma = strchr(f, ',');
		size_t flen = comma ? (size_t)(comma - f) : strlen(f);

		if (flen && f[flen - 1] == '=' ? len >= flen && !strncmp(o, f, flen)
					       : len == flen && !strncmp(o, f, flen))
			return true;
		f += flen + (comma != NULL);
	}
	return false;
}

/* The fstab options field `opts` (n bytes) with `on` added and the options it replaces (`off`)
 * removed; "defaults" goes too, as any other option implies it. Caller frees. */
static char *edit_options(const char *opts, size_t n, const char *on, const char *off)
{
	char *out = xstrdup("");

	for (const char *o = opts; o < opts + n;) {
		const char *comma = memchr(o, ',', (size_t)(opts + n - o));
		size_t len = comma ? (size_t)(comma - o) : (size_t)(opts + n - o);

		if (len && !is_turned_off(o, len, off) && !(len == strlen(on) && !strncmp(o, on, len)) &&
		    strncmp(o, "defaults", len)) {
			char *more = xasprintf("%s%.*s,", out, (int)len, o);

			free(out);
			out = more;
		}
		o += len + 1;
	}
	{
		char *more = xasprintf("%s%s", out, on);

		free(out);
		out = more;
	}
	return out;
}

/* fstab's field 2 with its octal escapes (\040 for a space) decoded. */
static char *fstab_unescape(const char *s, size_t n)
{
	char *out = xmalloc(n + 1), *p = out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n + 1 && s[i + 1] >= '0' && s[i + 1] <= '3' && isdigit((unsigned char)s[i + 2]) &&
		    isdigit((unsigned char)s[i + 3])) {
			*p++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			*p++ = s[i];
		}
	}
	*p = '\0';
	return out;
}

/* The fstab content with option `on` in place of `off` in the entry mounting `mnt`; NULL when no entry
 * does. */
static char *edit_fstab(const char *prev, const char *mnt, const char *on, const char *off)
{
	char *out = xstrdup("");
	bool found = false;

	for (const char *l = prev; l && *l;) {
		const char *end = strchr(l, '\n'), *f[4] = {0};
		size_t n = end ? (size_t)(end - l) : strlen(l), flen[4] = {0}, k = 0;

		for (const char *p = l; p < l + n && k < 4 && *l != '#';) {
			while (p < l + n && isspace((unsigned char)*p))
				p++;
			if (p >= l + n || *p == '#')
				break;
			f[k] = p;
			while (p < l + n && !isspace((unsigned char)*p))
				p++;
			flen[k] = (size_t)(p - f[k]);
			k++;
		}
		if (k >= 2) {
			char *mp = fstab_unescape(f[1], flen[1]);

			if (!strcmp(mp, mnt)) {
				char *opts = edit_options(k == 4 ? f[3] : "", k == 4 ? flen[3] : 0, on, off);
				char *line = k == 4 ? xasprintf("%.*s%s%.*s", (int)(f[3] - l), l, opts,
								(int)(l + n - f[3] - flen[3]), f[3] + flen[3])
						    : xasprintf("%.*s\t%s", (int)n, l, opts);

				append_line(&out, line, strlen(line));
				free(line);
				free(opts);
				free(mp);
				found = true;
				l += n + (end != NULL);
				continue;
			}
			free(mp);
		}
		append_line(&out, l, n);
		l += n + (end != NULL);
	}
	if (!found) {
		free(out);
		return NULL;
	}
	return out;
}

int persist_prepare(const json_t *change, const struct facts *facts, const char *root, json_t **files,
		    char **note, struct fst_error *err)
{
	const json_t *p = json_object_get(change, "persistent");
	const char *kind = json_string_value(json_object_get(p, "kind"));
	const char *path = json_string_value(json_object_get(p, "path"));
	const char *line = json_string_value(json_object_get(p, "line"));
	char *prev = NULL, *next = NULL;
	int rc;

	*files = json_array();
	*note = NULL;
	if (!json_is_object(p))
		return FST_EXIT_OK;
	/* a unit that sets it again at each mount (btrfs's bdi, renamed then): the admin's to install */
	if (kind && !strcmp(kind, "systemd.service") && path) {
		*note = xasprintf("holds until the filesystem is mounted again: to keep it, install %s as the report "
				  "shows and enable it", path);
		return FST_EXIT_OK;
	}
	if (!kind || !path || path[0] != '/' || !line ||
	    (strcmp(kind, "sysctl.d") && strcmp(kind, "udev") && strcmp(kind, "fstab")))
		return fst_error_set(err, FST_EXIT_REFUSED, "%s: fstune does not install a persistent form of kind %s",
				     json_string_value(json_object_get(change, "setting")), kind ? kind : "(none)");
	rc = files_read(root, path, &prev, err);
	if (rc < 0)
		return FST_EXIT_REFUSED;
	if (!strcmp(kind, "fstab")) {
		char *mnt = facts_get_bytes(facts, "fs.mount_point"); /* fstab holds the bytes */
		char *on = NULL, *off = NULL;

		if (mnt && rules_setting_mount_change(json_string_value(json_object_get(change, "setting")),
						      json_object_get(change, "new"), &on, &off))
			next = edit_fstab(prev, mnt, on, off);
		if (!next)
			*note = xasprintf("no entry of %s mounts %s: %s holds until it is mounted again; %s", path,
					  mnt ? facts_get_string(facts, "fs.mount_point") : "the filesystem",
					  on ? on : "the option", line);
		free(on);
		free(off);
		free(mnt);
	} else {
		next = edit_lines(kind, prev, line);
	}
	if (next && (!prev || strcmp(prev, next))) {
		json_t *f = json_pack("{s:s}", "path", path);

		/* an fstab may hold a mount point's bytes that are not UTF-8: kept escaped, and listed */
		journal_set_bytes(f, "previous", prev);
		journal_set_bytes(f, "written", next);
		json_array_append_new(*files, f);
	}
	if (next && json_array_size(*files) == 0)
		*note = xasprintf("%s already holds the persistent form", path);
	free(prev);
	free(next);
	return FST_EXIT_OK;
}

/* Whether `dir` is a directory above `path` ("/etc/udev" above "/etc/udev/rules.d/69-fstune.rules"). */
static bool is_above(const char *dir, const char *path)
{
	size_t n = dir ? strlen(dir) : 0;

	return n > 1 && dir[0] == '/' && path && strlen(path) > n && !strncmp(dir, path, n) && path[n] == '/';
}

int persist_install(json_t *files, const char *root, struct fst_error *err)
{
	size_t i;
	json_t *f;

	json_array_foreach(files, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));
		char *dir = xstrndup(path, (size_t)(strrchr(path, '/') - path)), *written = journal_get_bytes(f, "written");
		json_t *created = json_array();
		int status = files_mkdirs(root, dir, created, err);

		if (json_array_size(created))
			json_object_set(f, "dirs_created", created);
		json_decref(created);
		if (status == FST_EXIT_OK)
			status = files_write(root, path, written, 0644, err);
		free(dir);
		free(written);
		if (status != FST_EXIT_OK)
			return status;
	}
	return FST_EXIT_OK;
}

int persist_restore(const json_t *files, const char *root, struct fst_error *err)
{
	int status = FST_EXIT_OK;

	for (size_t i = json_array_size(files); i-- > 0;) {
		const json_t *f = json_array_get(files, i), *dirs = json_object_get(f, "dirs_created");
		const char *path = json_string_value(json_object_get(f, "path"));
		char *prev = journal_get_bytes(f, "previous");

		if (prev ? files_write(root, path, prev, 0644, err) != FST_EXIT_OK
			 : files_remove(root, path, false, err) != FST_EXIT_OK)
			status = FST_EXIT_PARTIAL;
		free(prev);
		/* a directory apply made goes only when empty (something else may have moved in), and only
		 * one above the file: the journal names nothing else to remove */
		for (size_t k = json_array_size(dirs); k-- > 0;)
			if (is_above(json_string_value(json_array_get(dirs, k)), path))
				files_remove(root, json_string_value(json_array_get(dirs, k)), true, NULL);
	}
	return status;
}
