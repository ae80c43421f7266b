/* Owners from udev rules that assign the queue and bdi attributes fstune may recommend
 * (ATTR{queue/scheduler}="..."), in udev's order (udev(7): the rules files of /etc, /run,
 * /usr/local/lib and /usr/lib, and /lib on systems that keep it apart, ordered by file name, a
 * name in a higher directory hiding the others). A rule runs only where its matches hold; those
 * that can be judged from the facts (KERNEL, SUBSYSTEM, ACTION, ENV{DEVTYPE}, the identity
 * properties, ATTR{queue/rotational} and ATTR{queue/zoned}) are, and any other makes the rule
 * "unknown": udev is not run here. Among the rules that run, the last assignment wins, and a RUN program that writes the
 * attribute (echo ... > .../queue/..., blockdev --setra) wins over every assignment. */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "probes/owners.h"

static const char *const rules_dirs[] = {"/etc/udev/rules.d", "/run/udev/rules.d",
					 "/usr/local/lib/udev/rules.d", "/usr/lib/udev/rules.d",
					 "/lib/udev/rules.d", NULL};

static const struct {
	const char *attr, *setting;
} udev_attrs[] = {
	{"queue/scheduler", "queue.scheduler"},       {"queue/read_ahead_kb", "queue.read_ahead_kb"},
	{"bdi/read_ahead_kb", "queue.read_ahead_kb"}, {"queue/nr_requests", "queue.nr_requests"},
	{"queue/write_cache", "device.write_cache"},  {"bdi/max_ratio", "bdi.max_ratio"},
	{"bdi/strict_limit", "bdi.strict_limit"},     {"md/stripe_cache_size", "md.stripe_cache_size"},
};

enum verdict { V_NO, V_UNKNOWN, V_YES };

struct token {
	char key[64];   /* "KERNEL", "ENV{ID_SERIAL}", "ATTR{queue/scheduler}" */
	char op[3];     /* "==", "!=", "=", ":=", "+=", "-=" */
	char value[256];
};

/* The next KEY OP "VALUE" of a rule line; false at its end or on text that is not one. */
static bool next_token(const char **pp, struct token *t)
{
	const char *p = *pp, *start;
	size_t n = 0;

	while (*p == ' ' || *p == '\t' || *p == ',')
		p++;
	if (!*p || *p == '#')
		return false;
	for (start = p; *p && !strchr("=!+-:", *p) && !(*p == ' ' || *p == '\t'); p++)
		;
	snprintf(t->key, sizeof(t->key), "%.*s", (int)(p - start), start);
	while (*p == ' ' || *p == '\t')
		p++;
	for (start = p; *p && strchr("=!+-:", *p) && p - start < 2; p++)
		;
	snprintf(t->op, sizeof(t->op), "%.*s", (int)(p - start), start);
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '"' || !t->op[0])
		return false;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1])
			p++;
		if (n + 1 < sizeof(t->value))
			t->value[n++] = *p;
		p++;
	}
	t->value[n] = '\0';
	*pp = *p ? p + 1 : p;
	return true;
}

/* Whether `value` (udev's glob with | between alternatives) matches `s`. */
static bool udev_glob(const char *value, const char *s)
{
	char *alts = xstrdup(value), *save = NULL, *alt;
	bool hit = false;

	for (alt = strtok_r(alts, "|", &save); alt && !hit; alt = strtok_r(NULL, "|", &save))
		hit = fnmatch(alt, s, 0) == 0;
	free(alts);
	return hit;
}

