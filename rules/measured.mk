# The rule set, part 2: rules that measurement decides (block size, writeback from the drain time,
# durability, the device against its class, directory layout, metadata caching, small-file
# transactions); their test on measured variants of the eight servers, on healthy baselines of each
# device class, and a report on a loop-mounted ext4 whose advice rests on that run's numbers.
dist_rules_DATA += \
	rules/builtin/blocksize.lua \
	rules/builtin/durability.lua \
	rules/builtin/devclass.lua \
	rules/builtin/dirlayout.lua \
	rules/builtin/dcache.lua \
	rules/builtin/smallfile.lua

TESTS += tests/report-measured-loop.sh
EXTRA_DIST += tests/report-measured-loop.sh
EXTRA_DIST += \
	tests/servers/measured/README \
	tests/servers/measured/nvme-database.json \
	tests/servers/measured/hdd-raid-fileserver.json \
	tests/servers/measured/mail-spool.json \
	tests/servers/measured/vm-virtio.json \
	tests/servers/measured/sas-4kn.json \
	tests/servers/measured/usb-bogus-opt-io.json \
	tests/servers/measured/freebsd-target.json \
	tests/servers/measured/healthy-default.json \
	tests/baselines/README \
	tests/baselines/nvme.json \
	tests/baselines/sata-ssd.json \
	tests/baselines/hdd.json \
	tests/baselines/virtio.json \
	tests/baselines/md-raid.json \
	tests/baselines/hw-raid.json
