/* The owners probe's sysctl.d reading, against trees made here: systemd-sysctl's order (by file
 * name, whatever the directory; a directory's priority only between files of one name; /dev/null
 * masks; /etc/sysctl.conf only through a link; the last assignment wins), the key spellings, and
 * the engine's placement of a persistent form from such owners. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "fstune/path.h"
#include "lib/facts_schema.h"
#include "probes/owners.h"
#include "rules/settings.h"

static char root[] = "/tmp/fstune-test-owners-XXXXXX";

static void mkdirs(const char *rel)
{
	char *p = malloc(strlen(root) + strlen(rel) + 2), *s;

	sprintf(p, "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
}

static void put(const char *rel, const char *text)
{
	char *p = malloc(strlen(root) + strlen(rel) + 2);
	FILE *f;

	sprintf(p, "%s/%s", root, rel);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void link_to(const char *target, const char *rel)
{
	char *p = malloc(strlen(root) + strlen(rel) + 2);

	sprintf(p, "%s/%s", root, rel);
	CHECK(symlink(target, p) == 0);
	free(p);
}

/* The owners of one setting as "path:line=value[*]" joined by spaces, * marking the winner. */
static char *summary(const struct owners *o, const char *setting)
{
	static char buf[2048];
	const json_t *list = owners_list(o, setting), *e;
	size_t i, len = 0;

	buf[0] = '\0';
	json_array_foreach(list, i, e)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s:%lld=%s%s", i ? " " : "",
					json_string_value(json_object_get(e, "path")),
					(long long)json_integer_value(json_object_get(e, "line")),
					json_string_value(json_object_get(e, "value")),
					json_is_true(json_object_get(e, "wins")) ? "*" : "");
	return buf;
}

static void test_order(void)
{
	struct facts *f = facts_new();
	struct owners o = {json_object(), f};
	const json_t *e;

	mkdirs("etc/sysctl.d");
	mkdirs("run/sysctl.d");
	mkdirs("usr/local/lib/sysctl.d");
	mkdirs("usr/lib/sysctl.d");
	mkdirs("lib/sysctl.d");
	/* by name across directories: /usr/lib's 30- comes after /etc's 20- */
	put("usr/lib/sysctl.d/10-a.conf", "vm.dirty_ratio = 11\n");
	put("etc/sysctl.d/20-b.conf", "# comment\n; also a comment\nvm.dirty_ratio=21\n");
	put("usr/lib/sysctl.d/30-c.conf", "vm/dirty_ratio = 31\n");
	/* one name in two directories: /etc hides /usr/lib, /run hides /usr/local/lib */
	put("usr/lib/sysctl.d/40-same.conf", "vm.dirty_background_ratio = 1\n");
	put("etc/sysctl.d/40-same.conf", "\nvm.dirty_background_ratio = 2\n");
	put("usr/local/lib/sysctl.d/45-run.conf", "vm.dirty_expire_centisecs = 1\n");
	put("run/sysctl.d/45-run.conf", "-vm.dirty_expire_centisecs = 2\n");
	/* masked by a link to /dev/null */
	put("usr/lib/sysctl.d/50-masked.conf", "vm.vfs_cache_pressure = 1\n");
	link_to("/dev/null", "etc/sysctl.d/50-masked.conf");
	/* /etc/sysctl.conf only through Debian's link; /lib/sysctl.d is not read by systemd 252 */
	put("etc/sysctl.conf", "vm.dirty_writeback_centisecs = 700\n");
	link_to("../sysctl.conf", "etc/sysctl.d/99-sysctl.conf");
	put("lib/sysctl.d/99-zz.conf", "vm.dirty_writeback_centisecs = 1\n");
	/* a glob names every key it matches */
	put("usr/lib/sysctl.d/60-glob.conf", "vm.dirty_*bytes = 0\n");
	path_set_sysroot(root);
	owners_sysctl_collect(&o);

	CHECK_STR(summary(&o, "sysctl.vm.dirty_ratio"), "/usr/lib/sysctl.d/10-a.conf:1=11 "
		  "/etc/sysctl.d/20-b.conf:3=21 /usr/lib/sysctl.d/30-c.conf:1=31*");
	CHECK_STR(summary(&o, "sysctl.vm.dirty_background_ratio"), "/etc/sysctl.d/40-same.conf:2=2*");
	CHECK_STR(summary(&o, "sysctl.vm.dirty_expire_centisecs"), "/run/sysctl.d/45-run.conf:1=2*");
	CHECK(owners_list(&o, "sysctl.vm.vfs_cache_pressure") == NULL);
	CHECK_STR(summary(&o, "sysctl.vm.dirty_writeback_centisecs"), "/etc/sysctl.conf:1=700*");
	e = json_array_get(owners_list(&o, "sysctl.vm.dirty_writeback_centisecs"), 0);
	CHECK_STR(json_string_value(json_object_get(e, "via")), "/etc/sysctl.d/99-sysctl.conf");
	CHECK_STR(summary(&o, "sysctl.vm.dirty_bytes"), "/usr/lib/sysctl.d/60-glob.conf:1=0*");
	CHECK_STR(summary(&o, "sysctl.vm.dirty_background_bytes"), "/usr/lib/sysctl.d/60-glob.conf:1=0*");
	/* the loser says who sets it later */
	e = json_array_get(owners_list(&o, "sysctl.vm.dirty_ratio"), 0);
	CHECK_CONTAINS(json_string_value(json_object_get(e, "note")), "/etc/sysctl.d/20-b.conf:3");
	e = json_array_get(owners_list(&o, "sysctl.vm.dirty_expire_centisecs"), 0);
	CHECK_STR(json_string_value(json_object_get(e, "key")), "-vm.dirty_expire_centisecs");
	json_decref(o.by_setting);
	facts_free(f);
}