/* The facts value a match key is about; NULL when the facts do not say. */
static const char *known_value(const struct facts *f, const char *key, char *buf, size_t len)
{
	static const struct {
		const char *key, *fact, *property_fact;
	} props[] = {
		{"ENV{ID_SERIAL_SHORT}", "device.serial", "device.serial_udev_property"},
		{"ENV{ID_SERIAL}", "device.serial", "device.serial_udev_property"},
		{"ENV{ID_WWN_WITH_EXTENSION}", "device.wwn", "device.wwn_udev_property"},
		{"ENV{ID_WWN}", "device.wwn", "device.wwn_udev_property"},
		{"ENV{ID_BUS}", "device.id_bus", NULL},
		{"ENV{ID_PATH}", "device.id_path", NULL},
		{"ENV{MD_UUID}", "device.md_uuid", NULL},
		{"ENV{DM_UUID}", "device.dm_uuid", NULL},
	};
	bool rot;

	if (!strcmp(key, "KERNEL"))
		return facts_get_string(f, "device.disk");
	if (!strcmp(key, "SUBSYSTEM") || !strcmp(key, "SUBSYSTEMS"))
		return "block";
	if (!strcmp(key, "ACTION"))
		return "add";
	if (!strcmp(key, "ENV{DEVTYPE}"))
		return "disk";
	if (!strcmp(key, "ATTR{queue/zoned}"))
		return facts_get_string(f, "device.zoned");
	if (!strcmp(key, "ATTR{queue/rotational}") && facts_get_bool(f, "device.rotational", &rot))
		return snprintf(buf, len, "%d", rot) > 0 ? buf : NULL;
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		const char *prop = props[i].property_fact ? facts_get_string(f, props[i].property_fact) : NULL;

		if (!strcmp(key, props[i].key) && (!props[i].property_fact || (prop && !strcmp(prop, key + 4) &&
		    key[4 + strlen(prop)] == '}')))
			return facts_get_string(f, props[i].fact);
	}
	return NULL;
}

struct udev_walk {
	struct owners *o;
	const struct owners_conf *conf;
	bool jumps; /* the file has GOTO: whether a line runs depends on what it skips */
};

/* The rule's verdict on the target disk, and the first match that decided it in `why`. */
static enum verdict judge(const struct facts *f, const char *line, bool jumps, char *why, size_t len)
{
	struct token t;
	const char *p = line;
	enum verdict v = jumps ? V_UNKNOWN : V_YES;

	why[0] = '\0';
	if (jumps)
		snprintf(why, len, "the file jumps (GOTO): whether this rule runs is not judged");
	if (!facts_get_string(f, "device.disk")) {
		snprintf(why, len, "no device to judge the rule's matches against");
		return V_UNKNOWN;
	}
	while (next_token(&p, &t)) {
		char buf[8];
		const char *have;
		bool hit;

		if (strcmp(t.op, "==") && strcmp(t.op, "!="))
			continue;
		have = known_value(f, t.key, buf, sizeof(buf));
		if (!have) {
			if (v == V_YES)
				snprintf(why, len, "%s%s\"%s\" is not known here", t.key, t.op, t.value);
			v = v == V_NO ? V_NO : V_UNKNOWN;
			continue;
		}
		hit = udev_glob(t.value, have) == !strcmp(t.op, "==");
		if (!hit) {
			snprintf(why, len, "%s%s\"%s\" does not match %s", t.key, t.op, t.value, have);
			return V_NO;
		}
	}
	return v;
}

/* The setting an ATTR{...} key assigns; NULL when none fstune recommends. */
static const char *attr_setting(const char *key)
{
	for (size_t i = 0; i < sizeof(udev_attrs) / sizeof(udev_attrs[0]); i++)
		if (!strncmp(key, "ATTR{", 5) && !strncmp(key + 5, udev_attrs[i].attr, strlen(udev_attrs[i].attr)) &&
		    key[5 + strlen(udev_attrs[i].attr)] == '}')
			return udev_attrs[i].setting;
	return NULL;
}

/* A RUN program that writes an attribute ("echo 1024 > /sys%p/queue/read_ahead_kb") or sets
 * read-ahead with blockdev --setra (512-byte sectors): its setting, and the value when it can be
 * read off the command (into buf), else NULL. */
static const char *run_setting(const char *cmd, char *buf, size_t len, const char **value)
{
	const char *p;

	*value = NULL;
	if ((p = strstr(cmd, "--setra"))) {
		long long sectors = strtoll(p + 7, NULL, 10);

		if (sectors > 0 && snprintf(buf, len, "%lld", sectors / 2) > 0)
			*value = buf;
		return "queue.read_ahead_kb";
	}
	for (size_t i = 0; i < sizeof(udev_attrs) / sizeof(udev_attrs[0]); i++) {
		if (!strstr(cmd, udev_attrs[i].attr))
			continue;
		if ((p = strstr(cmd, "echo ")) && sscanf(p + 5, "%63[^ >'\"]", buf) == 1)
			*value = buf;
		return udev_attrs[i].setting;
	}
	return NULL;
}

