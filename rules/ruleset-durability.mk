# The rule set, durability and device kinds: write barriers, ext3/4 journalling, btrfs
# copy-on-write, zoned and SMR disks, the md RAID stripe cache, NVMe LBA formats, FreeBSD newfs on
# flash; their advice run for real on loop devices, and on captured sysfs trees and hand-written
# facts for the devices this machine lacks (md, zoned, NVMe) and for the root filesystem.
dist_rules_DATA += \
	rules/builtin/barriers.lua \
	rules/builtin/journal.lua \
	rules/builtin/cow.lua \
	rules/builtin/zoned.lua \
	rules/builtin/md_raid.lua \
	rules/builtin/nvme_lbaf.lua \
	rules/builtin/freebsd_flash.lua

TESTS += tests/advice-durability.sh tests/advice-devices.sh
EXTRA_DIST += tests/advice-durability.sh tests/advice-devices.sh