static void test_names(void)
{
	CHECK_STR_FREE(owners_sysctl_normalize("vm/dirty_ratio"), "vm.dirty_ratio");
	CHECK_STR_FREE(owners_sysctl_normalize("net/ipv4/conf/eth0.100/rp_filter"),
		       "net.ipv4.conf.eth0/100.rp_filter");
	CHECK_STR_FREE(owners_sysctl_normalize("net.ipv4.conf.eth0/100.rp_filter"),
		       "net.ipv4.conf.eth0/100.rp_filter");
	CHECK_STR(owners_sysctl_setting("vm/vfs_cache_pressure"), "sysctl.vm.vfs_cache_pressure");
	CHECK(owners_sysctl_setting("vm.swappiness") == NULL);
	/* every sysctl the probe knows is a setting of the table and a key of the schema */
	for (size_t i = 0; i < OWNERS_N_SYSCTL; i++) {
		char key[128];
		enum facts_type type;

		CHECK(settings_find(owners_sysctl_names[i].setting) != NULL);
		snprintf(key, sizeof(key), "owners.%s", owners_sysctl_names[i].setting);
		CHECK(facts_schema_lookup(key, &type) && type == FACTS_T_OBJLIST);
	}
}

/* Builds setting `name` = `value` on `facts` and returns its persistent form (new reference). */
static json_t *place(struct facts *f, const char *name, json_t *value)
{
	struct setting_ctx c = {0};
	json_t *p;

	c.facts = f;
	c.value = value;
	c.apply = json_array();
	c.revert = json_array();
	CHECK(settings_build(settings_find(name), &c));
	p = c.persistent;
	json_decref(c.apply);
	json_decref(c.revert);
	json_decref(c.owners);
	json_decref(value);
	return p;
}

static struct facts *with_owner(const char *setting, const char *kind, const char *path, const char *via)
{
	struct facts *f = facts_new();
	char key[128];
	json_t *o = json_pack("{s:s, s:s, s:i, s:s, s:s, s:b}", "kind", kind, "path", path, "line", 3, "key",
			      "vm.dirty_ratio", "value", "40", "wins", 1);

	if (via)
		json_object_set_new(o, "via", json_string(via));
	snprintf(key, sizeof(key), "owners.%s", setting);
	facts_set_json(f, key, json_pack("[o]", o), NULL);
	facts_set_string(f, "device.disk", "sdb", NULL);
	return f;
}

static const char *pstr(const json_t *p, const char *field)
{
	return json_string_value(json_object_get(p, field));
}

/* The path of setting `name` = `value` placed against one owner of `kind` at `path` (link `via`). */
static void expect_path(const char *name, json_t *value, const char *kind, const char *path, const char *via,
			const char *want)
{
	struct facts *f = with_owner(name, kind, path, via);
	json_t *p = place(f, name, value);

	CHECK_STR(pstr(p, "path"), want);
	json_decref(p);
	facts_free(f);
}

