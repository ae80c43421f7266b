-- Mount options and trim: atime (noatime/lazytime only against strictatime or for read-mostly and
-- preallocated-file workloads; relatime is the default and never worth a warning), online discard
-- against a periodic fstrim, and the ext4 journal commit interval with its loss window.

local SOURCES = {
	"mount(8): relatime default since 2.6.30, noatime, strictatime, lazytime [UL-mount8]",
	"Documentation/admin-guide/ext4.rst: commit=5 default, 'you will lose as much as the latest 5 "
		.. "seconds'; discard off by default [L-ext4adm]",
	"Documentation/admin-guide/xfs.rst: discard off by default, 'recommended that you use the fstrim "
		.. "application ... performance impact of this option is quite severe' [L-xfs]",
	"fstrim(8), fstrim.timer: weekly 'sufficient for most desktop and server systems'; skipped in "
		.. "containers [UL-fstrim]",
	"btrfs(5) mount options: discard=async default since 6.2 [BTRFS-mnt]",
	"FreeBSD tuning(7): noatime for mail/news caveats [FB-tuning]",
}

local MiB = fstune.MiB

local function has_opt(f, name)
	return fstune.contains(f.mount_options, name) or fstune.contains(f.super_options, name)
end

-- The value of option `name=N` in the per-mount or superblock options, or nil.
local function opt_value(f, name)
	for _, list in ipairs({f.mount_options, f.super_options}) do
		if list then
			for _, o in ipairs(list) do
				local v = type(o) == "string" and o:match("^" .. name .. "=(%d+)$")
				if v then return tonumber(v) end
			end
		end
	end
	return nil
end

-- Mail readers (mutt, biff, /var/mail checks) compare atime with mtime to tell new mail.
local function atime_sensitive(w)
	return w and (w.profile == "smallfiles" or w.profile == "mail")
end

-- The kernel never prints strictatime in /proc/mounts: a mount whose per-mount options show neither
-- relatime nor noatime has it (hand-written facts may also say strictatime).
local function is_strictatime(f)
	if fstune.contains(f.mount_options, "strictatime") then return true end
	if f.mount_options == nil or #f.mount_options == 0 then return false end
	return not (fstune.contains(f.mount_options, "relatime") or fstune.contains(f.mount_options, "noatime"))
end

-- The advice for a strictatime mount: {setting, title, the rationale after its shared opening}.
local STRICTATIME_TO_RELATIME = {"mount.option.relatime",
	"strictatime writes an inode for every read; relatime keeps mail readers working",
	". relatime, the kernel default since 2.6.30, updates atime only when it is older than mtime/ctime "
		.. "or a day old, which is what mail readers comparing atime with mtime need. The commands "
		.. "remount with relatime and put it in place of strictatime in the fstab entry; the revert "
		.. "remounts strictatime. noatime is not advised here because of those readers."}
local STRICTATIME_TO_NOATIME = {"mount.option.noatime",
	"strictatime writes an inode for every read: mount noatime (or the default relatime)",
	" and costs a metadata write. relatime, the kernel default since 2.6.30, limits that to once a day "
		.. "per file; noatime removes it. Programs that compare atime with mtime (mail readers on "
		.. "/var/mail) need relatime rather than noatime. The revert restores strictatime."}

local function rec_atime(f, w, out)
	if has_opt(f, "noatime") then return end
	if is_strictatime(f) then
		-- relatime where readers compare atime with mtime, else noatime
		local setting, title, why = table.unpack(atime_sensitive(w) and STRICTATIME_TO_RELATIME
			or STRICTATIME_TO_NOATIME)
		out[#out + 1] = {name = "strictatime", setting = setting, recommended = true,
			severity = "suggest", confidence = 0.6, title = title,
			rationale = "The filesystem is mounted strictatime (the kernel lists neither relatime nor "
				.. "noatime among its options), so every read of a file also dirties its inode" .. why,
			evidence = fstune.present({"fs.mount_options", "workload.profile"})}
		return
	end
	local rs = w and w.read_share
	if type(rs) == "number" and rs >= 0.9 and not fstune.is_assumed("workload.read_share")
		and not atime_sensitive(w) then
		out[#out + 1] = {name = "noatime_read_mostly", setting = "mount.option.noatime", recommended = true,
			severity = "info", confidence = 0.5,
			title = string.format("%.0f%% of the I/O is reads: noatime saves relatime's daily atime writes",
				rs * 100),
			rationale = string.format("The observed workload is %.0f%% reads (a 90%% threshold, a heuristic). "
				.. "With relatime, the default, each file read still rewrites its inode once a day; noatime "
				.. "drops that. The gain is small: relatime already removed most atime writes. Do not use it "
				.. "where programs compare atime with mtime (mail readers).", rs * 100),
			evidence = fstune.present({"workload.read_share", "fs.mount_options", "fs.super_options"})}
	end
