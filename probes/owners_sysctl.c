/* Owners from sysctl.d files, read as systemd-sysctl reads them at boot (sysctl.d(5)): every *.conf
 * of the four directories in one order by file name, /etc's file hiding a same-named one of /run,
 * /usr/local/lib or /usr/lib, a link to /dev/null masking it; the last assignment of a key wins.
 * /etc/sysctl.conf counts only through the link Debian's procps ships (99-sysctl.conf). Debian 12's
 * systemd 252 reads no /lib/sysctl.d (its systemd-sysctl names only these four; /lib is /usr/lib). */
#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "probes/owners.h"

static const char *const sysctl_dirs[] = {"/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d",
					  "/usr/lib/sysctl.d", NULL};

struct sysctl_walk {
	struct owners *o;
	const struct owners_conf *conf;
	json_t *last[OWNERS_N_SYSCTL]; /* per owners_sysctl_names[]: the latest assignment so far */
};

static void record(struct sysctl_walk *w, size_t i, const char *key, const char *value, int no, bool glob)
{
	const struct owners_conf *c = w->conf;
	json_t *owner = owners_add(w->o, owners_sysctl_names[i].setting, "sysctl.d",
				   c->target ? c->target : c->path, no, key, value);

	if (c->target)
		json_object_set_new(owner, "via", json_string_nocheck(c->path));
	if (glob)
		json_object_set_new(owner, "note", json_string("a glob pattern"));
	if (w->last[i])
		json_object_set_new(w->last[i], "note", json_sprintf("%s:%d sets it later",
								      c->target ? c->target : c->path, no));
	w->last[i] = owner;
}

static void sysctl_line(char *line, int no, void *arg)
{
	struct sysctl_walk *w = arg;
	char *eq, *key, *value, *norm;
	bool glob;

	line = owners_trim(line);
	if (!*line || *line == '#' || *line == ';' || !(eq = strchr(line, '=')))
		return;
	*eq = '\0';
	key = owners_trim(line);
	value = owners_trim(eq + 1);
	norm = owners_sysctl_normalize(key[0] == '-' ? key + 1 : key);
	glob = strpbrk(norm, "*?[") != NULL;
	for (size_t i = 0; i < OWNERS_N_SYSCTL; i++)
		if (glob ? fnmatch(norm, owners_sysctl_names[i].sysctl, 0) == 0
			 : !strcmp(norm, owners_sysctl_names[i].sysctl))
			record(w, i, key, value, no, glob);
	free(norm);
}

void owners_sysctl_collect(struct owners *o)
{
	size_t n;
	struct owners_conf *conf = owners_conf_list(sysctl_dirs, ".conf", &n);
	struct sysctl_walk w = {o, NULL, {0}};

	for (size_t i = 0; i < n; i++) {
		char *text = owners_conf_read(&conf[i]);

		w.conf = &conf[i];
		if (text)
			owners_lines(text, false, sysctl_line, &w);
		free(text);
	}
	for (size_t i = 0; i < OWNERS_N_SYSCTL; i++)
		if (w.last[i])
			json_object_set_new(w.last[i], "wins", json_true());
	owners_conf_free(conf, n);
}
