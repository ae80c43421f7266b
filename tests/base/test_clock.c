/* The monotonic clock: it never goes back, its two units agree, and it moves with time slept. */
#include "config.h"

#include <time.h>

#include "fstune/clock.h"
#include "tests/lib/check.h"

int main(void)
{
	struct timespec nap = {0, 20 * 1000 * 1000};
	uint64_t prev = fst_clock_ns(), now;
	double s0 = fst_clock_s(), s1;
	int back = 0;

	for (int i = 0; i < 100000; i++) {
		now = fst_clock_ns();
		back += now < prev;
		prev = now;
	}
	CHECK(back == 0);
	nanosleep(&nap, NULL);
	s1 = fst_clock_s();
	CHECK(s1 - s0 >= 0.02);
	CHECK((double)fst_clock_ns() / 1e9 >= s1);
	return CHECK_DONE();
}
