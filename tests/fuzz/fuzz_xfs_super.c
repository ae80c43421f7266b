/* libFuzzer target: the XFS superblock parser on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "probes/xfs_super.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xfs_super_info info;

	if (xfs_super_parse(data, size, &info) == XFS_SUPER_OK) {
		/* invariants the probe relies on */
		if (info.block_size < 512 || info.inode_size > info.block_size ||
		    info.stripe_width_bytes < info.stripe_unit_bytes || info.n_features > XFS_SUPER_MAX_FEATURES)
			__builtin_trap();
	}
	return 0;
}
