/* The table of known fact keys with their types, units and labels (facts_schema.h); it mirrors
 * DESIGN.md's key table, and doc/facts.md's key table is generated from it. */
#include "config.h"

#include <string.h>

#include "fstune/facts.h"
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

/* Units, named short so that a row stays one line. */
#define TXT UNITS_TEXT
#define YN UNITS_BOOL
#define TREE UNITS_TREE
#define NUM UNITS_PLAIN
#define CNT UNITS_COUNT
#define BY UNITS_BYTES
#define KIB UNITS_KIB
#define US UNITS_US
#define SEC UNITS_SECONDS
#define CS UNITS_CENTISECS
#define BPS UNITS_BYTES_PER_S
#define PS UNITS_PER_S
#define PCT UNITS_PERCENT
#define SHR UNITS_SHARE
#define PPM UNITS_PPM

/* Keys no probe of a live Linux host ever sets: an old kernel's bdflush, a FreeBSD target's tunables.
 * Only an admin writes them, so a rule that needs one says nothing useful about a probed machine. */
#define HW FACTS_F_HAND_WRITTEN

/* Looked up in order, first match wins: a named key goes before a pattern that would match it
 * (bench.parameters before bench.*). A new branch or pattern is one more block of rows; doc/facts.md's
 * key table is generated from this one (`make facts-table`). */
