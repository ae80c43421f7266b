/* The table of known fact keys and their types (facts_schema.h); it mirrors DESIGN.md's key table and
 * doc/facts.md, which must be kept in step with it. */
#include "config.h"

#include <string.h>

#include "lib/facts_schema.h"

#define I FACTS_T_INT
#define N FACTS_T_NUM
#define B FACTS_T_BOOL
#define S FACTS_T_STRING
#define SL FACTS_T_STRLIST
#define IL FACTS_T_INTLIST
#define O FACTS_T_OBJECT
#define OL FACTS_T_OBJLIST
#define A FACTS_T_ANY

/* Keys no probe of a live Linux host ever sets: an old kernel's bdflush, a FreeBSD target's tunables.
 * Only an admin writes them, so a rule that needs one says nothing useful about a probed machine. */
#define HW FACTS_F_HAND_WRITTEN

static const struct {
	const char *key;
	enum facts_type type;
	unsigned flags; /* FACTS_F_* */
} known_keys[] = {
	{"host.kernel", S}, {"host.os", S}, {"host.target_os", S}, {"host.virtualization", S},
	{"host.container", B}, {"host.mem_total_bytes", I}, {"host.mem_available_bytes", I},
	{"host.page_size_bytes", I}, {"host.cpus", I},
	{"host.tuned_profile", S}, {"host.tuned_profile_mode", S}, {"host.tuned_active", B}, {"host.tuned_reapply_sysctl", B},

	{"device.path", S}, {"device.name", S}, {"device.disk", S}, {"device.model", S},
	{"device.serial", S}, {"device.transport", S}, {"device.size_bytes", I},
	{"device.partition_start_bytes", I}, {"device.rotational", B}, {"device.write_cache", S},
	{"device.logical_block_size", I}, {"device.physical_block_size", I},
	{"device.minimum_io_size", I}, {"device.optimal_io_size", I}, {"device.alignment_offset", I},
	{"device.discard_granularity", I}, {"device.scheduler", S}, {"device.schedulers", SL},
	{"device.read_ahead_kb", I}, {"device.nr_requests", I}, {"device.nr_hw_queues", I},
	{"device.loop_direct_io", B}, {"device.topology_hidden", B},
	{"device.write_cache_protected", B}, {"device.members", SL},
	{"device.md_level", S}, {"device.md_chunk_bytes", I}, {"device.md_raid_disks", I},
	{"device.md_data_disks", I}, {"device.holders", SL}, {"device.vendor", S},
	{"device.zoned", S}, {"device.loop_backing_file", S}, {"device.wwn", S}, {"device.id_bus", S},
	{"device.id_path", S}, {"device.discard_max_bytes", I}, {"device.max_sectors_kb", I},
	{"device.serial_udev_property", S}, {"device.wwn_udev_property", S}, {"device.md_uuid", S},
	{"device.dm_uuid", S}, {"device.md_stripe_cache_stripes", I}, {"device.write_cache_protected", B},

	{"fs.type", S}, {"fs.version", S}, {"fs.uuid", S}, {"fs.label", S}, {"fs.block_size", I},
	{"fs.fragment_size", I}, {"fs.sector_size", I}, {"fs.inode_size", I}, {"fs.inode_count", I},
	{"fs.inodes_free", I}, {"fs.size_bytes", I}, {"fs.free_bytes", I}, {"fs.reserved_bytes", I},
	{"fs.features", SL}, {"fs.mount_point", S}, {"fs.mount_options", SL},
	{"fs.super_options", SL}, {"fs.stripe_unit_bytes", I}, {"fs.stripe_width_bytes", I},
	{"fs.ag_count", I}, {"fs.node_size", I}, {"fs.devices", SL}, {"fs.log_size_bytes", I},
	{"fs.reserved_blocks", I}, {"fs.fstrim_timer", B}, {"fs.fstrim_timer_from", S}, {"fs.device_count", I},
	{"fs.log_external", B}, {"fs.inode_max_pct", I}, {"fs.fstune_leftover_bytes", I}, {"fs.uuid_sub", S},
	{"fs.member_of", O}, {"fs.member_of.mount_point", S}, {"fs.member_of.uuid", S}, {"fs.member_of.type", S},
	{"fs.member_of.devices", SL},

	{"vm.dirty_ratio", I}, {"vm.dirty_background_ratio", I}, {"vm.dirty_bytes", I},
	{"vm.dirty_background_bytes", I}, {"vm.dirty_expire_centisecs", I},
	{"vm.dirty_writeback_centisecs", I}, {"vm.vfs_cache_pressure", I}, {"vm.bdi", O},
	{"vm.bdflush", IL, HW}, {"vm.dirtytime_expire_seconds", I}, {"vm.swappiness", I},
	{"vm.min_free_kbytes", I}, {"vm.bdi.*", I},

	{"freebsd.nbuf", I, HW}, {"freebsd.dirhash_maxmem_bytes", I, HW}, {"freebsd.vmiodirenable", I, HW},
	{"freebsd.newfs_block_size", I, HW}, {"freebsd.newfs_fragment_size", I, HW},

	{"bench.*", O}, {"bench.*.iops", N}, {"bench.*.bw_bytes_per_s", N}, {"bench.*.lat_mean_us", N},
	{"bench.*.lat_p50_us", N}, {"bench.*.lat_p99_us", N}, {"bench.*.lat_p999_us", N},
	{"bench.*.lat_max_us", N}, {"bench.*.samples", I}, {"bench.*.spread_pct", N}, {"bench.*.ci95_pct", N},
	{"bench.*.runtime_s", N}, {"bench.*.io_size_bytes", I}, {"bench.*.queue_depth", I},
	{"bench.*.engine", S}, {"bench.*.inflight_mean", N}, {"bench.*.direct", S},
	{"bench.*.span_bytes", I}, {"bench.*.cache_suspect", B}, {"bench.*.cache_suspect_reason", S}, {"bench.*.tps", N},
	{"bench.*.create_per_s", N}, {"bench.*.read_per_s", N}, {"bench.*.append_per_s", N},
	{"bench.*.delete_per_s", N}, {"bench.*.stat_per_s", N}, {"bench.*.unlink_per_s", N},
	{"bench.*.files", I}, {"bench.*.files_per_dir", I}, {"bench.*.cache", S},
	{"bench.*.write_s", N}, {"bench.*.read_s", N}, {"bench.*.bytes", I},
	{"bench.*.cpu_us_per_io", N}, {"bench.*.cpu_wait_pct", N},
	{"bench.*.ci95_pct", N},
	/* Below the keys above, each test and bench.parameters carry the bench layer's own detail
	 * (counts, seeds, reasons), which changes with the engines: known, of any type. */
	{"bench.*.*", A}, {"bench.*.*.*", A},

	{"workload.profile", S}, {"workload.io_mode", S}, {"workload.access", S},
	{"workload.io_size_bytes", I}, {"workload.sync_heavy", B}, {"workload.file_size_min_bytes", I},
	{"workload.file_size_max_bytes", I}, {"workload.file_size_p50_bytes", I},
	{"workload.file_size_p90_bytes", I}, {"workload.file_size_mean_bytes", N},
	{"workload.files_total", I}, {"workload.bytes_total", I}, {"workload.files_per_dir", I},
	{"workload.files_per_dir_p90", I}, {"workload.files_per_dir_max", I},
	{"workload.share_under_1k", N}, {"workload.share_under_2k", N}, {"workload.share_under_4k", N},
	{"workload.inline_candidates", I}, {"workload.allocated_bytes", I},
	{"workload.sparse_files", I}, {"workload.tail_waste_bytes", O}, {"workload.partial", B},
	{"workload.read_share", N}, {"workload.mean_request_bytes", N}, {"workload.inflight_mean", N},
	{"workload.busy_share", N}, {"workload.tail_waste_bytes.*", I},
	{"workload.sample", O}, {"workload.sample.root", S}, {"workload.sample.dirs", I},
	{"workload.sample.hardlinks_skipped", I}, {"workload.sample.symlinks", I},
	{"workload.sample.others", I}, {"workload.sample.mounts_skipped", I},
	{"workload.sample.denied", I}, {"workload.sample.errors", I},
	{"workload.sample.first_error", S}, {"workload.sample.percentiles_exact", B},
	{"workload.sample.cancelled", B}, {"workload.sample.elapsed_s", N},
	{"workload.observe", O}, {"workload.observe.device", S}, {"workload.observe.interval_s", N},
	{"workload.observe.reads", I}, {"workload.observe.writes", I},
	{"workload.observe.read_bytes", I}, {"workload.observe.write_bytes", I},

	/* owners.<setting>: the setting names of rules/settings.c that something else may manage */
	{"owners.sysctl", O}, {"owners.sysctl.vm", O}, {"owners.sysctl.vm.dirty_ratio", OL},
	{"owners.sysctl.vm.dirty_background_ratio", OL}, {"owners.sysctl.vm.dirty_bytes", OL},
	{"owners.sysctl.vm.dirty_background_bytes", OL}, {"owners.sysctl.vm.dirty_expire_centisecs", OL},
	{"owners.sysctl.vm.dirty_writeback_centisecs", OL}, {"owners.sysctl.vm.vfs_cache_pressure", OL},
	{"owners.queue", O}, {"owners.queue.scheduler", OL}, {"owners.queue.read_ahead_kb", OL},
	{"owners.queue.nr_requests", OL}, {"owners.device", O}, {"owners.device.write_cache", OL},
	{"owners.bdi", O}, {"owners.bdi.max_ratio", OL}, {"owners.bdi.strict_limit", OL},
	{"owners.md", O}, {"owners.md.stripe_cache_size", OL},
	{"owners.mount", O}, {"owners.mount.option", O}, {"owners.mount.option.noatime", OL},
	{"owners.mount.option.lazytime", OL}, {"owners.mount.option.commit", OL},
	{"owners.mount.option.discard", OL}, {"owners.mount.option.barrier", OL},
	{"owners.mount.option.data", OL},

	/* the named trial keys first: "trial.*" would match them as subtrees */
	{"trial.best", S}, {"trial.best_is_tied", B}, {"trial.target", S}, {"trial.metric", S},
	{"trial.noise_floor_pct", N},
	{"trial.*", O}, {"trial.*.spec", S}, {"trial.*.metric", S}, {"trial.*.median", N},
	{"trial.*.spread_pct", N}, {"trial.*.rank", I}, {"trial.*.runs", I}, {"trial.*.unit", S},
	{"trial.*.better", S}, {"trial.*.origin", S},
};

