/* Unit tests of the setting table: shell quoting, value validation, each family's ops (build, read,
 * fact, current) and command building (the merge of mkfs specs: test_mkfs.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "rules/internal.h"
#include "rules/settings.h"
#include "fstune/shell.h"
#include "tests/lib/check.h"

static void test_quote(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"mq-deadline", "mq-deadline"},
		{"/dev/sda1", "/dev/sda1"},
		{"write through", "'write through'"},
		{"", "''"},
		{"a'b", "'a'\\''b'"},
		{"$(touch x);`id`", "'$(touch x);`id`'"},
		{"x\ny", "'x\ny'"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = fst_shell_quote(cases[i].in);

		CHECK_STR(q, cases[i].out);
		free(q);
	}
}

static bool valid(const char *setting, json_t *v)
{
	char msg[256];
	bool ok = settings_check_value(settings_find(setting), v, true, msg, sizeof(msg));

	json_decref(v);
	return ok;
}

static void test_values(void)
{
	size_t n;
	const struct setting *all = settings_all(&n);

	CHECK(n >= 40);
	for (size_t i = 0; i < n; i++) {
		CHECK(all[i].family && all[i].family->name && all[i].family->build);
		CHECK(all[i].help && *all[i].help);
		CHECK(settings_find(all[i].name) == &all[i]);
	}
	CHECK(valid("sysctl.vm.dirty_ratio", json_integer(20)));
	CHECK(!valid("sysctl.vm.dirty_ratio", json_integer(101)));
	CHECK(!valid("sysctl.vm.dirty_ratio", json_integer(-1)));
	CHECK(!valid("sysctl.vm.dirty_ratio", json_string("20")));
	CHECK(valid("sysctl.vm.dirty_ratio", json_real(20.0)));
	CHECK(!valid("sysctl.vm.dirty_ratio", json_real(20.5)));
	CHECK(valid("mkfs.block_size", json_integer(4096)));
	CHECK(!valid("mkfs.block_size", json_integer(3000)));
	CHECK(!valid("mkfs.block_size", json_integer(131072)));
	CHECK(valid("queue.scheduler", json_string("mq-deadline")));
	CHECK(!valid("queue.scheduler", json_string("cfq")));
	CHECK(!valid("queue.scheduler", json_string("none; reboot")));
	CHECK(valid("mkfs.features", json_pack("[s,s]", "inline_data", "^has_journal")));
	CHECK(!valid("mkfs.features", json_pack("[s]", "a,b")));
	CHECK(!valid("mkfs.features", json_array()));
	CHECK(!valid("mkfs.label", json_string("seventeen bytes!!")));
	CHECK(!valid("mkfs.label", json_string("tab\there")));
	CHECK(valid("fs.reserved_percent", json_real(0.5)));
	CHECK(!valid("fs.feature.dir_index", json_integer(1)));
	CHECK(settings_find("sysctl.vm.bogus") == NULL);
}

/* Builds one recommendation's commands on facts given as JSON text. */
static struct setting_ctx build(const char *setting, json_t *value, json_t *current, const char *facts_json,
				bool *ok)
{
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_from_json(facts_json, strlen(facts_json), "test", &err);
	struct setting_ctx c = {0};

	c.facts = f;
	c.value = value;
	c.current = current;
	c.fs = facts_get_string(f, "fs.type");
	c.apply = json_array();
	c.revert = json_array();
	*ok = f && settings_build(settings_find(setting), &c);
	facts_free(f);
	c.facts = NULL;
	c.fs = NULL;
	return c;
}

static void ctx_free(struct setting_ctx *c)
{
	json_decref(c->apply);
	json_decref(c->revert);
	json_decref(c->persistent);
	json_decref(c->mkfs);
	json_decref((json_t *)c->value);
	json_decref((json_t *)c->current);
}

static const char *cmd(const json_t *arr, size_t i)
{
	return json_string_value(json_array_get(arr, i));
}

/* One setting of each family through the engine's questions: what its family builds, how apply.sh
 * reads it back, which fact holds it and what the facts say its current value is. */
