#include "fstune/fstype.h"

#include <string.h>

bool fstype_is_ext(const char *type)
{
	return type && (!strcmp(type, "ext2") || !strcmp(type, "ext3") || !strcmp(type, "ext4") ||
			!strcmp(type, "ext4dev"));
}
