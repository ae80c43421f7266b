/* The environment of a trial (trial_run.h): the host's load at each run, the share of each run spent
 * waiting for a CPU, the other traffic on the disk under the image (its /sys/class/block stat minus
 * the trial's own loop device), a one-second busy check of that disk before the first run, and the
 * image's allocation after each run. None of it changes a verdict: a busy host shows in the A/A
 * floor, which every verdict must clear; these say why the floor is what it is. */
#include "config.h"

#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "app/trial/trial_run.h"
#include "lib/xalloc.h"
#include "fstune/workload.h"

static double load_now(void)
{
	double l[1];

	return getloadavg(l, 1) == 1 ? l[0] : -1;
}

/* This thread's time runnable but waiting for a CPU, seconds; -1 without CONFIG_SCHED_INFO. */
static double thread_wait_s(void)
{
	double ns = bench_thread_run_delay_ns();

	return ns < 0 ? -1 : ns / 1e9;
}

/* The kernel name of the whole disk holding block device `devno` ("vda" for vda1), or NULL. */
static char *whole_disk(dev_t devno)
{
	char link[64], real[PATH_MAX], part[PATH_MAX + 16];

	snprintf(link, sizeof link, "/sys/dev/block/%u:%u", major(devno), minor(devno));
	if (!realpath(link, real))
		return NULL;
	snprintf(part, sizeof part, "%s/partition", real);
	if (access(part, F_OK) == 0)
		*strrchr(real, '/') = '\0';
	return xstrdup(basename(real));
}

static const char *loop_name(const struct trial *t)
{
	return t->scratch.dev && !strncmp(t->scratch.dev, "/dev/", 5) ? t->scratch.dev + 5 : NULL;
}

/* The disk other traffic is measured on, or the reason there is none. */
static void find_disk(struct trial *t)
{
	struct trial_env *e = &t->env;
	struct stat st;

	if (t->is_device) {
		if (stat(t->scratch.dev, &st) == 0 && S_ISBLK(st.st_mode))
			e->disk = whole_disk(st.st_rdev);
		if (e->disk && loop_name(t) && !strcmp(e->disk, loop_name(t))) {
			free(e->disk);
			e->disk = NULL;
			e->disk_why = xstrdup("the scratch device is a whole disk: all its traffic is the trial's");
		}
	} else if (t->scratch.image && stat(t->scratch.image, &st) == 0) {
		if (major(st.st_dev) == 0)
			e->disk_why = xstrdup("the image's filesystem is on no block device (a virtual filesystem)");
		else
			e->disk = whole_disk(st.st_dev);
	}
	if (!e->disk && !e->disk_why)
		e->disk_why = xstrdup("the disk under the image could not be found in /sys/dev/block");
}

void trial_env_start(struct trial *t)
{
	struct trial_env *e = &t->env;
	struct workload_observation o;
	bool ok_disk, ok_loop;

	e->cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	e->busy_before = -1;
	e->loads = json_array();
	e->waits = json_array();
	find_disk(t);
	if (!e->disk)
		return;
	/* the busy check: a second of the disk before anything of the trial runs on it */
	if (workload_observe(e->disk, 1.0, NULL, NULL, &o) == 0)
		e->busy_before = o.busy_share;
	ok_disk = workload_diskstat_read(e->disk, &e->disk_start) == 0;
	ok_loop = loop_name(t) && workload_diskstat_read(loop_name(t), &e->loop_start) == 0;
	e->has_disk_start = ok_disk && ok_loop;
	if (!e->has_disk_start) {
		free(e->disk_why);
		e->disk_why = xasprintf("the stat of %s or %s could not be read", e->disk,
					loop_name(t) ? loop_name(t) : "the scratch device");
	}
}

void trial_env_run_start(struct trial *t, json_t *run, double *wait0_s)
{
	double l = load_now();

	if (l >= 0) {
		json_object_set_new(run, "load", json_real(l));
		json_array_append_new(t->env.loads, json_real(l));
	}
	*wait0_s = thread_wait_s();
}