static const struct family_case {
	const char *family, *setting, *value, *facts;
	const char *apply;    /* the first apply command; NULL: nothing to run */
	const char *read;     /* the read-back command; NULL: the family has none */
	const char *recorded; /* what the read-back printed at the probe */
	const char *fact;     /* rules_setting_fact */
	const char *current;  /* rules_setting_current as JSON; NULL: unknown */
} family_cases[] = {
	{"sysctl", "sysctl.vm.dirty_ratio", "10", "{\"vm\": {\"dirty_ratio\": 20}}",
	 "sysctl -w vm.dirty_ratio=10", "sysctl -n vm.dirty_ratio", "20", "vm.dirty_ratio", "20"},
	{"sysfs", "queue.read_ahead_kb", "4096", "{\"device\": {\"disk\": \"sdb\", \"read_ahead_kb\": 128}}",
	 "echo 4096 > /sys/block/sdb/queue/read_ahead_kb", "cat /sys/block/sdb/queue/read_ahead_kb", "128",
	 "device.read_ahead_kb", "128"},
	{"bdi", "bdi.read_ahead_kb", "128",
	 "{\"fs\": {\"type\": \"btrfs\", \"uuid\": \"13538755-280b-442c-a35b-fa40aa563328\"}, "
	 "\"vm\": {\"bdi\": {\"name\": \"btrfs-7\", \"read_ahead_kb\": 4096}}}",
	 "echo 128 > /sys/fs/btrfs/13538755-280b-442c-a35b-fa40aa563328/bdi/read_ahead_kb",
	 "cat /sys/fs/btrfs/13538755-280b-442c-a35b-fa40aa563328/bdi/read_ahead_kb", "4096", "vm.bdi.read_ahead_kb",
	 "4096"},
	{"xfs_growfs", "fs.xfs.imaxpct", "50",
	 "{\"fs\": {\"type\": \"xfs\", \"mount_point\": \"/srv\", \"inode_max_pct\": 25}}",
	 "xfs_growfs -m 50 /srv", "xfs_info /srv | sed -n 's/.*imaxpct=\\([0-9]*\\).*/\\1/p'", "25", "fs.inode_max_pct",
	 "25"},
	{"mount", "mount.option.discard", "true",
	 "{\"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv\", \"mount_options\": [\"rw\", \"noatime\"], "
	 "\"super_options\": [\"rw\", \"errors=remount-ro\"]}}",
	 "mount -o remount,discard /srv", "FSTUNE_MNT=/srv LC_ALL=C awk '" FST_AWK_UNOCT " unoct($5) == ENVIRON[\"FSTUNE_MNT\"] { for (i = 7; i < NF && "
	 "$i != \"-\"; i++); v = $(i + 3) } END { print v }' /proc/self/mountinfo", "rw,errors=remount-ro",
	 "fs.super_options", "false"},
	{"mount.data", "mount.option.data", "\"journal\"",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv\", "
	 "\"mount_options\": [\"rw\"]}}",
	 "umount /srv", NULL, NULL, "fs.super_options", NULL},
	{"ext.feature", "fs.feature.dir_index", "true", "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext4\"}}",
	 "tune2fs -O dir_index /dev/sdb1", NULL, NULL, "fs.features", NULL},
	{"ext.journal", "fs.feature.has_journal", "true",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext2\"}}", "tune2fs -j /dev/sdb1", NULL, NULL,
	 "fs.features", NULL},
	{"tune2fs", "fs.reserved_blocks", "5000",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext4\", \"reserved_blocks\": 1000}}",
	 "tune2fs -r 5000 /dev/sdb1", "tune2fs -l /dev/sdb1 | sed -n 's/^Reserved block count: *//p'", "1000",
	 "fs.reserved_blocks", "1000"},
	{"tune2fs.extended", "fs.stride", "128",
	 "{\"device\": {\"path\": \"/dev/md0\"}, \"fs\": {\"type\": \"ext4\", \"stripe_unit_bytes\": 524288, "
	 "\"block_size\": 4096}}",
	 "tune2fs -E stride=128 /dev/md0", NULL, NULL, "fs.stripe_unit_bytes", "128"},
	{"mkfs", "mkfs.block_size", "4096",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"xfs\", \"block_size\": 1024}}",
	 "mkfs.xfs -b size=4096 -f /dev/sdb1", NULL, NULL, "fs.block_size", "1024"},
	{"freebsd.sysctl", "freebsd.vfs.ufs.dirhash_maxmem", "4194304",
	 "{\"freebsd\": {\"dirhash_maxmem_bytes\": 2097152}}", "sysctl vfs.ufs.dirhash_maxmem=4194304",
	 "sysctl -n vfs.ufs.dirhash_maxmem", "2097152", "freebsd.dirhash_maxmem_bytes", "2097152"},
	{"freebsd.loader", "freebsd.kern.nbuf", "20000", "{\"freebsd\": {\"nbuf\": 8192}}", NULL, NULL, NULL,
	 "freebsd.nbuf", "8192"},
	{"systemd.unit", "fstrim.timer", "true", "{\"fs\": {\"fstrim_timer\": false}}",
	 "systemctl enable --now fstrim.timer", "systemctl is-enabled fstrim.timer", "disabled", "fs.fstrim_timer",
	 "false"},
	{"nocow", "file.nocow", "\"/srv/db\"", "{\"fs\": {\"type\": \"btrfs\"}}", "mkdir -p /srv/db", NULL, NULL,
	 NULL, NULL},
	{"advice", "layout.files_per_dir", "1000", "{}", NULL, NULL, NULL, NULL, NULL},
};

