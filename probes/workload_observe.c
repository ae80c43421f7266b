/* The observer behind `--observe SECONDS` and the busy check before benchmarks (probes/bench calls
 * it): two readings of /sys/class/block/<dev>/stat (Documentation/block/stat.rst; partitions have
 * the same file) and what their difference says about the running workload. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/workload.h"

#define TICK_S 0.1

int workload_diskstat_read(const char *dev, struct workload_diskstat *out)
{
	uint64_t v[15] = {0};
	char *text, *p, *end;
	int n = 0;

	if (!dev || !*dev || strchr(dev, '/'))
		return -EINVAL;
	text = path_read_string("/sys/class/block/%s/stat", dev);
	if (!text)
		return errno ? -errno : -EIO;
	/* 11 fields since 2.6, 15 with discards (4.18), 17 with flushes (5.5): read what is there. */
	for (p = text; n < 15; n++) {
		errno = 0;
		v[n] = strtoull(p, &end, 10);
		if (end == p || errno)
			break;
		p = end;
	}
	free(text);
	if (n < 11)
		return -EINVAL;
	*out = (struct workload_diskstat){
		.read_ios = v[0], .read_sectors = v[2],
		.write_ios = v[4], .write_sectors = v[6],
		.in_flight = v[8], .io_ticks_ms = v[9], .time_in_queue_ms = v[10],
		.discard_ios = v[11], .discard_sectors = v[13],
		.when_s = fst_clock_s(),
	};
	return 0;
}

bool workload_diskstat_delta(const struct workload_diskstat *a, const struct workload_diskstat *b,
			     struct workload_observation *out)
{
	double ms;
	uint64_t requests;

	if (b->read_ios < a->read_ios || b->write_ios < a->write_ios ||
	    b->read_sectors < a->read_sectors || b->write_sectors < a->write_sectors ||
	    b->io_ticks_ms < a->io_ticks_ms || b->time_in_queue_ms < a->time_in_queue_ms)
		return false;
	memset(out, 0, sizeof(*out));
	out->elapsed_s = b->when_s - a->when_s;
	out->reads = b->read_ios - a->read_ios;
	out->writes = b->write_ios - a->write_ios;
	out->read_bytes = (b->read_sectors - a->read_sectors) * 512;
	out->write_bytes = (b->write_sectors - a->write_sectors) * 512;
	requests = out->reads + out->writes;
	out->has_io = requests > 0;
	if (out->has_io) {
		out->read_share = (double)out->reads / (double)requests;
		out->mean_request_bytes = (double)(out->read_bytes + out->write_bytes) / (double)requests;
	}
	ms = out->elapsed_s * 1000.0;
	if (ms > 0) {
		out->inflight_mean = (double)(b->time_in_queue_ms - a->time_in_queue_ms) / ms;
		out->busy_share = (double)(b->io_ticks_ms - a->io_ticks_ms) / ms;
		if (out->busy_share > 1.0) /* io_ticks is jiffy-grained: it can overshoot a short interval */
			out->busy_share = 1.0;
	}
	return true;
}

int workload_observe(const char *dev, double seconds, workload_observe_tick_fn tick, void *arg,
		     struct workload_observation *out)
{
	struct workload_diskstat a, b;
	double end, t;
	int rc;

	rc = workload_diskstat_read(dev, &a);
	if (rc)
		return rc;
	end = a.when_s + seconds;
	for (t = a.when_s; t < end; t = fst_clock_s()) {
		double left = end - t, step = left < TICK_S ? left : TICK_S;
		struct timespec ts = {(time_t)step, (long)((step - (double)(time_t)step) * 1e9)};

		nanosleep(&ts, NULL);
		if (tick && !tick(fst_clock_s() - a.when_s, seconds, arg))
			break;
	}
	rc = workload_diskstat_read(dev, &b);
	if (rc)
		return rc;
	if (!workload_diskstat_delta(&a, &b, out))
		return -ERANGE;
	DBG(DEBUG_PROBES, "observe %s: %.2f s, %" PRIu64 " reads, %" PRIu64 " writes, busy %.3f", dev,
	    out->elapsed_s, out->reads, out->writes, out->busy_share);
	return 0;
}

bool workload_observation_busy(const struct workload_observation *o)
{
	return o->busy_share >= WORKLOAD_BUSY_SHARE;
}

int workload_busy_check(const char *dev, bool *is_busy, struct workload_observation *out)
{
	struct workload_observation o;
	int rc = workload_observe(dev, 1.0, NULL, NULL, &o);

	if (rc)
		return rc;
	*is_busy = workload_observation_busy(&o);
	if (out)
		*out = o;
	return 0;
}

void workload_observation_to_facts(const struct workload_observation *o, const char *dev,
				   struct facts *f)
{
	if (o->has_io) {
		facts_set_real(f, "workload.read_share", o->read_share, "observe");
		facts_set_real(f, "workload.mean_request_bytes", o->mean_request_bytes, "observe");
	} else {
		facts_set_unavailable(f, "workload.read_share", FACTS_NOT_APPLICABLE,
				      "no request completed on %s in %.1f s of observation", dev,
				      o->elapsed_s);
		facts_set_unavailable(f, "workload.mean_request_bytes", FACTS_NOT_APPLICABLE,
				      "no request completed on %s in %.1f s of observation", dev,
				      o->elapsed_s);
	}
	facts_set_real(f, "workload.inflight_mean", o->inflight_mean, "observe");
	facts_set_real(f, "workload.busy_share", o->busy_share, "observe");
	facts_set_string(f, "workload.observe.device", dev, "observe");
	facts_set_real(f, "workload.observe.interval_s", o->elapsed_s, "observe");
	facts_set_int(f, "workload.observe.reads", (long long)o->reads, "observe");
	facts_set_int(f, "workload.observe.writes", (long long)o->writes, "observe");
	facts_set_int(f, "workload.observe.read_bytes", (long long)o->read_bytes, "observe");
	facts_set_int(f, "workload.observe.write_bytes", (long long)o->write_bytes, "observe");
}