static void add_owner(struct udev_walk *w, const char *setting, const char *key, const char *value, int no,
		      enum verdict v, const char *why, bool is_run)
{
	json_t *owner = owners_add(w->o, setting, "udev", w->conf->target ? w->conf->target : w->conf->path, no,
				   key, value);

	json_object_set_new(owner, "wins", v == V_NO ? json_false() : json_string("unknown"));
	json_object_set_new(owner, "matches", json_string(v == V_YES ? "yes" : v == V_NO ? "no" : "unknown"));
	if (is_run)
		json_object_set_new(owner, "run", json_true());
	if (why[0])
		json_object_set_new(owner, "note", json_string_nocheck(why));
}

static void udev_line(char *line, int no, void *arg)
{
	struct udev_walk *w = arg;
	struct token t;
	const char *p;
	char why[700], buf[64];
	enum verdict v = V_UNKNOWN;
	bool judged = false;

	line = owners_trim(line);
	if (!*line || *line == '#')
		return;
	for (p = line; next_token(&p, &t);) {
		bool is_run = !strncmp(t.key, "RUN", 3) && strcmp(t.op, "-=");
		const char *value = t.value, *setting;

		if (is_run)
			setting = run_setting(t.value, buf, sizeof(buf), &value);
		else if (!strcmp(t.op, "=") || !strcmp(t.op, ":="))
			setting = attr_setting(t.key);
		else
			setting = NULL;
		if (!setting)
			continue;
		if (!judged) {
			v = judge(w->o->facts, line, w->jumps, why, sizeof(why));
			judged = true;
		}
		add_owner(w, setting, is_run ? t.value : t.key, value, no, v, why, is_run);
	}
}

/* An owner's place in udev's order: rules in file order, but RUN programs run after every rule has
 * been processed, so after all assignments. */
static size_t udev_order(const json_t *e, size_t i)
{
	return json_is_true(json_object_get(e, "run")) ? i + 1000000 : i;
}

static bool is_udev(const json_t *e, const char *matches)
{
	return !strcmp(json_string_value(json_object_get(e, "kind")), "udev") &&
	       !strcmp(json_string_value(json_object_get(e, "matches")), matches);
}

/* Among each setting's udev owners, the last that surely runs wins; one that may run after it makes
 * it unknown; one before it loses. */
static void decide(json_t *list)
{
	json_t *e, *winner = NULL;
	size_t i, at = 0;

	json_array_foreach(list, i, e)
		if (is_udev(e, "yes") && (!winner || udev_order(e, i) >= at)) {
			winner = e;
			at = udev_order(e, i);
		}
	if (!winner)
		return;
	json_array_foreach(list, i, e)
		if (!strcmp(json_string_value(json_object_get(e, "kind")), "udev") && udev_order(e, i) < at)
			json_object_set_new(e, "wins", json_false());
	json_object_set_new(winner, "wins", json_true());
	json_array_foreach(list, i, e)
		if (udev_order(e, i) > at && is_udev(e, "unknown")) {
			json_object_set_new(winner, "wins", json_string("unknown"));
			json_object_set_new(winner, "note", json_sprintf("the rule at %s:%lld runs after it and may "
				"match", json_string_value(json_object_get(e, "path")),
				(long long)json_integer_value(json_object_get(e, "line"))));
		}
}

void owners_udev_collect(struct owners *o)
{
	size_t n;
	struct owners_conf *conf = owners_conf_list(rules_dirs, ".rules", &n);
	struct udev_walk w = {o, NULL, false};
	const char *setting;
	json_t *list;

	for (size_t i = 0; i < n; i++) {
		char *text = owners_conf_read(&conf[i]);

		w.conf = &conf[i];
		w.jumps = text && strstr(text, "GOTO");
		if (text)
			owners_lines(text, true, udev_line, &w);
		free(text);
	}
	owners_conf_free(conf, n);
	json_object_foreach(o->by_setting, setting, list)
		decide(list);
}