end

local function rec_lazytime(f, w, out)
	if w == nil or has_opt(f, "lazytime") then return end
	local big = (fstune.is_integer(w.file_size_p50_bytes) and w.file_size_p50_bytes >= 16 * MiB)
		or (type(w.file_size_mean_bytes) == "number" and w.file_size_mean_bytes >= 16 * MiB)
	if w.access ~= "random" or not big then return end
	if fstune.is_assumed("workload.access") then return end
	out[#out + 1] = {name = "lazytime", setting = "mount.option.lazytime", recommended = true,
		severity = "info", confidence = 0.5,
		title = "random writes into large preallocated files: lazytime keeps mtime updates in memory",
		rationale = "The workload writes randomly into large files (median or mean of 16 MiB or more, a "
			.. "heuristic). Every such write changes mtime, and without lazytime each change is an inode "
			.. "write. mount(8): lazytime 'significantly reduces writes to the inode table for workloads "
			.. "that perform frequent random writes to preallocated files'. Timestamps reach the disk on "
			.. "fsync/syncfs, other inode changes, eviction or after 24 hours, so a crash can lose recent "
			.. "mtime/atime values, not data. fdatasync-only writers gain too: fdatasync skips a "
			.. "timestamp-only change, but the journal still commits each one every few seconds; with "
			.. "lazytime they stay in memory and far fewer timestamp updates are journalled.",
		evidence = fstune.present({"workload.access", "workload.file_size_p50_bytes", "workload.file_size_mean_bytes",
			"fs.mount_options", "fs.super_options"})}
end

local function rec_trim(facts, f, d, out)
	if f.type == "btrfs" then return end -- discard=async is btrfs's own default since 6.2
	local host = facts.host or {}
	local gran = d and d.discard_granularity
	local discard = has_opt(f, "discard")
	if discard and fstune.is_integer(gran) and gran == 0 then
		out[#out + 1] = {name = "discard_unsupported", setting = "mount.option.discard", recommended = false,
			severity = "info", confidence = 0.7,
			title = "mounted with discard, but the device does not support discard",
			rationale = "The device reports discard_granularity 0 (no discard support), so the discard "
				.. "option only costs the filesystem the bookkeeping. Drop it.",
			evidence = fstune.present({"fs.mount_options", "fs.super_options", "device.discard_granularity"})}
		return
	end
	if not fstune.is_integer(gran) or gran == 0 then return end
	local timer = f.fstrim_timer
	local container = host.container == true
	local xfs = f.type == "xfs"
	-- Dropping discard and enabling the timer go together: one severity, so whoever applies one
	-- class of advice is never left with neither.
	local discard_severity = xfs and "suggest" or "info"
	if discard then
		out[#out + 1] = {name = "discard_to_fstrim", setting = "mount.option.discard", recommended = false,
			severity = discard_severity, confidence = 0.6,
			title = "online discard trims on every delete: a weekly fstrim does the same in one batch",
			rationale = string.format("The filesystem is mounted with discard, so each freed extent is "
				.. "trimmed synchronously; on devices without queued TRIM that stalls other I/O. %s "
				.. "util-linux's fstrim.timer trims weekly, 'sufficient for most desktop and server "
				.. "systems'. %s%s.",
				xfs and "The XFS documentation recommends fstrim over the discard option 'because the "
					.. "performance impact of this option is quite severe'." or "ext4 keeps discard off by "
					.. "default.", container and "Inside a container fstrim.timer does not run: make sure "
					.. "the host trims this filesystem (systemctl status fstrim.timer there)"
					or ("Enable the timer" .. (timer == true and " (it is already on)" or "")),
				xfs and ", and mount the filesystem again without discard: XFS ignores it on remount "
					.. "(xfs_fs_reconfigure changes only inode32/inode64 and ro/rw, so mount -o "
					.. "remount,nodiscard succeeds and changes nothing), which is why the commands unmount "
					.. "it first" or " and remount without discard"),
			evidence = fstune.present({"fs.mount_options", "fs.super_options", "device.discard_granularity",
				"fs.fstrim_timer", "fs.type", "host.container"})}
	end
	if container then
		if not discard then
			out[#out + 1] = {name = "fstrim_on_host", severity = "info", confidence = 0.4,
				title = "inside a container: check on the host that this filesystem is trimmed",
				rationale = string.format("The device accepts discard (granularity %d bytes) and the filesystem "
					.. "is not mounted with discard. fstrim.timer is skipped inside containers "
					.. "(ConditionVirtualization=!container), so the trim has to come from the host: run "
					.. "'systemctl status fstrim.timer' there, or 'fstrim -v %s' from the host, which lists what "
					.. "it trimmed. From inside the container only the mount options can be checked.", gran,
					f.mount_point or "MOUNTPOINT"),
				evidence = fstune.present({"host.container", "device.discard_granularity", "fs.mount_options",
					"fs.super_options"})}
		end
		return
	end
	if timer == false then
		out[#out + 1] = {name = "fstrim_timer", setting = "fstrim.timer", recommended = true,
			severity = discard and discard_severity or "suggest", confidence = 0.7,
			title = "the device supports discard but nothing trims it: enable fstrim.timer",
			rationale = string.format("The device accepts discard (granularity %d bytes), the filesystem is "
				.. "%smounted with discard, and fstrim.timer is not enabled. Without trim, an SSD or thin "
				.. "volume does not learn which blocks are free: write amplification grows as it fills, "
				.. "and thin storage is never given back. util-linux ships fstrim.timer, weekly, 'sufficient "
				.. "for most desktop and server systems'.", gran, discard and "" or "not "),
			evidence = fstune.present({"device.discard_granularity", "fs.fstrim_timer", "fs.mount_options",
				"fs.super_options"})}
	elseif timer == nil and not discard then
		out[#out + 1] = {name = "fstrim_unknown", severity = "info", confidence = 0.4,
			title = "the device supports discard; check that something runs fstrim",
			rationale = string.format("The device accepts discard (granularity %d bytes) and the filesystem "
				.. "is not mounted with discard. Whether fstrim.timer runs could not be found out. Run "
				.. "'systemctl status fstrim.timer' (or schedule 'fstrim -av' weekly).", gran),
			evidence = fstune.present({"device.discard_granularity", "fs.mount_options", "fs.super_options"})}
	end
