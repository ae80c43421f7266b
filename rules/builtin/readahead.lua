-- Read-ahead (the disk's queue/read_ahead_kb, or btrfs's own bdi) by the workload's I/O mode and
-- access pattern: never for O_DIRECT, up for large sequential files on disks and RAID, down for
-- random access through mmap, and back to the default (or the streaming size) when the kernel
-- derived it from a bogus optimal I/O size.

local SOURCES = {
	"block/blk-settings.c: ra_pages = max(io_opt * 2 / PAGE_SIZE, VM_READAHEAD_PAGES) [L-blksettings]",
	"include/linux/pagemap.h: VM_READAHEAD_PAGES = 128 KiB [L-pagemap]",
	"Documentation/ABI/stable/sysfs-block: read_ahead_kb, optimal_io_size [L-sysfs-block]",
	"tuned profiles: throughput-performance readahead=>4096; spectrumscale-ece readahead 0 [TUNED]",
	"posix_fadvise(2): POSIX_FADV_RANDOM disables read-ahead [FADVISE]; madvise(2) MADV_RANDOM",
	"getumbrel/umbrel#2222: USB storage with optimal_io_size 33553920 unusable until read-ahead "
		.. "was set to 128 KiB by a udev rule; util-linux PR #1224 (0xffff sectors from USB-SATA adapters)",
	"seed: 2000-lkml-ext2-1k-vs-4k-database (small random C-ISAM accesses)",
	"libvirt via SUSE/sesdev#37: guests assume rotational storage [VIRT-ROT]",
	"Linux mm/readahead.c page_cache_sync_ra(): 'Standalone, small random read. Read as is'; "
		.. "mm/filemap.c do_sync_mmap_readahead(): mmap read-around of ra_pages, stopped when misses "
		.. "outnumber hits by MMAP_LOTSAMISS (100)",
	"Linux fs/btrfs/disk-io.c open_ctree(): s_bdi->ra_pages *= num_devices, at least SZ_4M / PAGE_SIZE; "
		.. "fs/btrfs/sysfs.c: /sys/fs/btrfs/FSID/bdi links the filesystem's own bdi (btrfs-N, named anew "
		.. "at each mount by super_setup_bdi)",
	"systemd.mount(5): a mount unit has no ExecStartPost=; systemd.unit(5) WantedBy=, BindsTo=",
}

local KiB, MiB = fstune.KiB, fstune.MiB

-- What the device is, by transport and virtualization first, rotational last (virtio, xen and loop
-- set rotational themselves [VIRT-ROT], [OHAI]).
local function kind(facts, d)
	local t = d.transport
	local virt = (facts.host or {}).virtualization
	if t == "nvme" then return "flash" end
	if t == "md" or t == "dm" then return d.rotational == true and "disk" or "flash" end
	if t == "sata" or t == "sas" or t == "scsi" or t == "usb" then
		if d.rotational == false then return "flash" end
		if d.rotational == true and (virt == "none" or t == "usb") then return "disk" end
		return "unknown"
	end
	if t == "virtio" or t == "xen" then return "virtual" end
	return "unknown"
end

