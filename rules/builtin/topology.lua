-- RAID geometry and alignment: stride/stripe width (ext4) and su/sw (XFS) from the device's I/O
-- topology or md facts, an existing filesystem's stripe against the device's, partition alignment,
-- and topology values that cannot be trusted (USB bridges, virtual disks).

local SOURCES = {
	"e2fsprogs misc/mke2fs.c: stride = min_io/blocksize when min_io > blocksize, stripe_width = "
		.. "opt_io/blocksize when opt_io > blocksize; warns on alignment_offset [E2-mke2fs-c]",
	"mke2fs(8) -E stride=, stripe_width= [E2-mke2fs8]",
	"T. Ts'o, \"mke2fs: don't set the raid stripe for non-rotational devices by default\", "
		.. "linux-ext4 2025-05-05, <20250505172732.570955-1-tytso@mit.edu> (set_raid_stripe = disk)",
	"xfsprogs libfrog/topology.c: sunit/swidth from libblkid, ignored when equal to the physical "
		.. "sector; alignment_offset refused without -f [XFS-topo]",
	"mkfs.xfs(8) -d su=, sw=, noalign [XFS-mkfs]",
	"Documentation/ABI/stable/sysfs-block: minimum_io_size, optimal_io_size, alignment_offset "
		.. "[L-sysfs-block]",
	"util-linux issue #1221 and PR #1224 \"libfdisk: ignore 33553920 byte optimal I/O size\" "
		.. "(0xffff 512-byte sectors from USB-SATA adapters), https://github.com/util-linux/util-linux/pull/1224",
	"mke2fs.c: 'specified blocksize %d is less than device physical sectorsize %d' [E2-mke2fs-c]",
	"seed: 2000-lkml-ext2-1k-vs-4k-database (C-ISAM rebuild 2:54.14 with 1 KiB blocks, 3:54.87 with 4 KiB)",
	"libvirt via SUSE/sesdev#37: Linux guests assume rotational storage [VIRT-ROT]; chef/ohai#903: "
		.. "loop devices report rotational=1 [OHAI]",
	"tune2fs(8) -E stride=, stripe_width=; Linux fs/ext4 ext4_get_stripe_size() (read at mount, stripe "
		.. "width before stride) and EXT4_IOC_SET_TUNE_SB_PARAM (both fields on a mounted filesystem); "
		.. "measured here on 6.18 with e2fsprogs 1.47.0: tune2fs -E on the mounted filesystem, no stripe "
		.. "after a remount, stripe=64 after the next mount",
	"Linux fs/xfs/xfs_mount.c xfs_validate_new_dalign(): 'cannot change alignment: superblock does not "
		.. "support data alignment' when sunit/swidth are given for a filesystem made without them; "
		.. "xfs(5) sunit/swidth mount options",
}

local MiB = fstune.MiB

local fmt = fstune.fmt_bytes

-- Transports whose `rotational` flag says nothing about the medium: the guest or the loop driver
-- sets it, not a spindle [VIRT-ROT], [OHAI].
local VIRTUAL = {virtio = true, xen = true, loop = true, zram = true, unknown = true}

local is_ext = fstune.is_ext

