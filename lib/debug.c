/* FSTUNE_DEBUG: which areas print debug lines on stderr (debug.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/debug.h"

static unsigned debug_mask;

static const struct {
	const char *name;
	enum debug_area area;
} debug_names[] = {
	{"probes", DEBUG_PROBES}, {"rules", DEBUG_RULES}, {"bench", DEBUG_BENCH},
	{"report", DEBUG_REPORT}, {"ui", DEBUG_UI},
};

void debug_init(void)
{
	const char *env = getenv("FSTUNE_DEBUG");
	const char *p = env;

	debug_mask = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == 3 && strncmp(p, "all", 3) == 0)
			debug_mask = ~0u;
		for (size_t i = 0; i < sizeof(debug_names) / sizeof(debug_names[0]); i++)
			if (strlen(debug_names[i].name) == len && strncmp(p, debug_names[i].name, len) == 0)
				debug_mask |= debug_names[i].area;
		p += len;
		if (*p == ',')
			p++;
	}
}

bool debug_on(enum debug_area area) { return (debug_mask & area) != 0; }

void debug_printf(enum debug_area area, const char *fmt, ...)
{
	const char *name = "debug";
	va_list ap;

	for (size_t i = 0; i < sizeof(debug_names) / sizeof(debug_names[0]); i++)
		if (debug_names[i].area == area)
			name = debug_names[i].name;
	fprintf(stderr, "fstune[%s]: ", name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