static void test_placement(void)
{
	struct facts *f;
	json_t *p;

	f = with_owner("sysctl.vm.dirty_ratio", "sysctl.d", "/etc/sysctl.d/99-db.conf", NULL);
	p = place(f, "sysctl.vm.dirty_ratio", json_integer(10));
	CHECK_STR(pstr(p, "path"), "/etc/sysctl.d/99-fstune.conf");
	CHECK_STR(pstr(json_object_get(p, "placement"), "reason"), "after");
	CHECK_CONTAINS(pstr(json_object_get(p, "placement"), "note"),
		       "a file named 60-fstune.conf would lose to /etc/sysctl.d/99-db.conf:3 at boot");
	json_decref(p);
	facts_free(f);
	/* ordered by the link's name, 99-sysctl.conf: only zz- sorts after it */
	expect_path("sysctl.vm.dirty_ratio", json_integer(10), "sysctl.d", "/etc/sysctl.conf",
		    "/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.d/zz-fstune.conf");
	/* an owner that sorts before the default: the default stays */
	expect_path("sysctl.vm.dirty_ratio", json_integer(10), "sysctl.d", "/usr/lib/sysctl.d/50-vendor.conf",
		    NULL, "/etc/sysctl.d/60-fstune.conf");
	/* the owner's own number first, then 99- */
	expect_path("queue.read_ahead_kb", json_integer(4096), "udev", "/usr/lib/udev/rules.d/80-ata.rules", NULL,
		    "/etc/udev/rules.d/80-fstune.rules");
	expect_path("queue.read_ahead_kb", json_integer(4096), "udev", "/usr/lib/udev/rules.d/80-vendor.rules",
		    NULL, "/etc/udev/rules.d/99-fstune.rules");

	/* nothing sorts after zzz.conf: edit it */
	f = with_owner("sysctl.vm.dirty_ratio", "sysctl.d", "/etc/sysctl.d/zzz.conf", NULL);
	p = place(f, "sysctl.vm.dirty_ratio", json_integer(10));
	CHECK_STR(pstr(json_object_get(p, "placement"), "reason"), "edit");
	CHECK_STR(pstr(p, "kind"), "edit");
	CHECK_STR(pstr(p, "form"), "sysctl.d");
	CHECK_STR(pstr(p, "path"), "/etc/sysctl.d/zzz.conf");
	CHECK(json_integer_value(json_object_get(p, "edit_line")) == 3);
	json_decref(p);
	facts_free(f);

	/* a RUN program runs after every assignment: no file name beats it */
	f = with_owner("queue.read_ahead_kb", "udev", "/etc/udev/rules.d/10-setra.rules", NULL);
	json_object_set_new(json_array_get(facts_get(f, "owners.queue.read_ahead_kb"), 0), "run", json_true());
	p = place(f, "queue.read_ahead_kb", json_integer(4096));
	CHECK_STR(pstr(json_object_get(p, "placement"), "reason"), "edit");
	CHECK_STR(pstr(p, "path"), "/etc/udev/rules.d/10-setra.rules");
	CHECK_STR(pstr(p, "instead_of"), "/etc/udev/rules.d/69-fstune.rules");
	json_decref(p);
	facts_free(f);

	/* tuned active: a child profile including the active one, whatever the owners */
	f = with_owner("queue.read_ahead_kb", "udev", "/usr/lib/udev/rules.d/80-vendor.rules", NULL);
	facts_set_string(f, "host.tuned_profile", "throughput-performance", NULL);
	facts_set_bool(f, "host.tuned_active", true, NULL);
	p = place(f, "queue.read_ahead_kb", json_integer(4096));
	CHECK_STR(pstr(p, "kind"), "tuned");
	CHECK_STR(pstr(p, "path"), "/etc/tuned/fstune/tuned.conf");
	CHECK_STR(pstr(p, "line"), "[main]\ninclude=throughput-performance\n\n[disk]\nreadahead=4096");
	json_decref(p);
	/* ... but tuned has no option for nr_requests: the udev rule stays */
	p = place(f, "queue.nr_requests", json_integer(64));
	CHECK_STR(pstr(p, "kind"), "udev");
	json_decref(p);
	facts_free(f);

	f = with_owner("mount.option.commit", "mount-unit", "/etc/systemd/system/srv.mount", NULL);
	facts_set_string(f, "fs.mount_point", "/srv", NULL);
	p = place(f, "mount.option.commit", json_integer(30));
	CHECK_STR(pstr(p, "kind"), "mount-unit");
	CHECK_STR(pstr(p, "path"), "/etc/systemd/system/srv.mount");
	CHECK_CONTAINS(pstr(p, "line"), "add commit=30 to Options= in /etc/systemd/system/srv.mount:3");
	json_decref(p);
	facts_free(f);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_order();
	test_names();
	path_set_sysroot(NULL);
	test_placement();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return CHECK_DONE();
}
