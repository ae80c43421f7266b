/* What undo takes from a journal (app/apply/trust.c), without touching the host: the revert of a
 * bytes sysctl set while its ratio was in effect is built again from the ratio apply recorded
 * ("before"), not from the running system (where writing the bytes zeroed the ratio), the revert
 * strings of the journal are never what is returned, and files are accepted only where the setting's
 * family installs its persistent form. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "app/apply/apply.h"
#include "tests/lib/check.h"

static json_t *change(const char *setting, json_t *old, json_t *new, const char *file)
{
	json_t *c = json_pack("{s:s, s:s, s:s, s:o, s:o, s:[s], s:b}", "id", "t.x", "setting", setting, "disruption",
			      strncmp(setting, "mount.", 6) ? "runtime" : "remount", "old", old, "new", new, "revert",
			      "touch /tmp/fstune-trust-test", "live", 1);

	if (file)
		json_object_set_new(c, "files", json_pack("[{s:s, s:n, s:s}]", "path", file, "previous", "written", "x"));
	return c;
}

static void test_ratio_revert(void)
{
	struct facts *before = facts_new(), *now = facts_new();
	json_t *c = change("sysctl.vm.dirty_bytes", json_integer(0), json_integer(268435456), NULL), *cmds = NULL;
	struct fst_error err = FST_ERROR_INIT;
	char buf[512];

	facts_set_int(before, "vm.dirty_bytes", 0, "procfs");
	facts_set_int(before, "vm.dirty_ratio", 20, "procfs");
	apply_record_before(c, before);
	CHECK(json_integer_value(json_object_get(json_object_get(c, "before"), "vm.dirty_ratio")) == 20);
	CHECK(undo_change_problem(c, buf, sizeof buf) == NULL);
	/* after apply: the kernel zeroed the ratio when the bytes were written */
	facts_set_int(now, "vm.dirty_bytes", 268435456, "procfs");
	facts_set_int(now, "vm.dirty_ratio", 0, "procfs");
	CHECK(undo_revert_commands(c, now, &cmds, &err) == FST_EXIT_OK);
	CHECK(json_array_size(cmds) == 1);
	CHECK_STR(json_string_value(json_array_get(cmds, 0)), "sysctl -w vm.dirty_ratio=20");
	json_decref(cmds);
	/* a "before" value of the wrong type, or of a fact the change does not alter, is refused */
	json_object_set_new(json_object_get(c, "before"), "vm.dirty_ratio", json_string("20; reboot"));
	CHECK_CONTAINS(undo_change_problem(c, buf, sizeof buf), "is not a value that fact takes");
	json_object_set_new(c, "before", json_pack("{s:i}", "vm.swappiness", 1));
	CHECK_CONTAINS(undo_change_problem(c, buf, sizeof buf), "which sysctl.vm.dirty_bytes does not change");
	json_decref(c);
	facts_free(before);
	facts_free(now);
}

static void test_paths(void)
{
	static const struct {
		const char *setting, *path;
		bool is_ok;
	} cases[] = {
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/60-fstune.conf", true},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/99-fstune.conf", true},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/zz-fstune.conf", true},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/99-fstune.rules", false},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/99-evil.conf", false},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/sysctl.d/../cron.d/60-fstune.conf", false},
		{"sysctl.vm.dirty_expire_centisecs", "/etc/udev/rules.d/69-fstune.rules", false},
		{"queue.read_ahead_kb", "/etc/udev/rules.d/69-fstune.rules", true},
		{"queue.read_ahead_kb", "/etc/udev/rules.d/70-fstune.rules", true},
		{"queue.read_ahead_kb", "/etc/fstab", false},
		{"mount.option.noatime", "/etc/fstab", true},
		{"mount.option.noatime", "/etc/fstab2", false},
		{"mount.option.noatime", "/etc/60-fstune.fstab", false},
		{"fs.reserved_percent", "/etc/fstab", false}, /* tune2fs: no file at all */
	};
	char buf[512];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool is_bool = !strncmp(cases[i].setting, "mount.", 6);
		json_t *v = is_bool ? json_true() : json_integer(10);
		json_t *c = change(cases[i].setting, is_bool ? json_false() : json_integer(5), v, cases[i].path);
		const char *why;

		if (!strcmp(cases[i].setting, "fs.reserved_percent"))
			json_object_set_new(c, "disruption", json_string("online"));
		why = undo_change_problem(c, buf, sizeof buf);
		if ((why == NULL) != cases[i].is_ok)
			fprintf(stderr, "%s at %s: %s\n", cases[i].setting, cases[i].path, why ? why : "accepted");
		CHECK((why == NULL) == cases[i].is_ok);
		json_decref(c);
	}
}

int main(void)
{
	test_ratio_revert();
	test_paths();
	return CHECK_DONE();
}
