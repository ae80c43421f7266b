/* The owners probe: what else manages each setting fstune may recommend (tuned, sysctl.d, udev
 * rules, fstab and mount units, the kernel command line), as facts owners.<setting>, and which of
 * them wins at boot. Each source is read by its own file (owners_<source>.c); this one runs them,
 * decides between sources, and reads the kernel command line. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/path.h"
#include "lib/xalloc.h"
#include "probes/owners.h"
#include "probes/registry.h"

/* The major version of host.kernel ("6.18.44" -> 6); 0 when unknown. */
static int kernel_major(const struct facts *f)
{
	const char *k = facts_get_string(f, "host.kernel");

	return k ? atoi(k) : 0;
}

/* elevator= chose the legacy single-queue scheduler; blk-mq, the only block layer since Linux 5.0,
 * ignores it (a scheduler is set per device, by udev or sysfs). */
static void collect_cmdline(struct owners *o)
{
	char *cmdline = path_read_string("/proc/cmdline"), *save = NULL, *tok;
	int major = kernel_major(o->facts);

	for (tok = cmdline ? strtok_r(cmdline, " \t\n", &save) : NULL; tok; tok = strtok_r(NULL, " \t\n", &save)) {
		json_t *owner;

		if (!strcmp(tok, "--"))
			break; /* what follows is init's, not the kernel's */
		if (strncmp(tok, "elevator=", 9))
			continue;
		owner = owners_add(o, "queue.scheduler", "cmdline", "/proc/cmdline", 1, "elevator", tok + 9);
		if (major > 0 && major < 5) {
			json_object_set_new(owner, "wins", json_string("unknown"));
			json_object_set_new(owner, "note", json_string("a Linux 4 kernel applies it to devices on "
				"the legacy single-queue block layer only"));
		} else {
			json_object_set_new(owner, "note", json_string("a leftover: elevator= has done nothing "
				"since Linux 5.0 (blk-mq); remove it from the boot loader's command line"));
		}
	}
	free(cmdline);
}

static bool is_sysctl_setting(const char *setting)
{
	return !strncmp(setting, "sysctl.", 7);
}

static bool is_reapplied(const json_t *owner)
{
	const char *p = json_string_value(json_object_get(owner, "via"));

	if (!p)
		p = json_string_value(json_object_get(owner, "path"));
	return p && (!strncmp(p, "/etc/", 5) || !strncmp(p, "/run/", 5));
}

static void lose(json_t *owner, const char *why)
{
	json_object_set_new(owner, "wins", json_false());
	if (why)
		json_object_set_new(owner, "note", json_string_nocheck(why));
}

/* With tuned active, its profile is applied after boot, over sysctl.d and udev; but with
 * reapply_sysctl (tuned-main.conf, on by default) its sysctl plugin then re-applies the sysctl.d
 * files of /etc and /run (not /usr: tuned's plugin_sysctl.py), so the last of those wins, over the
 * profile and over the files systemd-sysctl read after it at boot. Those owners get "reapplied". */
static void decide_with_tuned(json_t *list, const char *setting, bool reapply)
{
	json_t *tuned = NULL, *reapplied = NULL, *e;
	size_t i;

	json_array_foreach(list, i, e) {
		const char *kind = json_string_value(json_object_get(e, "kind"));

		if (!strcmp(kind, "tuned") && json_is_true(json_object_get(e, "wins"))) {
			tuned = e;
		} else if (!strcmp(kind, "sysctl.d") && is_sysctl_setting(setting) && reapply && is_reapplied(e)) {
			json_object_set_new(e, "reapplied", json_true());
			reapplied = e; /* the last in systemd-sysctl's order */
		}
	}
	if (reapplied) {
		json_array_foreach(list, i, e)
			if (e != reapplied && !json_is_false(json_object_get(e, "wins")))
				lose(e, "tuned re-applies the sysctl.d files of /etc and /run after its profile "
					"(reapply_sysctl in /etc/tuned/tuned-main.conf)");
		json_object_set_new(reapplied, "wins", json_true());
		return;
	}
	json_array_foreach(list, i, e)
		if (tuned && e != tuned && strcmp(json_string_value(json_object_get(e, "kind")), "tuned") &&
		    !json_is_false(json_object_get(e, "wins")))
			lose(e, "the active tuned profile sets it after boot");
}

static void owners_collect(const struct probe_target *t, struct facts *f)
{
	struct owners o = {json_object(), f};
	bool tuned_active = false, reapply = true;
	const char *setting;
	json_t *list;

	(void)t;
	owners_sysctl_collect(&o);
	owners_udev_collect(&o);
	owners_mount_collect(&o);
	collect_cmdline(&o);
	owners_tuned_collect(&o, f, &tuned_active);
	facts_get_bool(f, "host.tuned_reapply_sysctl", &reapply);
	json_object_foreach(o.by_setting, setting, list) {
		char *key = xasprintf("owners.%s", setting);

		if (tuned_active)
			decide_with_tuned(list, setting, reapply);
		facts_set_json(f, key, json_incref(list), "config");
		free(key);
	}
	json_decref(o.by_setting);
}

const struct probe_ops probe_owners = {
	.name = "owners",
	.needs_root = false,
	.collect = owners_collect,
};