-- optimal_io_size that is a bridge's transfer limit or no multiple of the physical sector.
local function bogus_opt(d)
	local opt, lbs = d.optimal_io_size, fstune.positive(d.logical_block_size) or 512
	local pbs = fstune.positive(d.physical_block_size) or lbs
	if not fstune.is_integer(opt) or opt <= 0 then return false end
	return (opt % lbs == 0 and opt // lbs == 65535) or opt % pbs ~= 0
		or (fstune.is_integer(d.minimum_io_size) and d.minimum_io_size > 0 and opt % d.minimum_io_size ~= 0)
end

-- Where file reads take their read-ahead from: the disk's queue, or for btrfs the filesystem's own
-- bdi (btrfs-N), which btrfs sizes itself (128 KiB per device, at least 4 MiB) and which the member
-- disks' queues do not touch. nil when that is btrfs's and the facts lack it: advice on a member's
-- queue would change nothing its files read.
local function read_ahead_of(facts, d)
	local f, bdi = facts.fs, facts.vm and facts.vm.bdi
	if f and f.type == "btrfs" then
		local name = bdi and bdi.name
		if type(name) ~= "string" or name:sub(1, 6) ~= "btrfs-" or not fstune.is_integer(bdi.read_ahead_kb) then
			return nil
		end
		return {ra = bdi.read_ahead_kb, setting = "bdi.read_ahead_kb", key = "vm.bdi.read_ahead_kb", own = true,
			where = string.format("the btrfs filesystem's own bdi, %s: btrfs reads through it, not through "
				.. "the member disks' queues, and sizes it at 128 KiB per device, at least 4 MiB (open_ctree in "
				.. "fs/btrfs/disk-io.c)", name),
			keep = "btrfs names its bdi anew at every mount, so no udev rule can keep it: the service in the "
				.. "persistent form sets it again each time the mount unit starts (a mount unit runs no "
				.. "command of its own: systemd.mount(5) has no ExecStartPost=)"}
	end
	if not fstune.is_integer(d.read_ahead_kb) or d.read_ahead_kb < 0 then return nil end
	return {ra = d.read_ahead_kb, setting = "queue.read_ahead_kb", key = "device.read_ahead_kb", own = false,
		where = "the disk's queue", keep = "the udev rule keeps it across reboots and replugging"}
end

local function rec_inflated(d, w, src, streams, out)
	local ra, opt = src.ra, d.optimal_io_size
	local random = w.access == "random" and not fstune.is_assumed("workload.access")
	local want = streams and 4096 or 128
	out[#out + 1] = {name = "inflated_by_io_opt", setting = src.setting, recommended = want,
		severity = random and "warn" or "suggest", confidence = 0.7,
		title = string.format("read-ahead is %d KiB because the kernel doubled a bogus optimal I/O size", ra),
		rationale = string.format("The kernel sets read-ahead to at least twice optimal_io_size; this device "
			.. "reports optimal_io_size %d (see the topology rules: a USB bridge's transfer limit, not a "
			.. "stripe), so every buffered read that triggers read-ahead may pull in up to %d KiB. %s; %s.", opt,
			ra, streams and "The workload streams large files, so the streaming size serves it: 4096 KiB, "
				.. "tuned's throughput-performance read-ahead, a window that keeps a disk streaming without "
				.. "holding tens of MiB of page cache per file; 128 KiB, the kernel's default, would suit "
				.. "small reads instead"
				or string.format("Reports of such USB disks describe them as unusably slow on small reads "
					.. "until read-ahead was put back to 128 KiB. Set 128 (the kernel's VM_READAHEAD default)%s",
					random and "; this workload reads randomly, where the waste is worst" or
					", or 4096 if the disk only streams large files (say so: --access sequential)"),
			src.keep),
		evidence = fstune.present({"device.read_ahead_kb", "device.optimal_io_size", "device.logical_block_size",
			"device.transport", "workload.access", "workload.file_size_p50_bytes", "workload.io_size_bytes"})}
end

local function rec_streaming(facts, d, src, out)
	local ra, opt = src.ra, d.optimal_io_size
	local k = kind(facts, d)
	local target = 4096
	if fstune.is_integer(opt) and opt > 0 and not bogus_opt(d) and (2 * opt) // KiB > target then
		target = (2 * opt) // KiB
	end
	if ra >= target or (k ~= "disk" and k ~= "virtual") then return end
	local is_weak = fstune.is_assumed("workload.access")
	out[#out + 1] = {name = "raise_for_streaming", setting = src.setting, recommended = target,
		severity = (k == "disk" and not is_weak) and "suggest" or "info", confidence = 0.5,
		title = string.format("streaming large files from %s: read-ahead %d KiB instead of %d",
			k == "disk" and "disks" or "a virtual disk", target, ra),
		rationale = string.format("The workload reads large files sequentially. With read-ahead at "
			.. "%d KiB on %s, a %s serves each stream in small requests with a seek or a round trip "
			.. "between them; tuned's throughput-performance profile raises read-ahead to 4096 KiB "
			.. "for this%s. The cost is memory and wasted reads if access turns random. %s",
			ra, src.where, k == "disk" and "spinning disk or RAID" or "high-latency virtual backend",
			target > 4096 and string.format(", and the kernel's own rule is at least twice the "
				.. "optimal I/O size (%d KiB here)", target) or "",
			k == "virtual" and "On a virtual disk the gain depends on the backend: measure." or ""),
		evidence = fstune.present({"workload.access", "workload.file_size_p50_bytes", "workload.io_size_bytes",
			src.key, "device.transport", "device.rotational", "device.optimal_io_size"})}
end

-- A buffered read() that misses at random is read as asked ("standalone, small random read"),
-- whatever read_ahead_kb says, and database scans rely on read-ahead: only memory-mapped files pay
-- for it on random access, through the read-around of each page fault.
local function rec_mmap_random(w, src, out)
	local ra = src.ra
	local small = fstune.is_integer(w.io_size_bytes) and w.io_size_bytes <= 64 * KiB
	if not (w.access == "random" and w.io_mode == "mmap" and small and ra > 512) then return end
	local is_weak = fstune.is_assumed("workload.access") or fstune.is_assumed("workload.io_size_bytes")
		or fstune.is_assumed("workload.io_mode")
	out[#out + 1] = {name = "lower_for_random", setting = src.setting, recommended = 128,
		severity = is_weak and "info" or "suggest", confidence = 0.5,
		title = string.format("random access through mmap with %d KiB read-ahead: back to 128 KiB", ra),
		rationale = string.format("The workload touches %d-byte pieces of memory-mapped files at random, "
			.. "and read-ahead is %d KiB (above 512, a heuristic threshold) on %s. Each page fault on a mapped "
			.. "file reads read_ahead_kb around the faulting page (read-around), so a miss can read %d "
			.. "KiB to use %d bytes, evicting useful pages; the kernel stops only once misses outnumber "
			.. "hits by 100 in that file. This is the one case where the setting changes something for "
			.. "random access: a buffered read() that misses at random is read as asked, whatever "
			.. "read_ahead_kb says, and a database's scans rely on read-ahead. 128 KiB is the kernel "
			.. "default; better still, the application can say MADV_RANDOM for such mappings; %s. A 2000 "
			.. "report on Linux 2.2 (rebuilding a C-ISAM index with 1 KiB random accesses) was this "
			.. "pattern: small random accesses pay for the whole unit read.", w.io_size_bytes, ra, src.where,
			ra, w.io_size_bytes, src.keep),
		evidence = fstune.present({"workload.access", "workload.io_mode", "workload.io_size_bytes", src.key})}
end

local function check(facts)
	local out = {}
	local d = facts.device
	if d == nil then return out end
	local src = read_ahead_of(facts, d)
	if src == nil then return out end
	local w = facts.workload or {}
	local big = (fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes >= MiB)
		or (fstune.is_integer(w.io_size_bytes) and w.io_size_bytes >= MiB)
	local streams = w.access == "sequential" and big and w.io_mode ~= "direct"

	-- btrfs's own bdi is sized by btrfs, never from the member's optimal_io_size
	if not src.own and bogus_opt(d) and src.ra >= 512 and src.ra * KiB >= d.optimal_io_size then
		rec_inflated(d, w, src, streams, out)
		return out
	end
	if w.io_mode == "direct" then return out end -- O_DIRECT bypasses the page cache and its read-ahead
	if streams then
		rec_streaming(facts, d, src, out)
	else
		rec_mmap_random(w, src, out)
	end
	return out
end

local function dev(extra)
	return fstune.merge({name = "sdb", disk = "sdb", transport = "sas", rotational = true, logical_block_size = 512,
		physical_block_size = 4096, minimum_io_size = 4096, optimal_io_size = 0, read_ahead_kb = 128}, extra)
end

local BARE = {virtualization = "none"}
local BTRFS_UUID = "13538755-280b-442c-a35b-fa40aa563328"

return fstune.rule {
	id = "readahead",
	title = "Read-ahead by I/O mode and access pattern; read-ahead inflated by a bogus optimal I/O size",
	description = [[
queue/read_ahead_kb, judged by the workload and by what the device is (transport and
host.virtualization first; rotational only for bare-metal SATA/SAS/SCSI and USB disks):

- optimal_io_size that cannot be trusted (65535 logical sectors, not a multiple of the physical
  sector or of minimum_io_size) and read-ahead of 512 KiB or more derived from it (the kernel uses
  at least 2 x optimal_io_size): back to 128 KiB (warn for random workloads, else suggest), or to
  the streaming size, 4096 KiB, for a workload that streams large files (a backup disk).
- workload.io_mode = direct: nothing (O_DIRECT bypasses read-ahead).
- sequential access to large files (median file or request of 1 MiB or more): 4096 KiB (or twice a
  trusted optimal_io_size when larger) on disks and RAID (suggest), on virtual disks (info).
- random access to memory-mapped files (workload.io_mode = mmap) in pieces of 64 KiB or less with
  read-ahead above 512 KiB (heuristic): 128 KiB, since each page fault reads read_ahead_kb around
  it. Buffered read() gets nothing: the kernel reads an isolated random miss as asked, and
  database scans rely on read-ahead.
Nothing rests on a preset or default workload beyond info. A btrfs filesystem reads through a
bdi of its own (btrfs-N, /sys/fs/btrfs/FSID/bdi), sized by btrfs at 128 KiB per device and at
least 4 MiB, never from a member's optimal_io_size: the advice is on that bdi
(bdi.read_ahead_kb, vm.bdi.*), never on a member disk's queue, whose read-ahead its files do not
use; without the bdi in the facts, nothing. btrfs renames the bdi at every mount, so there is no
udev form: the persistent form is a oneshot service the mount unit pulls in.]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		inflated_by_io_opt = {1, 2, 6, 4},
		raise_for_streaming = {4, 1, 8},
		lower_for_random = {9, 2, 4, 5, 7},
	},
	settings = {"queue.read_ahead_kb", "bdi.read_ahead_kb"},
	needs = {"device.read_ahead_kb"},
	uses = {"device.transport", "device.rotational", "device.optimal_io_size", "device.minimum_io_size",
		"device.logical_block_size", "device.physical_block_size", "host.virtualization",
		"workload.io_mode", "workload.access", "workload.io_size_bytes", "workload.file_size_p50_bytes",
		"fs.type", "fs.uuid", "fs.mount_point", "vm.bdi.name", "vm.bdi.read_ahead_kb"},
	check = check,
	tests = {
		{name = "USB bridge: read-ahead 65532 KiB from optimal_io_size 33553920",
			facts = {device = dev({transport = "usb", optimal_io_size = 33553920, read_ahead_kb = 65532})},
			expect = {{name = "inflated_by_io_opt", recommended = 128, severity = "suggest"}}},
		{name = "same, random workload: warn",
			facts = {device = dev({transport = "usb", optimal_io_size = 33553920, read_ahead_kb = 65532}),
				workload = {access = "random", io_size_bytes = 4096}},
			expect = {{name = "inflated_by_io_opt", severity = "warn"}}},
		{name = "bogus optimal but read-ahead already reset: nothing",
			facts = {device = dev({transport = "usb", optimal_io_size = 33553920, read_ahead_kb = 128})},
			expect = {}},
		{name = "bare-metal SAS disk streaming video",
			facts = {host = BARE, device = dev(), workload = {access = "sequential", io_mode = "buffered",
				file_size_p50_bytes = 900 * MiB, io_size_bytes = MiB}},
			expect = {{name = "raise_for_streaming", recommended = 4096, severity = "suggest"}}},
		{name = "md RAID6 streaming: twice the stripe",
			facts = {device = dev({transport = "md", minimum_io_size = 524288, optimal_io_size = 3145728,
				read_ahead_kb = 2048}), workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {{name = "raise_for_streaming", recommended = 6144}}},
		{name = "md RAID6 at the kernel's 2 x io_opt already: nothing",
			facts = {device = dev({transport = "md", minimum_io_size = 524288, optimal_io_size = 3145728,
				read_ahead_kb = 6144}), workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {}},
		{name = "streaming from a preset: info",
			facts = {host = BARE, device = dev(), workload = {access = "sequential", io_size_bytes = MiB},
				sources = {["workload.access"] = "preset", ["workload.io_size_bytes"] = "preset"}},
			expect = {{name = "raise_for_streaming", severity = "info"}}},
		{name = "O_DIRECT database: never",
			facts = {host = BARE, device = dev({read_ahead_kb = 8192}),
				workload = {access = "random", io_mode = "direct", io_size_bytes = 8192}},
			expect = {}},
		{name = "NVMe streaming: flash needs no help",
			facts = {device = dev({transport = "nvme", rotational = false}),
				workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {}},
		{name = "SAS disk in a VM of unknown passthrough: rotational not trusted",
			facts = {host = {virtualization = "kvm"}, device = dev(),
				workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {}},
		{name = "virtio disk streaming: info",
			facts = {host = {virtualization = "kvm"}, device = dev({transport = "virtio", physical_block_size = 512,
				minimum_io_size = 512}), workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {{name = "raise_for_streaming", severity = "info"}}},
		{name = "random 8K access through mmap with 4 MiB read-ahead: read-around on every fault",
			facts = {host = BARE, device = dev({read_ahead_kb = 4096}),
				workload = {access = "random", io_mode = "mmap", io_size_bytes = 8192}},
			expect = {{name = "lower_for_random", recommended = 128, severity = "suggest"}}},
		{name = "buffered random 8K reads with 4 MiB read-ahead: the kernel reads the miss as asked, nothing",
			facts = {host = BARE, device = dev({read_ahead_kb = 4096}),
				workload = {access = "random", io_mode = "buffered", io_size_bytes = 8192}},
			expect = {}},
		{name = "buffered random reads at the default: nothing",
			facts = {host = BARE, device = dev(), workload = {access = "random", io_size_bytes = 8192}},
			expect = {}},
		{name = "USB backup disk that only streams, bogus optimal I/O size: the streaming size, not 128",
			facts = {device = dev({transport = "usb", optimal_io_size = 33553920, read_ahead_kb = 65532}),
				workload = {access = "sequential", io_mode = "buffered", file_size_p50_bytes = 4 * 1024 * MiB,
					io_size_bytes = MiB}},
			expect = {{name = "inflated_by_io_opt", recommended = 4096, severity = "suggest"}}},
		{name = "btrfs, mmap at random: its own bdi back to 128 KiB, never the member's queue",
			facts = {host = BARE, device = dev({read_ahead_kb = 128}),
				fs = {type = "btrfs", uuid = BTRFS_UUID, mount_point = "/srv"},
				vm = {bdi = {name = "btrfs-7", read_ahead_kb = 4096}},
				workload = {access = "random", io_mode = "mmap", io_size_bytes = 8192}},
			expect = {{name = "lower_for_random", setting = "bdi.read_ahead_kb", current = 4096, recommended = 128,
				apply = {"echo 128 > /sys/fs/btrfs/" .. BTRFS_UUID .. "/bdi/read_ahead_kb"},
				revert = {"echo 4096 > /sys/fs/btrfs/" .. BTRFS_UUID .. "/bdi/read_ahead_kb"}}}},
		{name = "btrfs without its bdi in the facts: nothing, the member's queue is not what its files read",
			facts = {host = BARE, device = dev({read_ahead_kb = 4096}), fs = {type = "btrfs", mount_point = "/srv"},
				workload = {access = "random", io_mode = "mmap", io_size_bytes = 8192}},
			expect = {}},
		{name = "btrfs streaming from disks: its bdi is at 4 MiB already, nothing",
			facts = {host = BARE, device = dev(), fs = {type = "btrfs", uuid = BTRFS_UUID},
				vm = {bdi = {name = "btrfs-7", read_ahead_kb = 4096}},
				workload = {access = "sequential", io_size_bytes = MiB}},
			expect = {}},
		{name = "btrfs on a USB member with a bogus optimal I/O size: btrfs's bdi is not sized from it, nothing",
			facts = {device = dev({transport = "usb", optimal_io_size = 33553920, read_ahead_kb = 65532}),
				fs = {type = "btrfs", uuid = BTRFS_UUID}, vm = {bdi = {name = "btrfs-7", read_ahead_kb = 4096}}},
			expect = {}},
		{name = "no read_ahead_kb", facts = {device = {transport = "sata"}}, expect = "not_evaluated"},
	},
}