static void check_family_case(const struct family_case *fc)
{
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_from_json(fc->facts, strlen(fc->facts), "test", &err);
	json_t *current = rules_setting_current(fc->setting, f), *want;
	char *rcmd = NULL, *recorded = NULL;
	struct setting_ctx c;
	bool ok;

	CHECK_STR(settings_find(fc->setting)->family->name, fc->family);
	want = fc->current ? json_loads(fc->current, JSON_DECODE_ANY, NULL) : NULL;
	CHECK(fc->current ? json_equal(current, want) : current == NULL);
	json_decref(want);
	CHECK(rules_setting_read(fc->setting, f, current, &rcmd, &recorded) == (fc->read != NULL));
	if (fc->read) {
		CHECK_STR(rcmd, fc->read);
		CHECK_STR(recorded, fc->recorded);
	}
	if (fc->fact)
		CHECK_STR(rules_setting_fact(fc->setting), fc->fact);
	else
		CHECK(rules_setting_fact(fc->setting) == NULL);
	c = build(fc->setting, json_loads(fc->value, JSON_DECODE_ANY, NULL), current, fc->facts, &ok);
	CHECK(ok);
	if (fc->apply)
		CHECK_STR(cmd(c.apply, 0), fc->apply);
	else
		CHECK(json_array_size(c.apply) == 0);
	ctx_free(&c); /* and `current` with it */
	free(rcmd);
	free(recorded);
	facts_free(f);
}

/* A mount option's effective state: what the filesystem's options say, else its default, which the
 * kernel does not list (ext4's commit=5, barrier on). */
static void test_mount_current(void)
{
	static const struct {
		const char *setting, *facts, *current; /* current as JSON; NULL: unknown */
	} cases[] = {
		{"mount.option.commit", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"rw\"]}}", "5"},
		{"mount.option.commit", "{\"fs\": {\"type\": \"btrfs\", \"super_options\": [\"rw\"]}}", "30"},
		{"mount.option.commit", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"rw\", \"commit=60\"]}}",
		 "60"},
		{"mount.option.commit", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"commit=x\"]}}", NULL},
		{"mount.option.commit", "{\"fs\": {\"type\": \"xfs\", \"super_options\": [\"rw\"]}}", NULL},
		{"mount.option.commit", "{\"fs\": {\"type\": \"ext4\"}}", NULL},
		{"mount.option.barrier", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"rw\"]}}", "true"},
		{"mount.option.barrier", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"nobarrier\"]}}",
		 "false"},
		{"mount.option.barrier", "{\"fs\": {\"type\": \"ext4\", \"mount_options\": [\"barrier=0\"]}}", "false"},
		{"mount.option.barrier", "{\"fs\": {\"type\": \"xfs\", \"super_options\": [\"rw\"]}}", NULL},
		{"mount.option.discard", "{\"fs\": {\"type\": \"btrfs\", \"super_options\": [\"discard=async\"]}}",
		 "true"},
		{"mount.option.discard", "{\"fs\": {\"type\": \"xfs\", \"super_options\": [\"nodiscard\"]}}", "false"},
		{"mount.option.lazytime", "{\"fs\": {\"type\": \"ext4\", \"super_options\": [\"lazytime\"]}}", "true"},
		{"mount.option.noatime", "{\"fs\": {\"type\": \"ext4\", \"mount_options\": [\"noatime\"]}}", "true"},
		{"mount.option.relatime", "{\"fs\": {\"type\": \"ext4\", \"mount_options\": [\"noatime\"]}}", "false"},
		{"mount.option.relatime", "{\"fs\": {\"type\": \"ext4\", \"mount_options\": [\"relatime\"]}}", "true"},
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fst_error err = FST_ERROR_INIT;
		struct facts *f = facts_from_json(cases[i].facts, strlen(cases[i].facts), "test", &err);
		json_t *have = rules_setting_current(cases[i].setting, f);
		json_t *want = cases[i].current ? json_loads(cases[i].current, JSON_DECODE_ANY, NULL) : NULL;

		if (!(cases[i].current ? json_equal(have, want) : have == NULL))
			fprintf(stderr, "case %zu: %s on %s\n", i, cases[i].setting, cases[i].facts);
		CHECK(cases[i].current ? json_equal(have, want) : have == NULL);
		json_decref(have);
		json_decref(want);
		facts_free(f);
	}
	CHECK_STR(rules_setting_fact("mount.option.relatime"), "fs.mount_options");
	CHECK_STR(rules_setting_fact("mount.option.commit"), "fs.super_options");
}