end

local function rec_commit(f, w, out)
	if f.type ~= "ext4" and f.type ~= "ext3" then return end
	local commit = opt_value(f, "commit")
	if commit and commit > 5 then
		out[#out + 1] = {name = "commit_window", severity = "info", confidence = 0.8,
			title = string.format("commit=%d: a crash can lose up to %d s of metadata changes", commit, commit),
			rationale = string.format("The journal commits every %d s instead of the default 5 s. ext4's "
				.. "documentation: the default means 'you will lose as much as the latest 5 seconds' of "
				.. "changes; here it is %d s, and with delayed allocation data written in that window may "
				.. "be lost too. Applications that fsync are unaffected (fsync forces a commit). Keep it if "
				.. "that window is acceptable.", commit, commit),
			evidence = fstune.present({"fs.mount_options", "fs.super_options"})}
		return
	end
	if commit ~= nil or w == nil then return end
	local throughput = w.access == "sequential" and w.sync_heavy ~= true
		and fstune.is_integer(w.io_size_bytes) and w.io_size_bytes >= MiB
	if not throughput then return end
	out[#out + 1] = {name = "commit_throughput", setting = "mount.option.commit", recommended = 30,
		severity = "info", confidence = 0.4,
		title = "a streaming workload could commit the journal every 30 s instead of 5 s",
		rationale = "The workload is sequential, in requests of 1 MiB or more, without fsync on the critical "
			.. "path. A longer commit interval batches metadata updates into fewer journal writes. The cost "
			.. "is the loss window: after a crash up to 30 s of metadata changes (and delayed-allocation "
			.. "data) can be lost instead of 5 s. Programs that fsync still get their data on disk at "
			.. "once, since fsync forces a commit. The value is a heuristic, not a measurement.",
		evidence = fstune.present({"workload.access", "workload.io_size_bytes", "workload.sync_heavy",
			"fs.mount_options", "fs.super_options"})}
end

local function check(facts)
	local out = {}
	local f = facts.fs
	if f == nil or f.mount_options == nil then return out end
	if fstune.is_freebsd() then return out end
	local w = facts.workload
	rec_atime(f, w, out)
	rec_lazytime(f, w, out)
	rec_trim(facts, f, facts.device, out)
	rec_commit(f, w, out)
	return out
end

local function fs(opts, extra)
	return fstune.merge({type = "ext4", mount_point = "/srv", mount_options = opts}, extra)
end

