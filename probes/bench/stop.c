/* SIGINT, SIGTERM and SIGHUP during a benchmark: the handler only records the signal; the run notices,
 * drains in-flight I/O, removes its scratch directory, and the command then re-raises the signal so the
 * process ends by it (status 128+n), as DESIGN.md's Safety asks. */
#include "config.h"

#include <signal.h>
#include <string.h>

#include "fstune/bench.h"
#include "fstune/status.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (!caught)
		caught = sig;
}

void bench_stop_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}

const volatile sig_atomic_t *bench_stop_flag(void)
{
	return &caught;
}

void bench_stop_reraise(void)
{
	if (caught)
		fst_exit_by_signal(caught);
}