static void test_families(void)
{
	size_t n, ncases = sizeof(family_cases) / sizeof(family_cases[0]);
	const struct setting *all = settings_all(&n);
	json_t *thirty = json_integer(30), *journal = json_string("journal");
	char *on = NULL, *off = NULL;

	for (size_t i = 0; i < ncases; i++)
		check_family_case(&family_cases[i]);
	/* Every family of the table has its case above. */
	for (size_t i = 0; i < n; i++) {
		bool covered = false;

		for (size_t k = 0; k < ncases; k++)
			covered |= !strcmp(family_cases[k].family, all[i].family->name);
		if (!covered)
			fprintf(stderr, "family %s (of %s) has no case in test_families\n", all[i].family->name,
				all[i].name);
		CHECK(covered);
	}
	/* Only a remountable mount option has an fstab change to make for apply. */
	CHECK(rules_setting_mount_change("mount.option.noatime", json_true(), &on, &off));
	CHECK_STR(on, "noatime");
	CHECK_STR(off, "relatime,strictatime,atime");
	free(on);
	free(off);
	CHECK(rules_setting_mount_change("mount.option.commit", thirty, &on, &off));
	CHECK_STR(on, "commit=30");
	CHECK_STR(off, "commit=");
	free(on);
	free(off);
	CHECK(!rules_setting_mount_change("mount.option.data", journal, &on, &off));
	CHECK(!rules_setting_mount_change("sysctl.vm.dirty_ratio", thirty, &on, &off));
	json_decref(thirty);
	json_decref(journal);
	CHECK(!rules_setting_mount_change("no.such.setting", json_true(), &on, &off));
	CHECK(!rules_setting_read("no.such.setting", NULL, NULL, &on, &off));
	CHECK(rules_setting_fact("no.such.setting") == NULL);
}

/* The unit in the row wins; else the unit of the fact holding the value, unless the value is that
 * fact's divided (fs.stride counts blocks of fs.stripe_unit_bytes). */
static void test_units(void)
{
	CHECK(rules_setting_unit("mkfs.inode_ratio") == UNITS_BYTES);
	CHECK(rules_setting_unit("freebsd.newfs.bytes_per_inode") == UNITS_BYTES);
	CHECK(rules_setting_unit("mount.option.commit") == UNITS_SECONDS);
	CHECK(rules_setting_unit("fs.reserved_percent") == UNITS_PERCENT);
	CHECK(rules_setting_unit("mkfs.reserved_percent") == UNITS_PERCENT);
	CHECK(rules_setting_unit("sysctl.vm.dirty_bytes") == UNITS_BYTES);
	CHECK(rules_setting_unit("queue.read_ahead_kb") == UNITS_KIB);
	CHECK(rules_setting_unit("fs.stride") == UNITS_PLAIN);
	CHECK(rules_setting_unit("no.such.setting") == UNITS_PLAIN);
	CHECK(rules_setting_unit(NULL) == UNITS_PLAIN);
}

/* One command a build must give: apply (or revert) command number `index`. */
struct want_cmd {
	bool is_revert;
	size_t index;
	const char *text;
};

