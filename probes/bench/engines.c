/* The engines' names, as --engine takes them and the results record them (below the test table,
 * which the tests it points at would otherwise have to call back into for a name), and the ops the
 * engines share. */
#include "config.h"

#include <string.h>

#include "probes/bench/bench_int.h"

static const char *const engine_names[] = {
	[BENCH_ENGINE_AUTO] = "auto",
	[BENCH_ENGINE_IO_URING] = "io_uring",
	[BENCH_ENGINE_PSYNC] = "psync",
	[BENCH_ENGINE_PSYNC_THREADS] = "psync-threads",
	[BENCH_ENGINE_NULL] = "null",
};

const char *bench_engine_name(enum bench_engine_id id)
{
	return (size_t)id < sizeof engine_names / sizeof engine_names[0] ? engine_names[id] : "?";
}

bool bench_engine_parse(const char *name, enum bench_engine_id *out)
{
	size_t i;

	for (i = 0; i < sizeof engine_names / sizeof engine_names[0]; i++)
		if (!strcmp(engine_names[i], name)) {
			*out = (enum bench_engine_id)i;
			return true;
		}
	return false;
}

int bench_engine_commit_none(struct bench_engine *e)
{
	return 0;
}
