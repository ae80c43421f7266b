/* Debug output on stderr, switched on by FSTUNE_DEBUG=probes,rules,bench,... (or "all"); never stray
 * printfs. Read once at start-up. */
#ifndef FSTUNE_DEBUG_H
#define FSTUNE_DEBUG_H

#include <stdbool.h>

enum debug_area {
	DEBUG_PROBES = 1 << 0,
	DEBUG_RULES = 1 << 1,
	DEBUG_BENCH = 1 << 2,
	DEBUG_REPORT = 1 << 3,
	DEBUG_UI = 1 << 4,
};

void debug_init(void);
bool debug_on(enum debug_area area);
void debug_printf(enum debug_area area, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define DBG(area, ...)                                   \
	do {                                             \
		if (debug_on(area))                      \
			debug_printf(area, __VA_ARGS__); \
	} while (0)

#endif