/* One setting built on facts given as JSON text, and what it must give. */
static const struct build_case {
	const char *setting;
	const char *value, *current; /* JSON text; current NULL: no current value */
	const char *facts;
	bool is_ok;                  /* false: the build refuses */
	int n_apply, n_revert;       /* how many commands; -1: not checked */
	struct want_cmd cmds[5];     /* until a NULL text */
	const char *line, *path;     /* the persistent entry's fields; NULL: not checked */
	const char *option;          /* the persistent mount option; NULL: not checked */
	bool has_no_persistent;      /* the build must leave persistent NULL */
	const char *disruption;      /* NULL: not checked */
} build_cases[] = {
	{"sysctl.vm.dirty_bytes", "536870912", "0", "{\"vm\": {\"dirty_ratio\": 20, \"dirty_bytes\": 0}}", true,
	 -1, -1, {{false, 0, "sysctl -w vm.dirty_bytes=536870912"}, {true, 0, "sysctl -w vm.dirty_ratio=20"}},
	 "vm.dirty_bytes = 536870912", NULL, NULL, false, NULL},
	{"device.write_cache", "\"write through\"", "\"write back\"", "{\"device\": {\"disk\": \"sda\"}}", true,
	 -1, -1,
	 {{false, 0, "echo 'write through' > /sys/block/sda/queue/write_cache"},
	  {true, 0, "echo 'write back' > /sys/block/sda/queue/write_cache"}},
	 "# Keyed on the kernel name: the facts give no serial, WWN or array UUID. The name can "
	 "move to another disk at the next boot.\n"
	 "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"sda\", "
	 "ATTR{queue/write_cache}=\"write through\"",
	 "/etc/udev/rules.d/69-fstune.rules", NULL, false, NULL},
	/* A device name that would walk out of /sys/block is refused. */
	{"queue.scheduler", "\"none\"", NULL, "{\"device\": {\"disk\": \"../../etc\"}}", false, -1, -1, {{0}},
	 NULL, NULL, NULL, false, NULL},
	/* libmount keeps noatime from the current options unless atime drops it */
	{"mount.option.noatime", "true", "false",
	 "{\"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv/a b;touch x\"}}", true, -1, -1,
	 {{false, 0, "mount -o remount,noatime '/srv/a b;touch x'"},
	  {true, 0, "mount -o remount,atime,relatime '/srv/a b;touch x'"}},
	 NULL, NULL, NULL, false, NULL},
	/* tune2fs demands a freshly checked filesystem before it turns dir_index off. */
	{"fs.feature.dir_index", "true", "false", "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext3\"}}",
	 true, -1, -1,
	 {{false, 0, "tune2fs -O dir_index /dev/sdb1"}, {false, 1, "e2fsck -fDp /dev/sdb1"},
	  {true, 0, "e2fsck -fp /dev/sdb1"}, {true, 1, "tune2fs -O ^dir_index /dev/sdb1"},
	  {true, 2, "e2fsck -fDp /dev/sdb1"}},
	 NULL, NULL, NULL, false, NULL},
	/* Mounted: the device goes back on its mount point with the options found, no fstab needed. */
	{"fs.feature.dir_index", "true", "false",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext4\", "
	 "\"mount_point\": \"/srv/x\", \"mount_options\": [\"rw\", \"nosuid\", \"relatime\"], "
	 "\"super_options\": [\"rw\", \"errors=remount-ro\"]}}", true, -1, -1,
	 {{false, 0, "umount /srv/x"},
	  {false, 3, "mount -t ext4 -o rw,nosuid,relatime,errors=remount-ro /dev/sdb1 /srv/x"},
	  {true, 4, "mount -t ext4 -o rw,nosuid,relatime,errors=remount-ro /dev/sdb1 /srv/x"}},
	 NULL, NULL, NULL, false, NULL},
	/* strictatime is never printed: neither relatime nor noatime; the revert restores it. */
	{"mount.option.noatime", "true", NULL,
	 "{\"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv\", \"mount_options\": [\"rw\"]}}", true, -1, -1,
	 {{false, 0, "mount -o remount,noatime /srv"}, {true, 0, "mount -o remount,strictatime /srv"}},
	 NULL, NULL, NULL, false, NULL},
	{"mount.option.noatime", "true", NULL,
	 "{\"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv\", \"mount_options\": [\"rw\", \"relatime\"]}}",
	 true, -1, -1, {{true, 0, "mount -o remount,atime,relatime /srv"}}, NULL, NULL, NULL, false, NULL},
	/* XFS ignores discard on remount: unmount and mount without it, and back */
	{"mount.option.discard", "false", "true",
	 "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"xfs\", \"mount_point\": \"/srv\", "
	 "\"mount_options\": [\"rw\", \"relatime\"], \"super_options\": [\"rw\", \"discard\", \"inode64\"]}}",
	 true, -1, -1,
	 {{false, 1, "mount -t xfs -o rw,relatime,inode64,nodiscard /dev/sdb1 /srv"},
	  {true, 1, "mount -t xfs -o rw,relatime,discard,inode64 /dev/sdb1 /srv"}},
	 NULL, NULL, "nodiscard", false, "offline"},
	/* No disk named at all: a placeholder that fails until the admin fills it in. */
	{"queue.scheduler", "\"none\"", NULL, "{\"device\": {\"transport\": \"nvme\"}}", true, -1, -1,
	 {{false, 0, "echo none > \"/sys/block/${DISK:?}/queue/scheduler\""}}, NULL, NULL, NULL, false, NULL},
	{"mkfs.label", "\"$(touch x)'\"", NULL, "{\"fs\": {\"type\": \"ext4\"}}", true, -1, -1,
	 {{false, 0, "mkfs.ext4 -L '$(touch x)'\\''' \"${DEVICE:?}\""}}, NULL, NULL, NULL, false, NULL},
	{"mkfs.inode_ratio", "4096", NULL, "{\"fs\": {\"type\": \"xfs\"}}", false, -1, -1, {{0}},
	 NULL, NULL, NULL, false, NULL},
	/* The settings added for the rules that used to write their command in the rationale. */
	{"fs.stripe_width", "768", "384", "{\"device\": {\"path\": \"/dev/md0\"}, \"fs\": {\"type\": \"ext4\"}}",
	 true, 1, 1,
	 {{false, 0, "tune2fs -E stripe_width=768 /dev/md0"}, {true, 0, "tune2fs -E stripe_width=384 /dev/md0"}},
	 NULL, NULL, NULL, true, NULL},
	{"fs.stride", "128", "0", "{\"device\": {\"path\": \"/dev/disk/by-id/a b\"}, \"fs\": {\"type\": \"ext3\"}}",
	 true, -1, -1,
	 {{false, 0, "tune2fs -E stride=128 '/dev/disk/by-id/a b'"},
	  {true, 0, "tune2fs -E stride=0 '/dev/disk/by-id/a b'"}},
	 NULL, NULL, NULL, false, NULL},
	/* No device path in the facts: the admin names it; no current value: nothing to revert. */
	{"fs.stripe_width", "0", NULL, "{\"fs\": {\"type\": \"ext4\"}}", true, -1, 0,
	 {{false, 0, "tune2fs -E stripe_width=0 \"${DEVICE:?}\""}}, NULL, NULL, NULL, false, NULL},
	{"fs.stride", "16", NULL, "{\"fs\": {\"type\": \"xfs\"}}", false, -1, -1, {{0}}, NULL, NULL, NULL, false,
	 NULL},
	/* FreeBSD: kern.nbuf = 0 deletes the loader.conf line; the revert puts the old override back. */
	{"freebsd.kern.nbuf", "0", "4096", "{}", true, 1, 2,
	 {{false, 0, "sed -i '' '/^[[:space:]]*kern[.]nbuf[[:space:]]*=/d' /boot/loader.conf"},
	  {true, 0, "sed -i '' '/^[[:space:]]*kern[.]nbuf[[:space:]]*=/d' /boot/loader.conf"},
	  {true, 1, "echo 'kern.nbuf=\"4096\"' >> /boot/loader.conf"}},
	 NULL, NULL, NULL, true, NULL},
	{"freebsd.kern.nbuf", "0", NULL, "{}", true, 1, 0, {{0}}, NULL, NULL, NULL, false, NULL},
	/* A Lua float 0.0 is the same request. */
	{"freebsd.kern.nbuf", "0.0", NULL, "{}", true, 1, -1, {{0}}, NULL, NULL, NULL, true, NULL},
	/* A value: a loader.conf line, nothing to run now; the revert restores the old override. */
	{"freebsd.kern.nbuf", "20000", "8192", "{}", true, 0, -1,
	 {{true, 0, "sed -i '' '/^[[:space:]]*kern[.]nbuf[[:space:]]*=/d' /boot/loader.conf"},
	  {true, 1, "echo 'kern.nbuf=\"8192\"' >> /boot/loader.conf"}},
	 "kern.nbuf=\"20000\"", "/boot/loader.conf", NULL, false, NULL},
	/* An auto-sized kernel (current 0): the revert only removes the line again. */
	{"freebsd.kern.nbuf", "20000", "0", "{}", true, -1, 1, {{0}}, NULL, NULL, NULL, false, NULL},
	{"freebsd.vfs.vmiodirenable", "true", "false", "{}", true, -1, -1,
	 {{false, 0, "sysctl vfs.vmiodirenable=1"}, {true, 0, "sysctl vfs.vmiodirenable=0"}},
	 "vfs.vmiodirenable=1", "/etc/sysctl.conf", NULL, false, NULL},
};