static const struct facts_key_info known_keys[] = {
	{"host.kernel", S, TXT, "Kernel release"},
	{"host.os", S, TXT, "Operating system"},
	{"host.target_os", S, TXT, "OS the advice is for"},
	{"host.virtualization", S, TXT, "Virtualization"},
	{"host.container", B, YN, "Inside a container"},
	{"host.mem_total_bytes", I, BY, "Memory"},
	{"host.mem_available_bytes", I, BY, "Memory available"},
	{"host.page_size_bytes", I, BY, "Page size"},
	{"host.cpus", I, CNT, "CPUs"},
	{"host.tuned_profile", S, TXT, "Active tuned profile"},
	{"host.tuned_profile_mode", S, TXT, "tuned profile chosen by (manual, auto)"},
	{"host.tuned_active", B, YN, "tuned applies its profile at boot"},
	{"host.tuned_reapply_sysctl", B, YN, "tuned re-applies sysctl.d after its profile"},

	{"device.path", S, TXT, "Device path"},
	{"device.name", S, TXT, "Device name"},
	{"device.disk", S, TXT, "Whole disk"},
	{"device.model", S, TXT, "Model"},
	{"device.serial", S, TXT, "Serial number"},
	{"device.transport", S, TXT, "Transport"},
	{"device.size_bytes", I, BY, "Device size"},
	{"device.partition_start_bytes", I, BY, "Partition start"},
	{"device.rotational", B, YN, "Rotational"},
	{"device.write_cache", S, TXT, "Write cache"},
	{"device.write_cache_protected", B, YN, "Write cache power-loss protected"},
	{"device.logical_block_size", I, BY, "Logical sector size"},
	{"device.physical_block_size", I, BY, "Physical sector size"},
	{"device.minimum_io_size", I, BY, "Minimum I/O size"},
	{"device.optimal_io_size", I, BY, "Optimal I/O size"},
	{"device.alignment_offset", I, BY, "Alignment offset"},
	{"device.discard_granularity", I, BY, "Discard granularity"},
	{"device.discard_max_bytes", I, BY, "Largest discard"},
	{"device.max_sectors_kb", I, KIB, "Largest request"},
	{"device.scheduler", S, TXT, "I/O scheduler"},
	{"device.schedulers", SL, TXT, "I/O schedulers available"},
	{"device.read_ahead_kb", I, KIB, "Read-ahead"},
	{"device.nr_requests", I, CNT, "Queue depth of the scheduler"},
	{"device.nr_hw_queues", I, CNT, "Hardware queues"},
	{"device.loop_direct_io", B, YN, "Loop device uses direct I/O"},
	{"device.link_speed_mbps", I, NUM, "Link speed (Mb/s, signalling)"},
	{"device.link_lanes", I, CNT, "PCIe lanes"},
	{"device.loop_backing_file", S, TXT, "Loop backing file"},
	{"device.topology_hidden", B, YN, "Topology hidden by a controller"},
	{"device.members", SL, TXT, "Member devices"},
	{"device.holders", SL, TXT, "Holders"},
	{"device.md_level", S, TXT, "RAID level"},
	{"device.md_chunk_bytes", I, BY, "RAID chunk size"},
	{"device.md_raid_disks", I, CNT, "RAID devices"},
	{"device.md_data_disks", I, CNT, "RAID data devices"},
	{"device.md_stripe_cache_stripes", I, CNT, "RAID stripe cache (stripes)"},
	{"device.md_uuid", S, TXT, "md array UUID"},
	{"device.dm_uuid", S, TXT, "Device-mapper UUID"},
	{"device.vendor", S, TXT, "Vendor"},
	{"device.zoned", S, TXT, "Zoned model"},
	{"device.wwn", S, TXT, "World Wide Name"},
	{"device.id_bus", S, TXT, "Bus (udev)"},
	{"device.id_path", S, TXT, "Path (udev)"},
	{"device.serial_udev_property", S, TXT, "udev property of the serial"},
	{"device.wwn_udev_property", S, TXT, "udev property of the WWN"},

	{"fs.type", S, TXT, "Filesystem type"},
	{"fs.version", S, TXT, "Filesystem version"},
	{"fs.uuid", S, TXT, "Filesystem UUID"},
	{"fs.uuid_sub", S, TXT, "Member device UUID"},
	{"fs.label", S, TXT, "Filesystem label"},
	{"fs.block_size", I, BY, "Block size"},
	{"fs.fragment_size", I, BY, "Fragment (cluster) size"},
	{"fs.sector_size", I, BY, "Filesystem sector size"},
	{"fs.inode_size", I, BY, "Inode size"},
	{"fs.inode_count", I, CNT, "Inodes"},
	{"fs.inodes_free", I, CNT, "Inodes free"},
	{"fs.inode_max_pct", I, PCT, "Most space for inodes"},
	{"fs.size_bytes", I, BY, "Filesystem size"},
	{"fs.free_bytes", I, BY, "Free space"},
	{"fs.used_bytes", I, BY, "Space in use"},
	{"fs.reserved_bytes", I, BY, "Reserved space"},
	{"fs.reserved_blocks", I, CNT, "Reserved blocks"},
	{"fs.fstune_leftover_bytes", I, BY, "Left by killed fstune runs"},
	{"fs.features", SL, TXT, "Features"},
	{"fs.mount_point", S, TXT, "Mount point"},
	{"fs.mount_options", SL, TXT, "Mount options"},
	{"fs.super_options", SL, TXT, "Superblock options"},
	{"fs.stripe_unit_bytes", I, BY, "Stripe unit"},
	{"fs.stripe_width_bytes", I, BY, "Stripe width"},
	{"fs.ag_count", I, CNT, "Allocation groups"},
	{"fs.node_size", I, BY, "Node size"},
	{"fs.devices", SL, TXT, "Devices"},
	{"fs.device_count", I, CNT, "Devices in the filesystem"},
	{"fs.log_size_bytes", I, BY, "Journal size"},
	{"fs.log_external", B, YN, "External journal"},
	{"fs.fstrim_timer", B, YN, "Periodic TRIM (fstrim.timer)"},
	{"fs.fstrim_timer_from", S, TXT, "Where the fstrim.timer answer came from"},
	{"fs.member_of", O, TREE, "Filesystem this device is a member of"},
	{"fs.member_of.mount_point", S, TXT, "Mount point of the whole"},
	{"fs.member_of.uuid", S, TXT, "UUID of the whole"},
	{"fs.member_of.type", S, TXT, "Type of the whole"},
	{"fs.member_of.devices", SL, TXT, "Members of the whole"},

	{"vm.dirty_ratio", I, PCT, "Dirty limit, share of memory"},
	{"vm.dirty_background_ratio", I, PCT, "Background writeback from, share of memory"},
	{"vm.dirty_bytes", I, BY, "Dirty limit in bytes (0: the ratio)"},
	{"vm.dirty_background_bytes", I, BY, "Background writeback from, bytes (0: the ratio)"},
	{"vm.dirty_expire_centisecs", I, CS, "Dirty data written after"},
	{"vm.dirty_writeback_centisecs", I, CS, "Writeback wakes every"},
	{"vm.dirtytime_expire_seconds", I, SEC, "Lazy timestamps written after"},
	{"vm.vfs_cache_pressure", I, NUM, "Reclaim of dentries and inodes (100 = fair)"},
	{"vm.swappiness", I, NUM, "Swappiness"},
	{"vm.min_free_kbytes", I, KIB, "Memory kept free"},
	{"vm.bdflush", IL, NUM, "bdflush parameters", HW},
	{"vm.bdi", O, TREE, "Writeback and read-ahead (bdi)"},
	{"vm.bdi.name", S, TXT, "Backing device (bdi)"},
	{"vm.bdi.read_ahead_kb", I, KIB, "Read-ahead"},
	{"vm.bdi.min_ratio", I, PCT, "Least share of the dirty limit"},
	{"vm.bdi.max_ratio", I, PCT, "Largest share of the dirty limit"},
	{"vm.bdi.min_ratio_fine", I, PPM, "Least share of the dirty limit"},
	{"vm.bdi.max_ratio_fine", I, PPM, "Largest share of the dirty limit"},
	{"vm.bdi.min_bytes", I, BY, "Least dirty data"},
	{"vm.bdi.max_bytes", I, BY, "Most dirty data"},
	{"vm.bdi.strict_limit", I, NUM, "Strict limit (1 = on)"},
	{"vm.bdi.stable_pages_required", I, NUM, "Stable pages required (1 = yes)"},
	{"vm.bdi.*", I, NUM, "Writeback setting of the bdi"},

	{"freebsd.nbuf", I, CNT, "Buffers (nbuf)", HW},
	{"freebsd.dirhash_maxmem_bytes", I, BY, "Memory for directory hashes", HW},
	{"freebsd.vmiodirenable", I, NUM, "Directories in the VM cache (1 = on)", HW},
	{"freebsd.newfs_block_size", I, BY, "newfs block size", HW},
	{"freebsd.newfs_fragment_size", I, BY, "newfs fragment size", HW},

	{"bench.busy_check", O, TREE, "Look for other I/O before the benchmarks"},
	{"bench.busy_check.busy", B, YN, "Device busy"},
	{"bench.busy_check.busy_share", N, SHR, "Time the device was busy"},
	{"bench.busy_check.seconds", N, SEC, "Time watched"},
	{"bench.busy_check.read_iops", N, PS, "Other reads"},
	{"bench.busy_check.write_iops", N, PS, "Other writes"},
	{"bench.busy_check.device", S, TXT, "Device watched"},
	{"bench.parameters", O, TREE, "Benchmark parameters"},
	{"bench.parameters.suite", S, TXT, "Suite"},
	{"bench.parameters.tests", S, TXT, "Tests asked for"},
	{"bench.parameters.runtime_s", N, SEC, "Measured time per test"},
	{"bench.parameters.runtime_mode", S, TXT, "Runtime mode"},
	{"bench.parameters.warmup_s", N, SEC, "Warm-up per test"},
	{"bench.parameters.size_bytes", I, BY, "Span asked for (0 = auto)"},
	{"bench.parameters.span_bytes", I, BY, "Span"},
	{"bench.parameters.span_floor_bytes", I, BY, "Smallest span"},
	{"bench.parameters.budget_bytes", I, BY, "Most the run may write"},
	{"bench.parameters.free_bytes", I, BY, "Free space at the start"},
	{"bench.parameters.engine", S, TXT, "Engine"},
	{"bench.parameters.busy_check_s", N, SEC, "Time watched for other I/O"},
	{"bench.parameters.ci95_target_pct", N, PCT, "95% interval aimed at"},
	{"bench.parameters.layout_s", N, SEC, "Time laying out the span"},
	{"bench.parameters.direct", S, TXT, "Direct I/O"},
	{"bench.parameters.direct_reason", S, TXT, "Why (direct I/O)"},
	{"bench.parameters.mode", S, TXT, "What was measured"},
	{"bench.parameters.target", S, TXT, "Target"},
	{"bench.parameters.*", A, NUM, "Benchmark parameter"},
	{"bench.rotational_claim", O, TREE, "The rotational flag against the figures"},
	{"bench.rotational_claim.contradicted_by", S, TXT, "Test that contradicts the rotational flag"},
	{"bench.rotational_claim.reason", S, TXT, "Why the rotational flag is not the medium's"},
	{"bench.*", O, TREE, "Benchmark test"},
	{"bench.*.iops", N, PS, "I/O operations per second"},
	{"bench.*.bw_bytes_per_s", N, BPS, "Throughput"},
	{"bench.*.lat_mean_us", N, US, "Mean latency"},
	{"bench.*.lat_p50_us", N, US, "Median latency"},
	{"bench.*.lat_p99_us", N, US, "99th percentile latency"},
	{"bench.*.lat_p999_us", N, US, "99.9th percentile latency"},
	{"bench.*.lat_max_us", N, US, "Largest latency"},
	{"bench.*.samples", I, CNT, "I/Os measured"},
	{"bench.*.spread_pct", N, PCT, "Spread"},
	{"bench.*.ci95_pct", N, PCT, "95% confidence interval (±)"},
	{"bench.*.create_ci95_pct", N, PCT, "95% confidence interval of creation (±)"},
	{"bench.*.transactions_ci95_pct", N, PCT, "95% confidence interval of the transactions (±)"},
	{"bench.*.delete_ci95_pct", N, PCT, "95% confidence interval of deletion (±)"},
	{"bench.*.stat_ci95_pct", N, PCT, "95% confidence interval of stat (±)"},
	{"bench.*.unlink_ci95_pct", N, PCT, "95% confidence interval of unlinking (±)"},
	{"bench.*.write_ci95_pct", N, PCT, "95% confidence interval of writing (±)"},
	{"bench.*.read_ci95_pct", N, PCT, "95% confidence interval of reading (±)"},
	{"bench.*.runtime_s", N, SEC, "Measured time"},
	{"bench.*.io_size_bytes", I, BY, "I/O size"},
	{"bench.*.queue_depth", I, CNT, "Queue depth"},
	{"bench.*.engine", S, TXT, "Engine"},
	{"bench.*.inflight_mean", N, NUM, "Mean I/Os in flight"},
	{"bench.*.direct", S, TXT, "Direct I/O"},
	{"bench.*.span_bytes", I, BY, "Span"},
	{"bench.*.cache_suspect", B, YN, "Maybe served by a cache"},
	{"bench.*.cache_suspect_reason", S, TXT, "Why a cache is suspected"},
	{"bench.*.implausible", B, YN, "Beyond what the hardware can do"},
	{"bench.*.implausible_reason", S, TXT, "The hardware's limit and its source"},
	{"bench.*.implausible_limit", N, PS, "Most I/Os per second the hardware allows"},
	{"bench.*.cpu_bound", B, YN, "Limited by the CPU, not the device"},
	{"bench.*.cpu_bound_reason", S, TXT, "Why the CPU was the limit"},
	{"bench.*.burst", O, TREE, "Burst, then a slower sustained rate"},
	{"bench.*.burst.burst_bytes", I, BY, "Written at the burst rate"},
	{"bench.*.burst.burst_rate", N, BPS, "Rate of the burst"},
	{"bench.*.burst.sustained_rate", N, BPS, "Rate after the burst"},
	{"bench.*.checks_ok", B, YN, "Consistency checks passed"},
	{"bench.*.checks_failed", SL, TXT, "Consistency checks failed"},
	{"bench.*.cpu_us_per_io", N, US, "CPU time per I/O"},
	{"bench.*.cpu_wait_pct", N, PCT, "Time waiting for a CPU"},
	{"bench.*.tps", N, PS, "Transactions per second"},
	{"bench.*.create_per_s", N, PS, "Creates per second"},
	{"bench.*.read_per_s", N, PS, "Reads per second"},
	{"bench.*.append_per_s", N, PS, "Appends per second"},
	{"bench.*.delete_per_s", N, PS, "Deletes per second"},
	{"bench.*.create_alone_per_s", N, PS, "Creates per second (create phase)"},
	{"bench.*.delete_alone_per_s", N, PS, "Deletes per second (delete phase)"},
	{"bench.*.stat_per_s", N, PS, "Stats per second"},
	{"bench.*.unlink_per_s", N, PS, "Unlinks per second"},
	{"bench.*.write_files_per_s", N, PS, "Files written per second"},
	{"bench.*.read_files_per_s", N, PS, "Files read per second"},
	{"bench.*.write_bw_bytes_per_s", N, BPS, "Write throughput"},
	{"bench.*.read_bw_bytes_per_s", N, BPS, "Read throughput"},
	{"bench.*.files", I, CNT, "Files"},
	{"bench.*.files_planned", I, CNT, "Files planned"},
	{"bench.*.files_per_dir", I, CNT, "Files per directory"},
	{"bench.*.files_left", I, CNT, "Files left at the end"},
	{"bench.*.files_read", I, CNT, "Files read back (tree: the read phase may stop at the time bound)"},
	{"bench.*.directories", I, CNT, "Directories"},
	{"bench.*.subdirectories", I, CNT, "Subdirectories"},
	{"bench.*.cache", S, TXT, "Cache (warm or cold)"},
	{"bench.*.write_s", N, SEC, "Time writing"},
	{"bench.*.read_s", N, SEC, "Time reading"},
	{"bench.*.create_s", N, SEC, "Time creating"},
	{"bench.*.stat_s", N, SEC, "Time in stat"},
	{"bench.*.unlink_s", N, SEC, "Time unlinking"},
	{"bench.*.delete_s", N, SEC, "Time deleting"},
	{"bench.*.transactions_s", N, SEC, "Time in transactions"},
	{"bench.*.bytes", I, BY, "Bytes written"},
	{"bench.*.bytes_left", I, BY, "Bytes left at the end"},
	{"bench.*.bytes_read", I, BY, "Bytes read"},
	{"bench.*.bytes_written", I, BY, "Bytes written"},
	{"bench.*.file_size_min_bytes", I, BY, "Smallest file"},
	{"bench.*.file_size_max_bytes", I, BY, "Largest file"},
	{"bench.*.file_size_mean_bytes", N, BY, "Mean file size"},
	{"bench.*.file_size_top_bytes", I, BY, "Largest file"},
	{"bench.*.read_block_size", I, BY, "Read size"},
	{"bench.*.write_block_size", I, BY, "Write size"},
	{"bench.*.transactions", I, CNT, "Transactions"},
	{"bench.*.creates", I, CNT, "Creates"},
	{"bench.*.creates_skipped", I, CNT, "Creates skipped"},
	{"bench.*.reads", I, CNT, "Reads"},
	{"bench.*.appends", I, CNT, "Appends"},
	{"bench.*.appends_skipped", I, CNT, "Appends skipped"},
	{"bench.*.deletes", I, CNT, "Deletes"},
	{"bench.*.deletes_in_transactions", I, CNT, "Deletes in transactions"},
	{"bench.*.stats", I, CNT, "Stats"},
	{"bench.*.unlinks", I, CNT, "Unlinks"},
	{"bench.*.bias_read", I, NUM, "Read bias (0..10)"},
	{"bench.*.bias_create", I, NUM, "Create bias (0..10)"},
	{"bench.*.seed", I, NUM, "Random seed"},
	{"bench.*.parameters_from", S, TXT, "Parameters from"},
	{"bench.*.fsync", B, YN, "fsync per file"},
	/* Below the keys above, each test carries the bench layer's own detail (counts, reasons), which
	 * changes with the engines: known, of any type. */
	{"bench.*.*", A, NUM, "Benchmark detail"},
	{"bench.*.*.*", A, NUM, "Benchmark detail"},

	{"workload.profile", S, TXT, "Workload profile"},
	{"workload.io_mode", S, TXT, "I/O mode"},
	{"workload.access", S, TXT, "Access pattern"},
	{"workload.io_size_bytes", I, BY, "I/O size"},
	{"workload.sync_heavy", B, YN, "Syncs often"},
	{"workload.file_size_min_bytes", I, BY, "Smallest file"},
	{"workload.file_size_max_bytes", I, BY, "Largest file"},
	{"workload.file_size_p50_bytes", I, BY, "Median file size"},
	{"workload.file_size_p90_bytes", I, BY, "90th percentile file size"},
	{"workload.file_size_mean_bytes", N, BY, "Mean file size"},
	{"workload.files_total", I, CNT, "Files"},
	{"workload.bytes_total", I, BY, "Bytes in files"},
	{"workload.files_per_dir", I, CNT, "Files per directory (median)"},
	{"workload.files_per_dir_p90", I, CNT, "Files per directory (90th percentile)"},
	{"workload.files_per_dir_max", I, CNT, "Files per directory (most)"},
	{"workload.share_under_1k", N, SHR, "Files under 1 KiB"},
	{"workload.share_under_2k", N, SHR, "Files under 2 KiB"},
	{"workload.share_under_4k", N, SHR, "Files under 4 KiB"},
	{"workload.inline_candidates", I, CNT, "Files of 60 bytes or less"},
	{"workload.allocated_bytes", I, BY, "Space allocated"},
	{"workload.sparse_files", I, CNT, "Sparse files"},
	{"workload.tail_waste_bytes", O, TREE, "Tail waste by allocation unit"},
	{"workload.tail_waste_bytes.*", I, BY, "Tail waste at this allocation unit"},
	{"workload.partial", B, YN, "Sample incomplete"},
	{"workload.read_share", N, SHR, "Reads among requests"},
	{"workload.mean_request_bytes", N, BY, "Mean request size"},
	{"workload.inflight_mean", N, NUM, "Mean requests in flight"},
	{"workload.busy_share", N, SHR, "Time the device was busy"},
	{"workload.sample", O, TREE, "The sample of files"},
	{"workload.sample.root", S, TXT, "Directory sampled"},
	{"workload.sample.dirs", I, CNT, "Directories"},
	{"workload.sample.hardlinks_skipped", I, CNT, "Hard links skipped"},
	{"workload.sample.symlinks", I, CNT, "Symbolic links"},
	{"workload.sample.others", I, CNT, "Other entries"},
	{"workload.sample.mounts_skipped", I, CNT, "Mounts skipped"},
	{"workload.sample.denied", I, CNT, "Entries denied"},
	{"workload.sample.errors", I, CNT, "Errors"},
	{"workload.sample.first_error", S, TXT, "First error"},
	{"workload.sample.percentiles_exact", B, YN, "Percentiles exact"},
	{"workload.sample.cancelled", B, YN, "Cancelled"},
	{"workload.sample.elapsed_s", N, SEC, "Time sampling"},
	{"workload.observe", O, TREE, "The observation of the disk"},
	{"workload.observe.device", S, TXT, "Device observed"},
	{"workload.observe.interval_s", N, SEC, "Time observed"},
	{"workload.observe.reads", I, CNT, "Reads"},
	{"workload.observe.writes", I, CNT, "Writes"},
	{"workload.observe.read_bytes", I, BY, "Bytes read"},
	{"workload.observe.write_bytes", I, BY, "Bytes written"},

	/* owners.<setting>: the setting names of rules/settings.c that something else may manage */
	{"owners.sysctl", O, TREE, "Who else sets a sysctl"},
	{"owners.sysctl.vm", O, TREE, "Who else sets a vm sysctl"},
	{"owners.sysctl.vm.dirty_ratio", OL, TXT, "Who else sets vm.dirty_ratio"},
	{"owners.sysctl.vm.dirty_background_ratio", OL, TXT, "Who else sets vm.dirty_background_ratio"},
	{"owners.sysctl.vm.dirty_bytes", OL, TXT, "Who else sets vm.dirty_bytes"},
	{"owners.sysctl.vm.dirty_background_bytes", OL, TXT, "Who else sets vm.dirty_background_bytes"},
	{"owners.sysctl.vm.dirty_expire_centisecs", OL, TXT, "Who else sets vm.dirty_expire_centisecs"},
	{"owners.sysctl.vm.dirty_writeback_centisecs", OL, TXT, "Who else sets vm.dirty_writeback_centisecs"},
	{"owners.sysctl.vm.vfs_cache_pressure", OL, TXT, "Who else sets vm.vfs_cache_pressure"},
	{"owners.queue", O, TREE, "Who else sets a queue attribute"},
	{"owners.queue.scheduler", OL, TXT, "Who else sets the I/O scheduler"},
	{"owners.queue.read_ahead_kb", OL, TXT, "Who else sets read-ahead"},
	{"owners.queue.nr_requests", OL, TXT, "Who else sets the queue depth"},
	{"owners.device", O, TREE, "Who else sets a device attribute"},
	{"owners.device.write_cache", OL, TXT, "Who else sets the write cache mode"},
	{"owners.bdi", O, TREE, "Who else sets a writeback (bdi) limit"},
	{"owners.bdi.max_ratio", OL, TXT, "Who else sets the largest share of the dirty limit"},
	{"owners.bdi.strict_limit", OL, TXT, "Who else sets the strict limit"},
	{"owners.md", O, TREE, "Who else sets an md attribute"},
	{"owners.md.stripe_cache_size", OL, TXT, "Who else sets the md stripe cache"},
	{"owners.mount", O, TREE, "Who else sets a mount option"},
	{"owners.mount.option", O, TREE, "Who else sets a mount option"},
	{"owners.mount.option.noatime", OL, TXT, "Who else sets noatime"},
	{"owners.mount.option.relatime", OL, TXT, "Who else sets relatime"},
	{"owners.mount.option.lazytime", OL, TXT, "Who else sets lazytime"},
	{"owners.mount.option.commit", OL, TXT, "Who else sets commit"},
	{"owners.mount.option.discard", OL, TXT, "Who else sets discard"},
	{"owners.mount.option.barrier", OL, TXT, "Who else sets barrier"},
	{"owners.mount.option.data", OL, TXT, "Who else sets data"},

	/* the named trial keys first: "trial.*" would match them as subtrees */
	{"trial.best", S, TXT, "Best candidate"},
	{"trial.best_is_tied", B, YN, "Best shares its rank"},
	{"trial.target", S, TXT, "Trial on"},
	{"trial.metric", S, TXT, "Metric"},
	{"trial.primary", S, TXT, "Primary metric"},
	{"trial.noise_floor_pct", N, PCT, "Noise floor (A/A) of the primary metric"},
	{"trial.rounds", I, CNT, "Rounds"},
	{"trial.rounds_min", I, CNT, "Rounds the comparisons need for a verdict"},
	{"trial.partial", B, YN, "Interrupted"},
	{"trial.metrics", OL, TXT, "Metrics measured"},
	{"trial.comparisons", OL, TXT, "Comparisons"},
	{"trial.control", O, TREE, "A/A control"},
	{"trial.control.candidate", S, TXT, "Baseline"},
	{"trial.control.spec", S, TXT, "Baseline's filesystem and mkfs options"},
	{"trial.control.ratio_spread", A, NUM, "A/A ratios, least and largest"},
	{"trial.control.floor_pct", N, PCT, "Noise floor"},
	{"trial.control.metrics", O, TREE, "A/A control by metric"},
	{"trial.control.metrics.*", O, TREE, "A/A control of a metric"},
	{"trial.control.metrics.*.ratio_spread", A, NUM, "A/A ratios, least and largest"},
	{"trial.control.metrics.*.floor_pct", N, PCT, "Noise floor"},
	{"trial.control.metrics.*.rounds", I, CNT, "Rounds with both runs"},
	{"trial.environment", O, TREE, "Host during the trial"},
	{"trial.environment.cpus", I, CNT, "CPUs"},
	{"trial.environment.load", N, NUM, "Load average (median at the runs' starts)"},
	{"trial.environment.load_min", N, NUM, "Least load average"},
	{"trial.environment.load_max", N, NUM, "Largest load average"},
	{"trial.environment.cpu_wait_pct", N, PCT, "Time a run waited for a CPU (median)"},
	{"trial.environment.cpu_wait_max_pct", N, PCT, "Time a run waited for a CPU (largest)"},
	{"trial.environment.disk", S, TXT, "Disk under the trial"},
	{"trial.environment.disk_busy_before", N, SHR, "Disk busy before the trial"},
	{"trial.environment.other_disk_traffic_bytes_per_s", N, BPS, "Other traffic on the disk"},
	{"trial.environment.other_disk_traffic_why", S, TXT, "Why other traffic is unknown"},
	{"trial.environment.image_bytes", I, BY, "Image size"},
	{"trial.environment.image_allocated_min_bytes", I, BY, "Least allocated after a run"},
	{"trial.*", O, TREE, "Trial candidate"},
	{"trial.*.spec", S, TXT, "Filesystem and mkfs options"},
	{"trial.*.metric", S, TXT, "Metric"},
	{"trial.*.median", N, NUM, "Median (in its unit)"},
	{"trial.*.spread_pct", N, PCT, "Spread"},
	{"trial.*.rank", I, CNT, "Rank"},
	{"trial.*.runs", I, CNT, "Runs"},
	{"trial.*.unit", S, TXT, "Unit of the median"},
	{"trial.*.better", S, TXT, "Better when"},
	{"trial.*.origin", S, TXT, "Proposed by"},
	{"trial.*.merged_into", S, TXT, "Makes the same filesystem as"},
	{"trial.*.metrics", O, TREE, "Results by metric"},
	{"trial.*.metrics.*", O, TREE, "Result on a metric"},
	{"trial.*.metrics.*.median", N, NUM, "Median (in its unit)"},
	{"trial.*.metrics.*.unit", S, TXT, "Unit of the median"},
	{"trial.*.metrics.*.better", S, TXT, "Better when"},
	{"trial.*.metrics.*.spread_pct", N, PCT, "Spread"},
	{"trial.*.metrics.*.rank", I, CNT, "Rank"},
	{"trial.*.metrics.*.runs", I, CNT, "Runs"},
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

const struct facts_key_info *facts_schema_find(const char *key)
{
	int i = find_key(key);

	return i < 0 ? NULL : &known_keys[i];
}

enum units_kind facts_schema_unit(const char *key)
{
	int i = find_key(key);

	return i < 0 ? UNITS_PLAIN : known_keys[i].unit;
}

size_t facts_schema_size(void)
{
	return sizeof(known_keys) / sizeof(known_keys[0]);
}

const struct facts_key_info *facts_schema_at(size_t i)
{
	return i < facts_schema_size() ? &known_keys[i] : NULL;
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
		if (facts_is_side_member(name))
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
