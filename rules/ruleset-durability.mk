# The rule set, durability and device kinds: write barriers, ext3/4 journalling, btrfs
# copy-on-write, zoned and SMR disks, the md RAID stripe cache, NVMe LBA formats, FreeBSD newfs on
# flash; and their advice run for real on loop devices.
dist_rules_DATA += \
	rules/builtin/barriers.lua \
	rules/builtin/journal.lua \
	rules/builtin/cow.lua

TESTS += tests/advice-durability.sh
EXTRA_DIST += tests/advice-durability.sh