static bool key_matches(const char *pattern, const char *key)
{
	while (*pattern && *key) {
		if (*pattern == '*') {
			pattern++;
			key += strcspn(key, ".");
			continue;
		}
		if (*pattern != *key)
			return false;
		pattern++;
		key++;
	}
	return *pattern == '\0' && *key == '\0';
}

static int find_key(const char *key)
{
	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++)
		if (key_matches(known_keys[i].key, key))
			return (int)i;
	return -1;
}

bool facts_schema_lookup(const char *key, enum facts_type *type)
{
	int i = find_key(key);

	if (i < 0)
		return false;
	*type = known_keys[i].type;
	return true;
}

bool facts_schema_is_hand_written_only(const char *key)
{
	int i = find_key(key);

	return i >= 0 && (known_keys[i].flags & FACTS_F_HAND_WRITTEN);
}

static bool is_known_group(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++)
		if (strncmp(known_keys[i].key, name, n) == 0 && known_keys[i].key[n] == '.')
			return true;
	return false;
}

static void unknown_in(const json_t *node, const char *prefix, json_t *out)
{
	const char *name;
	json_t *v;

	json_object_foreach((json_t *)node, name, v) {
		char key[512];
		enum facts_type type;

		snprintf(key, sizeof(key), "%s.%s", prefix, name);
		if (!facts_schema_lookup(key, &type))
			json_array_append_new(out, json_sprintf("unknown key %s", key));
		else if (type == FACTS_T_OBJECT && json_is_object(v))
			unknown_in(v, key, out);
	}
}