-- Reasons not to trust optimal_io_size / minimum_io_size; an empty list when they look sane.
local function io_doubts(d)
	local out = {}
	local lbs = fstune.positive(d.logical_block_size) or 512
	local pbs = fstune.positive(d.physical_block_size) or lbs
	local min, opt = d.minimum_io_size, d.optimal_io_size
	if fstune.is_integer(min) and min > 0 and min % pbs ~= 0 then
		out[#out + 1] = string.format("minimum_io_size %d is not a multiple of the physical sector (%d)",
			min, pbs)
	end
	if fstune.is_integer(opt) and opt > 0 then
		local bridge = opt // lbs == 65535 and opt % lbs == 0
		if bridge then
			out[#out + 1] = string.format("optimal_io_size %d is 65535 sectors of %d bytes (32 MiB - %d): a "
				.. "16-bit field at its maximum, %s, not a stripe", opt, lbs, lbs, d.transport == "usb"
				and "the transfer limit a USB-SATA bridge reports there"
				or "as USB-SATA bridges report their transfer limit (and some NVMe namespaces their "
				.. "optimal write size)")
		end
		if opt % pbs ~= 0 then
			out[#out + 1] = string.format("optimal_io_size %d is not a multiple of the physical sector (%d)",
				opt, pbs)
		end
		if fstune.is_integer(min) and min > 0 and opt % min ~= 0 then
			out[#out + 1] = string.format("optimal_io_size %d is not a multiple of minimum_io_size %d", opt, min)
		end
		if not bridge and opt > 16 * MiB and d.transport ~= "md" and d.transport ~= "dm" then
			out[#out + 1] = string.format("optimal_io_size %s on a single %s device is larger than any "
				.. "stripe this rule believes (16 MiB, a heuristic)", fmt(opt), d.transport or "unknown")
		end
	end
	return out
end

-- The RAID geometry {chunk, width, data_disks, from, hidden}, or nil when the device shows none.
-- md facts win (they are what the array was created with); the queue's topology is used when it
-- describes a stripe (minimum_io_size above the physical sector, optimal a multiple of it).
local function geometry(d)
	local pbs = fstune.positive(d.physical_block_size) or fstune.positive(d.logical_block_size) or 512
	local min, opt = fstune.positive(d.minimum_io_size) or 0, fstune.positive(d.optimal_io_size) or 0
	local shows = min > pbs and opt > min and opt % min == 0 and #io_doubts(d) == 0
	local chunk, disks = d.md_chunk_bytes, d.md_data_disks
	if fstune.is_integer(chunk) and chunk > 0 and fstune.is_integer(disks) and disks > 1 then
		return {chunk = chunk, width = chunk * disks, data_disks = disks, from = "md",
			hidden = not shows or min ~= chunk or opt ~= chunk * disks}
	end
	if shows then
		return {chunk = min, width = opt, data_disks = opt // min, from = "topology", hidden = false}
	end
	return nil
end

-- Whether writes smaller than a stripe cost a read-modify-write (parity RAID), when known.
local function parity(d)
	local lvl = d.md_level
	if lvl == nil then return nil end
	return lvl == "raid4" or lvl == "raid5" or lvl == "raid6"
end

local function rotational_evidence(d)
	if d.transport == nil or VIRTUAL[d.transport] then return nil end
	return d.rotational
end

local function rec_new_fs(d, g, out)
	local bs = 4096
	local why = string.format("The %s geometry is a %s chunk across %d data disks (stripe %s)",
		g.from == "md" and "array's" or "device's", fmt(g.chunk), g.data_disks, fmt(g.width))
	local hidden = string.format("%s, but the block queue does not show it (minimum_io_size %d, "
		.. "optimal_io_size %d), so neither mke2fs nor mkfs.xfs will find it through libblkid. "
		.. "Give it explicitly.", why, d.minimum_io_size or 0, d.optimal_io_size or 0)
	local ev = {"device.md_chunk_bytes", "device.md_data_disks", "device.minimum_io_size",
		"device.optimal_io_size"}
	out[#out + 1] = {name = "ext4_stride", setting = "mkfs.stride", fs = "ext4",
		recommended = g.chunk // bs, severity = "suggest", confidence = 0.7,
		title = string.format("make ext4 with stride=%d (the %s chunk in 4 KiB blocks)", g.chunk // bs,
			fmt(g.chunk)),
		rationale = hidden .. " stride spreads block and inode bitmaps across the member disks.",
		evidence = ev}
	out[#out + 1] = {name = "ext4_stripe_width", setting = "mkfs.stripe_width", fs = "ext4",
		recommended = g.width // bs, severity = "suggest", confidence = 0.7,
		title = string.format("make ext4 with stripe_width=%d (%s)", g.width // bs, fmt(g.width)),
		rationale = hidden .. " stripe_width lets the allocator write whole stripes, which avoids "
			.. "read-modify-write on RAID 5/6.",
		evidence = ev}
	out[#out + 1] = {name = "xfs_su", setting = "mkfs.xfs_su", fs = "xfs",
		recommended = g.chunk, severity = "suggest", confidence = 0.7,
		title = string.format("make XFS with -d su=%d (%s)", g.chunk, fmt(g.chunk)),
		rationale = hidden, evidence = ev}
	out[#out + 1] = {name = "xfs_sw", setting = "mkfs.xfs_sw", fs = "xfs",
		recommended = g.data_disks, severity = "suggest", confidence = 0.7,
		title = string.format("make XFS with -d sw=%d (data disks)", g.data_disks),
		rationale = hidden, evidence = ev}
end

-- How to set the stripe on this filesystem, in words: tune2fs on ext, a mount on an XFS made with
-- a stripe, a new mkfs.xfs on one made without.
local function stripe_fix(g, bs, su, sw, ext)
	if ext then
		-- The engine builds the commands (tune2fs -E) from the setting; the text says when they bite.
		return string.format("stripe width %d and stride %d filesystem blocks, which tune2fs writes while "
			.. "the filesystem is mounted (the commands below); the allocator reads them at the next "
			.. "mount, not at a remount", g.width // bs, g.chunk // bs)
	elseif (su or 0) == 0 and (sw or 0) == 0 then
		-- The kernel changes sunit/swidth at mount only on a superblock that already has data
		-- alignment ("cannot change alignment: superblock does not support data alignment"); in
		-- fstab that is a failed boot. Only a new filesystem carries a stripe.
		return string.format("make the filesystem again with mkfs.xfs -d su=%d,sw=%d (the command below; it "
			.. "erases the filesystem, so copy the data off and back). A mount option cannot do it: XFS "
			.. "changes sunit/swidth at mount only on a filesystem made with a stripe, and refuses to mount "
			.. "this one with them ('cannot change alignment: superblock does not support data alignment'), "
			.. "which in /etc/fstab is a failed boot", g.chunk, g.data_disks)
	else
		return string.format("unmount, then mount (not remount) with -o sunit=%d,swidth=%d (512-byte units), "
			.. "and put the same options in /etc/fstab; XFS accepts new values only on a filesystem made with "
			.. "a stripe, as this one was. Or make the filesystem again with -d su=%d,sw=%d",
			g.chunk // 512, g.width // 512, g.chunk, g.data_disks)
	end
end

-- ext: one recommendation per superblock field. The named one carries the stripe width when that is
-- wrong (the allocator aligns to it), else the stride; a wrong stride beside a wrong width comes as
-- fs_stride. XFS has no setting here: advice. `st` is the stripe state of rec_existing_fs.
local function setting_of(st, r, which)
	local g = st.g
	if not st.ext then
		if (st.su or 0) == 0 and (st.sw or 0) == 0 then
			r.setting, r.recommended, r.fs = "mkfs.xfs_su", g.chunk, "xfs"
		end
		return r
	end
	if which == "width" then
		r.setting, r.recommended = "fs.stripe_width", g.width // st.bs
	else
		r.setting, r.recommended = "fs.stride", g.chunk // st.bs
	end
	return r
end

-- The second half of the recommendation `main`: sw beside the su of a new XFS, or the ext stride
-- beside a wrong stripe width when both are wrong.
local function stride_too(st, main, out)
	local g, ev, bs = st.g, st.ev, st.bs
	if not st.ext and main.setting == "mkfs.xfs_su" then
		out[#out + 1] = {name = "xfs_sw_missing", setting = "mkfs.xfs_sw", recommended = g.data_disks,
			fs = "xfs", severity = main.severity, confidence = main.confidence,
			title = string.format("make XFS with -d sw=%d (data disks) with su=%d", g.data_disks, g.chunk),
			rationale = string.format("The other half of %s: the stripe width in stripe units, one per data "
				.. "disk of the %s. It goes into the same mkfs.xfs -d option.", main.name,
				g.from == "md" and "array" or "device topology"),
			evidence = ev}
		return
	end
	if not (st.ext and st.width_wrong and st.stride_wrong) then return end
	out[#out + 1] = setting_of(st, {name = "fs_stride", severity = main.severity, confidence = main.confidence,
		title = string.format("set the filesystem's RAID stride to %d blocks (the %s chunk) with its stripe "
			.. "width", g.chunk // bs, fmt(g.chunk)),
		rationale = string.format("The filesystem's stride is %d bytes; the %s chunk is %d bytes. The "
			.. "allocator aligns to the stripe width (%s, see %s); the stride is what it falls back to "
			.. "without one, and what resize2fs places new block groups' bitmaps by. Like the stripe "
			.. "width, tune2fs sets it on the mounted filesystem and the next mount reads it.", st.su or 0,
			g.from == "md" and "array's" or "device's", g.chunk, fmt(g.width), main.name),
		evidence = ev}, "stride")
end

local function rec_existing_fs(facts, d, g, out)
	local f = facts.fs
	local bs = fstune.positive(f.block_size) or 4096
	local su, sw = f.stripe_unit_bytes, f.stripe_width_bytes
	if su == nil and sw == nil then return end
	if (su ~= nil and not fstune.is_integer(su)) or (sw ~= nil and not fstune.is_integer(sw))
		or (su or 0) < 0 or (sw or 0) < 0 then
		return
	end
	local par = parity(d)
	local rot = rotational_evidence(d)
	-- Stripe-aligned allocation pays off on parity RAID of disks; on flash the ext4 allocator's
	-- extra work is not worth it (mke2fs stopped setting the stripe there by default).
	local sev = (par ~= false and rot ~= false) and "suggest" or "info"
	local ext = is_ext(f.type)
	local fix = stripe_fix(g, bs, su, sw, ext)
	local ev = {"fs.stripe_unit_bytes", "fs.stripe_width_bytes", "device.minimum_io_size",
		"device.optimal_io_size", "device.md_chunk_bytes", "device.md_data_disks", "device.md_level"}
	if ext then ev[#ev + 1] = "fs.block_size" end
	local st = {g = g, bs = bs, su = su, sw = sw, ext = ext, ev = ev,
		width_wrong = (sw or 0) ~= g.width, stride_wrong = (su or 0) ~= g.chunk}
	if (sw or 0) == 0 then
		out[#out + 1] = setting_of(st, {name = "fs_stripe_missing", severity = sev, confidence = 0.6,
			title = string.format("the %s filesystem has no stripe geometry; the device has a %s stripe",
				f.type, fmt(g.width)),
			rationale = string.format("The filesystem records stripe unit %d and stripe width %d, but the %s "
				.. "is a %s chunk across %d data disks (%s). Without the hint the allocator does not "
				.. "align large writes to stripes%s. Fix: %s.", su or 0, sw or 0,
				g.from == "md" and "md array" or "device topology", fmt(g.chunk), g.data_disks, fmt(g.width),
				par and ", and every partial-stripe write on " .. d.md_level .. " is a read-modify-write" or "",
				fix),
			evidence = ev}, "width")
		stride_too(st, out[#out], out)
	elseif sw ~= g.width or (su ~= nil and su ~= 0 and su ~= g.chunk) then
		out[#out + 1] = setting_of(st, {name = "fs_stripe_mismatch", severity = sev, confidence = 0.6,
			title = string.format("filesystem stripe %s/%s differs from the device's %s/%s",
				fmt(su or 0), fmt(sw), fmt(g.chunk), fmt(g.width)),
			rationale = string.format("The filesystem was made for stripe unit %d and width %d bytes; the %s "
				.. "now says chunk %d and stripe %d bytes (%d data disks), e.g. after the array was "
				.. "reshaped or the filesystem copied from another one. Allocations aligned to the wrong "
				.. "stripe still straddle stripes. Fix: %s.", su or 0, sw,
				g.from == "md" and "md array" or "device topology", g.chunk, g.width, g.data_disks, fix),
			evidence = ev}, st.width_wrong and "width" or "stride")
		stride_too(st, out[#out], out)
	end
end

local function rec_untrusted(facts, d, doubts, out)
	local f = facts.fs
	local opt = d.optimal_io_size
	local lines = table.concat(doubts, "; ")
	local consequence
	if f and f.type then
		consequence = "the next mkfs or partitioning tool would take geometry from it through libblkid"
	else
		consequence = "mke2fs would set stripe_width = optimal_io_size / block size from it and the "
			.. "partitioning tools would align to it; make the filesystem with mkfs.xfs -d noalign, or "
			.. "check mke2fs's result with dumpe2fs -h"
	end
	out[#out + 1] = {name = "untrusted_optimal_io", severity = "warn", confidence = 0.8,
		title = string.format("the device's optimal I/O size (%s) cannot be trusted", fmt(opt)),
		rationale = string.format("%s. util-linux's fdisk ignores exactly this value for the same reason. "
			.. "Treat the device as having no stripe: %s. The kernel also sizes read-ahead as twice "
			.. "optimal_io_size (see the readahead rules).", lines, consequence),
		evidence = {"device.optimal_io_size", "device.minimum_io_size", "device.physical_block_size",
			"device.logical_block_size", "device.transport"}}
	if f and fstune.positive(f.stripe_width_bytes) and fstune.positive(f.block_size) then
		local derived = (opt // f.block_size) * f.block_size
		if f.stripe_width_bytes == derived or f.stripe_width_bytes >= 16 * MiB then
			local ext = is_ext(f.type)
			local cmd = ext and "set the stripe width to 0 with tune2fs, which works on the mounted "
				.. "filesystem; the allocator stops aligning to it at the next mount (dumpe2fs -h then shows "
				.. "no 'RAID stripe width')" or "mount with -o swidth equal to sunit, or "
				.. "make the filesystem again with -d noalign"
			out[#out + 1] = {name = "fs_stripe_from_bogus_topology", severity = "suggest", confidence = 0.7,
				setting = ext and "fs.stripe_width" or nil, recommended = ext and 0 or nil,
				title = string.format("the filesystem's stripe width (%s) was taken from the bogus optimal "
					.. "I/O size", fmt(f.stripe_width_bytes)),
				rationale = string.format("The %s filesystem records a stripe width of %d bytes, which is "
					.. "optimal_io_size %d rounded to %d-byte blocks: mkfs copied the bridge's transfer limit. "
					.. "A single disk has no stripe, and a %s stripe only makes the allocator search for "
					.. "alignment that buys nothing. Clear it: %s.", f.type, f.stripe_width_bytes, opt,
					f.block_size, fmt(f.stripe_width_bytes), cmd),
				evidence = {"fs.stripe_width_bytes", "device.optimal_io_size", "fs.block_size"}}
		end
	end
end

local function rec_alignment(d, g, out)
	local pbs = fstune.positive(d.physical_block_size) or 512
	local start = d.partition_start_bytes
	local off = d.alignment_offset
	if fstune.is_integer(off) and off ~= 0 then
		out[#out + 1] = {name = "partition_misaligned", severity = "warn", confidence = 0.8,
			title = string.format("%s starts %d bytes off the device's natural alignment",
				d.name or "the partition", off),
			rationale = string.format("The kernel reports alignment_offset = %d for this device: every "
				.. "%s physical sector is split across two, so each write of one block is a "
				.. "read-modify-write inside the drive. mke2fs warns about this and mkfs.xfs refuses without "
				.. "-f. Repartition so the start is a multiple of 1 MiB (what fdisk and parted use by "
				.. "default), then copy the data back.", off, fmt(pbs)),
			evidence = {"device.alignment_offset", "device.partition_start_bytes", "device.physical_block_size"}}
		return
	end
	if fstune.is_integer(start) and start > 0 then
		if start % pbs ~= 0 then
			out[#out + 1] = {name = "partition_misaligned", severity = "warn", confidence = 0.8,
				title = string.format("%s starts at byte %d, not on a %d-byte physical sector",
					d.name or "the partition", start, pbs),
				rationale = string.format("The partition begins %d bytes into a physical sector (start %d, "
					.. "physical sector %d bytes; the 63-sector DOS start is the classic case). Every "
					.. "filesystem block then straddles two physical sectors and each write is a "
					.. "read-modify-write inside the drive. Repartition with the start on a 1 MiB "
					.. "boundary and restore the data.", start % pbs, start, pbs),
				evidence = {"device.partition_start_bytes", "device.physical_block_size"}}
		elseif g and start % g.chunk ~= 0 then
			out[#out + 1] = {name = "partition_off_stripe", severity = "suggest", confidence = 0.6,
				title = string.format("%s does not start on a %s chunk boundary", d.name or "the partition",
					fmt(g.chunk)),
				rationale = string.format("The partition starts at byte %d, which is sector-aligned but not a "
					.. "multiple of the RAID chunk (%d bytes), so stripe-aligned allocation inside the "
					.. "filesystem is misaligned on the array by %d bytes. Start partitions on a multiple "
					.. "of the full stripe (%d bytes) or of 1 MiB when that is a multiple of it.", start,
					g.chunk, start % g.chunk, g.width),
				evidence = {"device.partition_start_bytes", "device.minimum_io_size", "device.optimal_io_size",
					"device.md_chunk_bytes"}}
		end
	end
end

-- A filesystem block below the physical sector: every block write is a read-modify-write inside
-- the drive. The 2000 thread's 1 KiB win came from 512-byte-sector disks and a block-granular cache.
local function rec_block_size(facts, d, out)
	local f = facts.fs
	local pbs = d.physical_block_size
	if f == nil or not fstune.positive(f.block_size) or not fstune.positive(pbs) or f.block_size >= pbs then
		return
	end
	if not (is_ext(f.type) or f.type == "xfs") then return end
	out[#out + 1] = {name = "block_below_sector", setting = "mkfs.block_size", recommended = math.max(4096, pbs),
		current = f.block_size, fs = f.type, severity = "suggest", confidence = 0.7,
		title = string.format("%d-byte filesystem blocks on a disk with %d-byte physical sectors",
			f.block_size, pbs),
		rationale = string.format("Each %d-byte block write covers part of a %d-byte physical sector, which "
			.. "the drive must read, modify and write back; mke2fs warns 'specified blocksize %d is less "
			.. "than device physical sectorsize %d'. A 2000 report on Linux 2.2 found 1 KiB blocks faster "
			.. "for rebuilding a C-ISAM index (Elapsed 2:54.14 against 3:54.87 with 4 KiB, Major page faults "
			.. "43861 against 41944), but on a 2.2 kernel with 128 MB of RAM, a block-granular buffer "
			.. "cache and 512-byte sectors; measured here in 2026, umount after untarring a kernel tree "
			.. "takes 2.6-3.3x longer with 1 KiB blocks than 4 KiB. Make the filesystem again with %d-byte "
			.. "blocks when it is next rebuilt, and measure small against large I/O (fstune bench --full) "
			.. "rather than trust either number.", f.block_size, pbs, f.block_size, pbs, math.max(4096, pbs)),
		evidence = {"fs.block_size", "device.physical_block_size", "device.logical_block_size", "fs.type"}}
end

local function check_all(facts)
	local out = {}
	local d = facts.device
	if d == nil then return out end
	local f = facts.fs

	local doubts = io_doubts(d)
	if #doubts > 0 then
		rec_untrusted(facts, d, doubts, out)
	end

	local g = geometry(d)
	if g and g.chunk % 4096 == 0 then
		if fstune.is_blank() then
			if g.hidden then rec_new_fs(d, g, out) end
		elseif is_ext(f.type) or f.type == "xfs" then
			rec_existing_fs(facts, d, g, out)
		end
	end

	rec_alignment(d, #doubts == 0 and g or nil, out)
	rec_block_size(facts, d, out)

	if d.rotational == true and (d.transport == "virtio" or d.transport == "xen" or d.transport == "loop") then
		local claim = fstune.get("bench.rotational_claim.reason")
		out[#out + 1] = {name = "rotational_not_evidence", severity = "info", confidence = 0.9,
			title = string.format("%s reports rotational=1, which says nothing about the storage behind it",
				d.transport == "loop" and "the loop device" or "the virtual disk"),
			rationale = string.format("The %s driver sets the rotational flag itself: %s fstune classifies "
				.. "this device by its transport (%s)%s, not as a hard disk; a measurement (fstune bench) tells "
				.. "what it really is.", d.transport,
				d.transport == "loop" and "a loop device reports 1 whatever its backing file lives on."
					or "a virtual machine's disk reports 1 unless the host declares the storage "
					.. "non-rotational, which virtualization software rarely does by default.",
				d.transport, d.transport ~= "loop" and facts.host and facts.host.virtualization
				and (" in a " .. facts.host.virtualization .. " virtual machine") or "")
				.. (claim and (" The measurement says so too: " .. claim .. ".") or ""),
			evidence = {"device.rotational", "device.transport", "host.virtualization",
				"bench.rotational_claim.reason"}}
	end
	return out
end

local function check_inner(facts)
	local out = check_all(facts)
	for _, r in ipairs(out) do r.evidence = fstune.present(r.evidence or {}) end
	return out
end


-- Each recommendation cites the sources it rests on (indices into SOURCES), not the whole list.
local REC_SOURCES = {
	ext4_stride = {1, 2, 6},
	ext4_stripe_width = {1, 2, 6},
	xfs_su = {4, 5, 6},
	xfs_sw = {4, 5, 6},
	fs_stripe_missing = {1, 2, 3, 4, 5, 6, 12},
	fs_stripe_mismatch = {1, 2, 4, 5, 6, 12},
	fs_stride = {1, 2, 11},
	xfs_sw_missing = {4, 5, 12},
	untrusted_optimal_io = {7, 6, 1, 4},
	fs_stripe_from_bogus_topology = {7, 1, 2},
	partition_misaligned = {6, 1, 4},
	partition_off_stripe = {6, 2, 5},
	block_below_sector = {8, 9, 6},
	rotational_not_evidence = {10, 6},
}

local function check(facts)
	local out = fstune.attach_sources(check_inner(facts), SOURCES, REC_SOURCES)
	for _, r in ipairs(out) do
		-- tune2fs on an existing ext filesystem: where its behaviour when mounted comes from.
		if r.sources and (r.setting == "fs.stripe_width" or r.setting == "fs.stride") and r.name ~= "fs_stride" then
			r.sources[#r.sources + 1] = SOURCES[11]
		end
	end
	return out
end

-- The md raid6 of the stripe vectors: 6 data disks, 512 KiB chunks, the geometry in its queue.
local function md0_raid6(extra)
	return fstune.merge({path = "/dev/md0", name = "md0", transport = "md", rotational = true,
		logical_block_size = 512, physical_block_size = 4096, minimum_io_size = 524288,
		optimal_io_size = 3145728, md_level = "raid6", md_chunk_bytes = 524288, md_data_disks = 6}, extra)
end

return fstune.rule {
	id = "topology",
	title = "RAID stripe geometry, partition alignment and untrustworthy device topology",
	description = [[
Compares the device's I/O topology (minimum_io_size ~ RAID chunk, optimal_io_size ~ full stripe,
alignment_offset) and md facts (md_chunk_bytes, md_data_disks, md_level) with the filesystem.

- A filesystem not yet made on an array whose geometry the queue hides (hardware RAID, or md facts
  that the queue does not show): give mke2fs -E stride=,stripe_width= and mkfs.xfs -d su=,sw=
  explicitly. When the queue shows the geometry, both tools read it through libblkid themselves
  and nothing is recommended.
- An existing ext4/XFS filesystem with no stripe, or another stripe than the device's: suggest on
  parity RAID of disks, info otherwise. ext takes both fields online (tune2fs -E); XFS takes new
  sunit/swidth at mount only when it was made with a stripe, so one made without gets mkfs.xfs
  -d su=,sw= (a new filesystem), never a mount option (mke2fs no longer sets the stripe on non-rotational devices
  by default: the ext4 allocator's alignment search does not pay off on flash).
- A partition start not on a physical sector (alignment_offset != 0, or partition_start_bytes not
  a multiple of physical_block_size): warn. Not on a chunk boundary of a trusted stripe: suggest.
- Topology that cannot be trusted: optimal_io_size not a multiple of the physical sector or of
  minimum_io_size, 65535 logical sectors (33553920 with 512-byte sectors: USB-SATA bridges report
  their transfer limit there), or above 16 MiB on a single device (a heuristic). Such values are
  ignored for geometry; a filesystem stripe copied from them is flagged.
- rotational=1 on virtio, xen and loop devices is not evidence of a disk (info).
- An ext/XFS block size below the physical sector (1 KiB ext2 on a 512e disk): suggest the
  sector size or 4 KiB at the next mkfs; a 2000 report's 1 KiB win (Linux 2.2, a C-ISAM index rebuild) came from 512-byte
  sectors.]],
	sources = SOURCES,
	settings = {"mkfs.stride", "mkfs.stripe_width", "mkfs.xfs_su", "mkfs.xfs_sw", "mkfs.block_size",
		"fs.stripe_width", "fs.stride"},
	needs = {"device.physical_block_size"},
	uses = {"device.logical_block_size", "device.minimum_io_size", "device.optimal_io_size",
		"device.alignment_offset", "device.partition_start_bytes", "device.transport",
		"device.rotational", "device.md_level", "device.md_chunk_bytes", "device.md_data_disks",
		"device.topology_hidden", "fs.type", "fs.block_size", "fs.stripe_unit_bytes",
		"fs.stripe_width_bytes", "host.virtualization", "bench.rotational_claim.reason"},
	check = check,
	tests = {
		{name = "md raid6 of disks, ext4 made without stripe: suggest the geometry",
			facts = {device = {name = "md0", transport = "md", rotational = true, logical_block_size = 512,
				physical_block_size = 4096, minimum_io_size = 524288, optimal_io_size = 3145728,
				alignment_offset = 0, md_level = "raid6", md_chunk_bytes = 524288, md_raid_disks = 8,
				md_data_disks = 6},
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 0, stripe_width_bytes = 0}},
			expect = {{name = "fs_stripe_missing", severity = "suggest"}, {name = "fs_stride", severity = "suggest"}}},
		{name = "md raid5 with matching ext4 stride/stripe: nothing",
			facts = {device = {name = "md0", transport = "md", rotational = true, logical_block_size = 512,
				physical_block_size = 4096, minimum_io_size = 524288, optimal_io_size = 1572864,
				alignment_offset = 0, md_level = "raid5", md_chunk_bytes = 524288, md_data_disks = 3},
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 524288,
					stripe_width_bytes = 1572864}},
			expect = {}},
		{name = "XFS made without stripe on md raid6: a new filesystem with -d su,sw, no mount option",
			facts = {device = md0_raid6(),
				fs = {type = "xfs", block_size = 4096, stripe_unit_bytes = 0, stripe_width_bytes = 0}},
			expect = {{name = "fs_stripe_missing", severity = "suggest", setting = "mkfs.xfs_su",
				recommended = 524288, disruption = "reformat"},
				{name = "xfs_sw_missing", setting = "mkfs.xfs_sw", recommended = 6, disruption = "reformat"}}},
		{name = "XFS made with the array's stripe: nothing",
			facts = {device = md0_raid6(),
				fs = {type = "xfs", block_size = 4096, stripe_unit_bytes = 524288, stripe_width_bytes = 3145728}},
			expect = {}},
		{name = "reshaped array: stripe mismatch",
			facts = {device = {name = "md0", transport = "md", rotational = true, logical_block_size = 512,
				physical_block_size = 4096, minimum_io_size = 524288, optimal_io_size = 2097152,
				md_level = "raid5", md_chunk_bytes = 524288, md_data_disks = 4},
				fs = {type = "xfs", block_size = 4096, stripe_unit_bytes = 524288,
					stripe_width_bytes = 1572864}},
			expect = {{name = "fs_stripe_mismatch", severity = "suggest"}}},
		{name = "ext4 on an md raid6 reshaped from 4-disk raid5: fs.stripe_width 384 -> 768 blocks, online",
			facts = {device = md0_raid6(),
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 524288,
					stripe_width_bytes = 1572864}},
			expect = {{name = "fs_stripe_mismatch", severity = "suggest", setting = "fs.stripe_width",
				recommended = 768, current = 384, disruption = "online"}}},
		{name = "ext4 whose stride alone is off: fs.stride, with the stripe width left alone",
			facts = {device = md0_raid6(),
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 65536,
					stripe_width_bytes = 3145728}},
			expect = {{name = "fs_stripe_mismatch", setting = "fs.stride", recommended = 128, current = 16}}},
		{name = "ext4 made without stripe on raid6: both fields, 1 KiB blocks",
			facts = {device = md0_raid6({physical_block_size = 512}),
				fs = {type = "ext3", block_size = 1024, stripe_unit_bytes = 0, stripe_width_bytes = 0}},
			expect = {{name = "fs_stripe_missing", setting = "fs.stripe_width", recommended = 3072, current = 0},
				{name = "fs_stride", setting = "fs.stride", recommended = 512, current = 0}}},
		{name = "SSD raid10 without stripe: info only",
			facts = {device = {name = "md1", transport = "md", rotational = false, logical_block_size = 512,
				physical_block_size = 512, minimum_io_size = 524288, optimal_io_size = 1048576,
				md_level = "raid10", md_chunk_bytes = 524288, md_data_disks = 2},
				fs = {type = "ext4", block_size = 4096, stripe_width_bytes = 0}},
			expect = {{name = "fs_stripe_missing", severity = "info"}, {name = "fs_stride", severity = "info"}}},
		{name = "hardware RAID hidden from the queue, no filesystem yet: explicit geometry",
			facts = {device = {name = "sdb", transport = "sas", rotational = true, logical_block_size = 512,
				physical_block_size = 512, minimum_io_size = 512, optimal_io_size = 0,
				topology_hidden = true, md_level = "raid6", md_chunk_bytes = 262144, md_data_disks = 10}},
			expect = {{name = "ext4_stride", recommended = 64}, {name = "ext4_stripe_width", recommended = 640},
				{name = "xfs_su", recommended = 262144}, {name = "xfs_sw", recommended = 10}}},
		{name = "visible md topology, no filesystem yet: mkfs finds it, nothing to say",
			facts = {device = {name = "md0", transport = "md", rotational = true, logical_block_size = 512,
				physical_block_size = 4096, minimum_io_size = 524288, optimal_io_size = 3145728,
				md_level = "raid6", md_chunk_bytes = 524288, md_data_disks = 6}},
			expect = {}},
		{name = "USB bridge 33553920 on 512e disk with ext4 stripe copied from it",
			facts = {device = {name = "sdc1", disk = "sdc", transport = "usb", rotational = true,
				logical_block_size = 512, physical_block_size = 4096, minimum_io_size = 4096,
				optimal_io_size = 33553920, alignment_offset = 0, partition_start_bytes = 1048576},
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 0, stripe_width_bytes = 33550336}},
			expect = {{name = "untrusted_optimal_io", severity = "warn"},
				{name = "fs_stripe_from_bogus_topology", severity = "suggest"}}},
		{name = "USB bridge: the copied stripe width is cleared through fs.stripe_width = 0",
			facts = {device = {path = "/dev/sdc1", name = "sdc1", disk = "sdc", transport = "usb", rotational = true,
				logical_block_size = 512, physical_block_size = 4096, minimum_io_size = 4096,
				optimal_io_size = 33553920},
				fs = {type = "ext4", block_size = 4096, stripe_unit_bytes = 0, stripe_width_bytes = 33550336}},
			expect = {"untrusted_optimal_io", {name = "fs_stripe_from_bogus_topology", setting = "fs.stripe_width",
				recommended = 0, current = 8191, disruption = "online"}}},
		{name = "USB bridge 33553920 with 512-byte physical sectors (a multiple of the sector)",
			facts = {device = {name = "sdc", transport = "usb", rotational = true, logical_block_size = 512,
				physical_block_size = 512, minimum_io_size = 512, optimal_io_size = 33553920}},
			expect = {"untrusted_optimal_io"}},
		{name = "optimal not a multiple of minimum",
			facts = {device = {name = "sdd", transport = "sas", rotational = true, logical_block_size = 512,
				physical_block_size = 512, minimum_io_size = 65536, optimal_io_size = 196608 + 512}},
			expect = {"untrusted_optimal_io"}},
		{name = "DOS 63-sector start on a 512e disk",
			facts = {device = {name = "sda1", disk = "sda", transport = "sata", rotational = true,
				logical_block_size = 512, physical_block_size = 4096, minimum_io_size = 4096,
				optimal_io_size = 0, alignment_offset = 3584, partition_start_bytes = 32256}},
			expect = {{name = "partition_misaligned", severity = "warn"}}},
		{name = "start not on a physical sector, alignment_offset unknown",
			facts = {device = {name = "sda1", transport = "sata", logical_block_size = 512,
				physical_block_size = 4096, partition_start_bytes = 32256}},
			expect = {"partition_misaligned"}},
		{name = "4Kn SAS disk at 1 MiB: nothing",
			facts = {device = {name = "sdb1", disk = "sdb", transport = "sas", rotational = true,
				logical_block_size = 4096, physical_block_size = 4096, minimum_io_size = 4096,
				optimal_io_size = 0, alignment_offset = 0, partition_start_bytes = 1048576}},
			expect = {}},
		{name = "partition on a hardware RAID volume off the chunk",
			facts = {device = {name = "sdb1", transport = "sas", rotational = true, logical_block_size = 512,
				physical_block_size = 512, minimum_io_size = 262144, optimal_io_size = 1048576,
				alignment_offset = 0, partition_start_bytes = 32256 * 8}},
			expect = {"partition_off_stripe"}},
		{name = "virtio disk says rotational",
			facts = {host = {virtualization = "kvm"}, device = {name = "vda1", disk = "vda",
				transport = "virtio", rotational = true, logical_block_size = 512, physical_block_size = 512,
				minimum_io_size = 512, optimal_io_size = 0, partition_start_bytes = 1048576}},
			expect = {{name = "rotational_not_evidence", severity = "info"}}},
		{name = "virtio disk says rotational, and the benchmark contradicts it",
			facts = {host = {virtualization = "kvm"}, device = {name = "vda", disk = "vda",
				transport = "virtio", rotational = true, logical_block_size = 512, physical_block_size = 512,
				minimum_io_size = 512, optimal_io_size = 0},
				bench = {rotational_claim = {contradicted_by = "rand_read_4k_qd32", reason = "11000 IOPS"}}},
			expect = {{name = "rotational_not_evidence", severity = "info"}}},
		{name = "loop device says rotational",
			facts = {device = {name = "loop0", transport = "loop", rotational = true, logical_block_size = 4096,
				physical_block_size = 4096, minimum_io_size = 4096, optimal_io_size = 0}},
			expect = {{name = "rotational_not_evidence", severity = "info"}}},
		{name = "bare-metal SATA HDD says rotational: that is evidence, nothing to say",
			facts = {host = {virtualization = "none"}, device = {name = "sda", transport = "sata",
				rotational = true, logical_block_size = 512, physical_block_size = 4096,
				minimum_io_size = 4096, optimal_io_size = 0}},
			expect = {}},
		{name = "ext2 with 1 KiB blocks on a 512e disk (the 2000 report's layout today)",
			facts = {device = {name = "sda3", transport = "sata", rotational = true, logical_block_size = 512,
				physical_block_size = 4096, minimum_io_size = 4096, optimal_io_size = 0,
				partition_start_bytes = 1048576},
				fs = {type = "ext2", block_size = 1024}},
			expect = {{name = "block_below_sector", severity = "suggest", recommended = 4096}}},
		{name = "no device branch (image file)", facts = {fs = {type = "ext4"}}, expect = "not_evaluated"},
	},
}
