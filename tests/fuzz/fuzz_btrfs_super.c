/* libFuzzer target: the btrfs superblock parser on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probes/btrfs_super.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btrfs_super_info info;

	if (btrfs_super_parse(data, size, &info) == BTRFS_SUPER_OK) {
		if (info.node_size < info.sector_size || strlen(info.label) > 256 ||
		    info.n_features > BTRFS_SUPER_MAX_FEATURES)
			__builtin_trap();
	}
	return 0;
}