static json_t *json_of(const char *text)
{
	return text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
}

static void check_build_case(const struct build_case *bc)
{
	int failures_before = check_failures;
	bool ok;
	struct setting_ctx c = build(bc->setting, json_of(bc->value), json_of(bc->current), bc->facts, &ok);

	CHECK(ok == bc->is_ok);
	if (bc->n_apply >= 0)
		CHECK(json_array_size(c.apply) == (size_t)bc->n_apply);
	if (bc->n_revert >= 0)
		CHECK(json_array_size(c.revert) == (size_t)bc->n_revert);
	for (const struct want_cmd *w = bc->cmds; w < bc->cmds + 5 && w->text; w++)
		CHECK_STR(cmd(w->is_revert ? c.revert : c.apply, w->index), w->text);
	if (bc->line)
		CHECK_STR(json_string_value(json_object_get(c.persistent, "line")), bc->line);
	if (bc->path)
		CHECK_STR(json_string_value(json_object_get(c.persistent, "path")), bc->path);
	if (bc->option)
		CHECK_STR(json_string_value(json_object_get(c.persistent, "option")), bc->option);
	if (bc->has_no_persistent)
		CHECK(c.persistent == NULL);
	if (bc->disruption)
		CHECK_STR(c.disruption, bc->disruption);
	if (check_failures != failures_before)
		fprintf(stderr, "  in the build of %s = %s on %s\n", bc->setting, bc->value, bc->facts);
	ctx_free(&c);
}