json_t *facts_schema_unknown(const json_t *doc)
{
	json_t *out = json_array(), *v;
	const char *name;

	json_object_foreach((json_t *)doc, name, v) {
		if (!strcmp(name, "schema") || !strcmp(name, "sources") || !strcmp(name, "unavailable"))
			continue;
		if (!is_known_group(name))
			json_array_append_new(out, json_sprintf("unknown group \"%s\"", name));
		else if (json_is_object(v))
			unknown_in(v, name, out);
	}
	return out;
}

static bool all_items(const json_t *list, int (*is_type)(const json_t *))
{
	size_t i;
	json_t *v;

	if (!json_is_array(list))
		return false;
	json_array_foreach(list, i, v)
		if (!is_type(v))
			return false;
	return true;
}

static int is_string(const json_t *v) { return json_is_string(v); }
static int is_integer(const json_t *v) { return json_is_integer(v); }
static int is_object(const json_t *v) { return json_is_object(v); }

bool facts_schema_matches(enum facts_type type, const json_t *value)
{
	switch (type) {
	case FACTS_T_INT: return json_is_integer(value);
	case FACTS_T_NUM: return json_is_number(value);
	case FACTS_T_BOOL: return json_is_boolean(value);
	case FACTS_T_STRING: return json_is_string(value);
	case FACTS_T_STRLIST: return all_items(value, is_string);
	case FACTS_T_INTLIST: return all_items(value, is_integer);
	case FACTS_T_OBJECT: return json_is_object(value);
	case FACTS_T_OBJLIST: return all_items(value, is_object);
	case FACTS_T_ANY: return true;
	}
	return false;
}

const char *facts_schema_type_name(enum facts_type type)
{
	switch (type) {
	case FACTS_T_INT: return "an integer";
	case FACTS_T_NUM: return "a number";
	case FACTS_T_BOOL: return "true or false";
	case FACTS_T_STRING: return "a string";
	case FACTS_T_STRLIST: return "a list of strings";
	case FACTS_T_INTLIST: return "a list of integers";
	case FACTS_T_OBJECT: return "an object";
	case FACTS_T_OBJLIST: return "a list of objects";
	case FACTS_T_ANY: return "any value";
	}
	return "?";
}