/* The run's CPU wait: the benchmark's own figure (the largest of its tests), else this thread's wait
 * over the run. -1 when unknown. */
static double run_cpu_wait(const json_t *run, double wait0_s)
{
	const json_t *bench = json_object_get(run, "bench"), *test;
	const char *name;
	double pct = -1, now = thread_wait_s(), run_s = json_number_value(json_object_get(run, "run_s"));

	json_object_foreach((json_t *)bench, name, test) {
		const json_t *w = json_object_get(test, "cpu_wait_pct");

		if (json_is_number(w))
			pct = fmax(pct, json_number_value(w));
	}
	/* the file benchmarks and the tree run in this thread */
	if (pct < 0 && wait0_s >= 0 && now >= wait0_s && run_s > 0)
		pct = (now - wait0_s) / run_s * 100;
	return pct;
}

void trial_env_run_end(struct trial *t, json_t *run, double wait0_s)
{
	double pct = run_cpu_wait(run, wait0_s);
	struct stat st;

	if (pct >= 0) {
		json_object_set_new(run, "cpu_wait_pct", json_real(round(pct * 100) / 100));
		json_array_append_new(t->env.waits, json_real(pct));
	}
	if (t->scratch.image && stat(t->scratch.image, &st) == 0) {
		uint64_t alloc = (uint64_t)st.st_blocks * 512;

		json_object_set_new(run, "image_allocated_bytes", json_integer((json_int_t)alloc));
		if (!t->env.alloc_min_bytes || alloc < t->env.alloc_min_bytes)
			t->env.alloc_min_bytes = alloc;
	}
}

static double median_of(const json_t *a, double *max)
{
	size_t n = json_array_size(a), i;
	double *v = xcalloc(n ? n : 1, sizeof *v), m;
	json_t *x;

	*max = -1;
	if (!n) {
		free(v);
		return -1;
	}
	json_array_foreach(a, i, x) {
		v[i] = json_number_value(x);
		*max = fmax(*max, v[i]);
	}
	m = trial_median(v, n);
	free(v);
	return m;
}

void trial_env_finish(struct trial *t)
{
	struct trial_env *e = &t->env;
	double lmax;

	e->load_median = median_of(e->loads, &lmax);
	e->load_max = lmax;
	e->load_min = lmax;
	for (size_t i = 0; i < json_array_size(e->loads); i++)
		e->load_min = fmin(e->load_min, json_number_value(json_array_get(e->loads, i)));
	e->cpu_wait_pct = median_of(e->waits, &e->cpu_wait_max_pct);
	if (e->has_disk_start) {
		struct workload_diskstat disk, loop;

		if (workload_diskstat_read(e->disk, &disk) == 0 && workload_diskstat_read(loop_name(t), &loop) == 0 &&
		    disk.when_s > e->disk_start.when_s) {
			/* The loop's direct I/O writes reach the disk as they left the loop, so the rest of
			 * the disk's writes are others'. Its reads do not: the host filesystem answers a read
			 * of a never-written part of the image with zeros, without the disk, so the loop can
			 * read more than the disk did and the read part is a lower bound. Each apart, for a
			 * surplus of loop reads must not hide others' writes. */
			int64_t w = (int64_t)(disk.write_sectors - e->disk_start.write_sectors) -
				    (int64_t)(loop.write_sectors - e->loop_start.write_sectors);
			int64_t r = (int64_t)(disk.read_sectors - e->disk_start.read_sectors) -
				    (int64_t)(loop.read_sectors - e->loop_start.read_sectors);

			e->other_bytes_per_s = (double)((w > 0 ? w : 0) + (r > 0 ? r : 0)) * 512 /
					       (disk.when_s - e->disk_start.when_s);
		} else {
			e->has_disk_start = false;
		}
	}
}

void trial_env_free(struct trial_env *e)
{
	free(e->disk);
	free(e->disk_why);
	json_decref(e->loads);
	json_decref(e->waits);
	memset(e, 0, sizeof *e);
}