static void test_build(void)
{
	for (size_t i = 0; i < sizeof(build_cases) / sizeof(build_cases[0]); i++)
		check_build_case(&build_cases[i]);
}

/* A value udev would take for a pattern (a hand-written facts file): never matched on; the kernel
 * name, with the reason. A weaker identity that is well-formed wins over it. */
static void test_udev_patterns(void)
{
	bool ok;
	struct setting_ctx c;

	static const char *const globs[] = {
		"{\"device\": {\"disk\": \"md0\", \"md_uuid\": \"*\"}}",
		"{\"device\": {\"disk\": \"md0\", \"md_uuid\": \"3a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5?\"}}",
		"{\"device\": {\"disk\": \"md0\", \"md_uuid\": \"3a1b2c3d:4e5f6a7b:8c9d0e1f\"}}",
		"{\"device\": {\"disk\": \"sdc\", \"serial\": \"Z[A-Z]*\", \"serial_udev_property\": \"ID_SERIAL\"}}",
		"{\"device\": {\"disk\": \"sdc\", \"wwn\": \"0x5|0x6\", \"wwn_udev_property\": \"ID_WWN\"}}",
		"{\"device\": {\"disk\": \"dm-0\", \"dm_uuid\": \"LVM-a b\"}}",
	};
	for (size_t i = 0; i < sizeof(globs) / sizeof(globs[0]); i++) {
		const char *line;

		c = build("queue.scheduler", json_string("none"), NULL, globs[i], &ok);
		CHECK(ok);
		line = json_string_value(json_object_get(c.persistent, "line"));
		CHECK(strstr(line, "is not a value udev writes, and a rule must match this disk, never a pattern") != NULL);
		CHECK(strstr(line, "ENV{") == NULL);
		CHECK(strstr(line, "KERNEL==\"") != NULL);
		ctx_free(&c);
	}
	c = build("queue.scheduler", json_string("none"), NULL,
		  "{\"device\": {\"disk\": \"md0\", \"serial\": \"a*\", \"serial_udev_property\": \"ID_SERIAL\", "
		  "\"md_uuid\": \"3a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d\"}}", &ok);
	CHECK(ok);
	CHECK(strstr(json_string_value(json_object_get(c.persistent, "line")),
		     "ENV{MD_UUID}==\"3a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d\"") != NULL);
	ctx_free(&c);
}