return fstune.rule {
	id = "mount",
	title = "Mount options: atime, lazytime, discard versus periodic fstrim, journal commit interval",
	description = [[
- strictatime (the kernel never prints it: a mount listing neither relatime nor noatime has it):
  suggest noatime, whose revert restores strictatime (relatime, the default since 2.6.30, for mail
  spools whose readers compare atime with mtime: mount.option.relatime, whose revert restores
  strictatime). relatime is never flagged. A revert to relatime
  remounts with atime,relatime: libmount keeps noatime from the current options otherwise.
- relatime and an observed read share of 90% or more (a heuristic): noatime, as info.
- random writes into large preallocated files (median or mean >= 16 MiB, a heuristic): lazytime,
  as info, with the timestamps a crash can lose.
- a device that accepts discard (discard_granularity > 0) with neither the discard option nor an
  enabled fstrim.timer: suggest the weekly timer; the discard option on XFS (suggest) or ext4 (info):
  trim in batches instead, the timer advice beside it at the same severity; on XFS that change is
  offline (unmount and mount: XFS ignores discard on remount; for /, rootflags= and a reboot);
  discard on a device without discard support: drop it. btrfs (async
  discard by default since 6.2) is skipped. In a container, where fstrim.timer does not run, the
  discard advice stays and the timer advice becomes what to check on the host (info).
- ext4 commit= above 5 s: the loss window, as info; for sequential, large-request workloads
  without fsync, commit=30 as info with that window stated (fsync forces commits anyway).]],
	sources = SOURCES,
	-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
	rec_sources = {
		strictatime = {1, 6},
		noatime_read_mostly = {1},
		lazytime = {1},
		discard_unsupported = {2, 3},
		discard_to_fstrim = {3, 2, 4},
		fstrim_timer = {4},
		fstrim_unknown = {4},
		fstrim_on_host = {4},
		commit_window = {2},
		commit_throughput = {2},
	},
	settings = {"mount.option.noatime", "mount.option.relatime", "mount.option.lazytime", "mount.option.discard",
		"fstrim.timer", "mount.option.commit"},
	needs = {"fs.mount_options"},
	uses = {"fs.type", "fs.super_options", "fs.fstrim_timer", "device.discard_granularity",
		"host.container", "host.target_os", "workload.profile", "workload.read_share", "workload.access",
		"workload.io_size_bytes", "workload.sync_heavy", "workload.file_size_p50_bytes",
		"workload.file_size_mean_bytes"},
	check = check,
	tests = {
		{name = "healthy: relatime, SSD with fstrim.timer on",
			facts = {fs = fs({"rw", "relatime"}, {fstrim_timer = true}), device = {discard_granularity = 512}},
			expect = {}},
		{name = "relatime on an HDD without discard: nothing, never a warning",
			facts = {fs = fs({"rw", "relatime"}), device = {discard_granularity = 0}}, expect = {}},
		{name = "strictatime",
			facts = {fs = fs({"rw", "strictatime"}, {fstrim_timer = true}), device = {discard_granularity = 0}},
			expect = {{name = "strictatime", severity = "suggest", setting = "mount.option.noatime"}}},
		{name = "strictatime on a mail spool: relatime, no noatime; the revert restores strictatime",
			facts = {fs = fs({"rw", "nosuid"}), workload = {profile = "smallfiles"}},
			expect = {{name = "strictatime", severity = "suggest", setting = "mount.option.relatime",
				recommended = true, apply = {"mount -o remount,atime,relatime /srv"},
				revert = {"mount -o remount,strictatime /srv"}}}},
		{name = "discard held in the superblock's options: evidence names them",
			facts = {fs = fs({"rw", "relatime"}, {mount_point = "/", fstrim_timer = true,
				super_options = {"rw", "discard"}}), device = {discard_granularity = 512}},
			expect = {{name = "discard_to_fstrim", severity = "info", recommended = false,
				evidence = {"fs.mount_options", "fs.super_options", "device.discard_granularity",
					"fs.fstrim_timer", "fs.type"}}}},
		{name = "observed read-mostly: the revert clears noatime before relatime (libmount keeps it)",
			facts = {fs = fs({"rw", "relatime"}), workload = {read_share = 0.97},
				sources = {["workload.read_share"] = "observe"}},
			expect = {{name = "noatime_read_mostly", severity = "info", apply = {"mount -o remount,noatime /srv"},
				revert = {"mount -o remount,atime,relatime /srv"}}}},
		{name = "read share from a preset: nothing",
			facts = {fs = fs({"rw", "relatime"}), workload = {read_share = 0.97},
				sources = {["workload.read_share"] = "preset"}},
			expect = {}},
		{name = "VM images written randomly: lazytime",
			facts = {fs = fs({"rw", "relatime"}), workload = {access = "random",
				file_size_p50_bytes = 40 * 1024 * MiB}},
			expect = {"lazytime"}},
		{name = "NVMe, no discard, timer off",
			facts = {fs = fs({"rw", "relatime"}, {fstrim_timer = false}), device = {discard_granularity = 512}},
			expect = {{name = "fstrim_timer", severity = "suggest", recommended = true}}},
		{name = "XFS mounted discard, timer off: both at suggest; unmount and mount, XFS ignores it on remount",
			facts = {fs = fs({"rw", "relatime"}, {type = "xfs", fstrim_timer = false,
				super_options = {"rw", "discard", "inode64", "noquota"}}),
				device = {path = "/dev/sdb1", discard_granularity = 4096}},
			expect = {{name = "discard_to_fstrim", severity = "suggest", disruption = "offline",
				apply = {"umount /srv", "mount -t xfs -o rw,relatime,inode64,noquota,nodiscard /dev/sdb1 /srv"},
				revert = {"umount /srv", "mount -t xfs -o rw,relatime,discard,inode64,noquota /dev/sdb1 /srv"}},
				{name = "fstrim_timer", severity = "suggest"}}},
		{name = "XFS root mounted discard: rootflags and fstab, then a reboot",
			facts = {fs = fs({"rw", "relatime"}, {type = "xfs", mount_point = "/", fstrim_timer = true,
				super_options = {"rw", "discard"}}), device = {discard_granularity = 4096}},
			expect = {{name = "discard_to_fstrim", disruption = "reboot", apply = {}, revert = {}}}},
		{name = "ext4 mounted discard, timer on",
			facts = {fs = fs({"rw", "relatime", "discard"}, {fstrim_timer = true}), device = {discard_granularity = 512}},
			expect = {{name = "discard_to_fstrim", severity = "info"}}},
		{name = "discard on a disk without discard",
			facts = {fs = fs({"rw", "relatime", "discard"}), device = {discard_granularity = 0}},
			expect = {"discard_unsupported"}},
		{name = "btrfs: own async discard, skipped",
			facts = {fs = fs({"rw", "relatime"}, {type = "btrfs", fstrim_timer = false}),
				device = {discard_granularity = 512}},
			expect = {}},
		{name = "container: fstrim.timer does not run there, the host's trim is what to check",
			facts = {host = {container = true}, fs = fs({"rw", "relatime"}, {fstrim_timer = false}),
				device = {discard_granularity = 512}},
			expect = {{name = "fstrim_on_host", severity = "info"}}},
		{name = "container mounted discard: the discard advice stays",
			facts = {host = {container = true}, fs = fs({"rw", "relatime", "discard"}, {type = "xfs"}),
				device = {discard_granularity = 512}},
			expect = {{name = "discard_to_fstrim", severity = "suggest"}}},
		{name = "container on a disk without discard: nothing",
			facts = {host = {container = true}, fs = fs({"rw", "relatime"}), device = {discard_granularity = 0}},
			expect = {}},
		{name = "strictatime as the kernel shows it: neither relatime nor noatime",
			facts = {fs = fs({"rw", "nosuid"}, {fstrim_timer = true}), device = {discard_granularity = 0}},
			expect = {{name = "strictatime", severity = "suggest", setting = "mount.option.noatime",
				recommended = true, disruption = "remount"}}},
		{name = "noatime shown: not strictatime",
			facts = {fs = fs({"rw", "noatime"}), device = {discard_granularity = 0}},
			expect = {}},
		{name = "timer state unknown",
			facts = {fs = fs({"rw", "relatime"}), device = {discard_granularity = 512}},
			expect = {{name = "fstrim_unknown", severity = "info"}}},
		{name = "commit=60 stated",
			facts = {fs = fs({"rw", "relatime", "commit=60"}), device = {discard_granularity = 0}},
			expect = {{name = "commit_window", severity = "info"}}},
		{name = "streaming backups: commit=30 as info",
			facts = {fs = fs({"rw", "relatime"}), device = {discard_granularity = 0},
				workload = {access = "sequential", io_size_bytes = MiB, sync_heavy = false}},
			expect = {{name = "commit_throughput", severity = "info", recommended = 30}}},
		{name = "database with fsync: no commit advice",
			facts = {fs = fs({"rw", "relatime"}), device = {discard_granularity = 0},
				workload = {access = "random", io_size_bytes = 8192, sync_heavy = true}},
			expect = {}},
		{name = "not mounted", facts = {fs = {type = "ext4"}}, expect = "not_evaluated"},
	},
}
