/* The assertion layer is tests/lib/check.h; this name stays only for the rules tests that still
 * include it by its old path (tests/rules/test_settings.c, test_mkfs.c, test_rationale.c). */
#include "tests/lib/check.h"