/* Persistent udev rules match the exact property each identity came from. */
static void test_build_udev(void)
{
	bool ok;
	struct setting_ctx c;

	static const struct {
		const char *facts, *match;
	} ids[] = {
		{"{\"device\": {\"disk\": \"sdc\", \"serial\": \"ZA1B\", \"serial_udev_property\": \"ID_SERIAL_SHORT\"}}",
		 "ENV{DEVTYPE}==\"disk\", ENV{ID_SERIAL_SHORT}==\"ZA1B\""},
		{"{\"device\": {\"disk\": \"vdb\", \"serial\": \"data1\", \"serial_udev_property\": \"ID_SERIAL\"}}",
		 "ENV{DEVTYPE}==\"disk\", ENV{ID_SERIAL}==\"data1\""},
		{"{\"device\": {\"disk\": \"sdc\", \"wwn\": \"0x5000c500a1b2c3d4\", "
		 "\"wwn_udev_property\": \"ID_WWN_WITH_EXTENSION\"}}",
		 "ENV{DEVTYPE}==\"disk\", ENV{ID_WWN_WITH_EXTENSION}==\"0x5000c500a1b2c3d4\""},
		{"{\"device\": {\"disk\": \"md0\", \"md_uuid\": \"3a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d\"}}",
		 "ENV{DEVTYPE}==\"disk\", ENV{MD_UUID}==\"3a1b2c3d:4e5f6a7b:8c9d0e1f:2a3b4c5d\""},
		{"{\"device\": {\"disk\": \"dm-0\", \"dm_uuid\": \"LVM-abc\"}}",
		 "ENV{DEVTYPE}==\"disk\", ENV{DM_UUID}==\"LVM-abc\""},
	};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char *want;

		c = build("queue.scheduler", json_string("mq-deadline"), NULL, ids[i].facts, &ok);
		CHECK(ok);
		want = xasprintf("ACTION==\"add|change\", SUBSYSTEM==\"block\", %s, "
				 "ATTR{queue/scheduler}=\"mq-deadline\"", ids[i].match);
		CHECK_STR(json_string_value(json_object_get(c.persistent, "line")), want);
		free(want);
		ctx_free(&c);
	}
	/* Hand-written facts without device.disk: a partition's name implies its disk (no name at all:
	 * build_cases). */
	static const struct {
		const char *name, *path;
	} disks[] = {
		{"sdb", "/sys/block/sdb/queue/scheduler"},        {"sdc1", "/sys/block/sdc/queue/scheduler"},
		{"nvme0n1p2", "/sys/block/nvme0n1/queue/scheduler"}, {"nvme0n1", "/sys/block/nvme0n1/queue/scheduler"},
		{"mmcblk0p1", "/sys/block/mmcblk0/queue/scheduler"}, {"md0", "/sys/block/md0/queue/scheduler"},
		{"dm-3", "/sys/block/dm-3/queue/scheduler"},
	};
	for (size_t i = 0; i < sizeof(disks) / sizeof(disks[0]); i++) {
		char *fj = xasprintf("{\"device\": {\"name\": \"%s\"}}", disks[i].name), *want;

		c = build("queue.scheduler", json_string("none"), NULL, fj, &ok);
		CHECK(ok);
		want = xasprintf("echo none > %s", disks[i].path);
		CHECK_STR(cmd(c.apply, 0), want);
		free(want);
		free(fj);
		ctx_free(&c);
	}
	/* A serial whose property is not known is not guessed: kernel name, with the reason. */
	c = build("queue.scheduler", json_string("none"), NULL,
		  "{\"device\": {\"disk\": \"sdc\", \"serial\": \"ZA1B\"}}", &ok);
	CHECK(ok);
	CHECK(strstr(json_string_value(json_object_get(c.persistent, "line")),
		      "# Keyed on the kernel name: the facts give device.serial but not the udev property") != NULL);
	CHECK(strstr(json_string_value(json_object_get(c.persistent, "line")), "KERNEL==\"sdc\"") != NULL);
	ctx_free(&c);
}

/* The values of the settings added for the rules that used to write their command in the rationale
 * (their commands: build_cases). */
static void test_values_added(void)
{
	CHECK(valid("fs.stride", json_integer(0)));
	CHECK(valid("fs.stride", json_integer(65535)));
	CHECK(!valid("fs.stride", json_integer(65536)));
	CHECK(!valid("fs.stripe_width", json_integer(-1)));
}

/* The values of FreeBSD's boot-time tunable and sysctl (their commands: build_cases). */
static void test_values_freebsd(void)
{
	CHECK(valid("freebsd.kern.nbuf", json_integer(0)));
	CHECK(valid("freebsd.kern.nbuf", json_integer(1024)));
	CHECK(!valid("freebsd.kern.nbuf", json_integer(1)));
	CHECK(!valid("freebsd.kern.nbuf", json_integer(1023)));
	CHECK(!valid("freebsd.kern.nbuf", json_integer(-1)));
	CHECK(!valid("freebsd.vfs.vmiodirenable", json_integer(1)));
}

static void test_strip(void)
{
	char s[] = "a\x1b[31mb\tc\r\nd\x7f\xc2\x9b" "e\xc3\xa9";
	size_t n = rules_strip_controls(s, strlen(s));

	CHECK_STR(s, "a[31mb\tc\nde\xc3\xa9");
	CHECK(n == strlen("a[31mb\tc\nde\xc3\xa9"));
}

int main(void)
{
	test_quote();
	test_values();
	test_families();
	test_mount_current();
	test_units();
	test_build();
	test_build_udev();
	test_udev_patterns();
	test_values_added();
	test_values_freebsd();
	test_strip();
	if (check_failures)
		fprintf(stderr, "%d failure(s)\n", check_failures);
	return CHECK_DONE();
}
