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
