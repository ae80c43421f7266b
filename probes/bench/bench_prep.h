/* The preparation shared by bench_run and bench_fio_commands: what the target allows, the span, the
 * scratch directory and the direct-I/O decision. Internal to probes/bench/. */
#ifndef FSTUNE_PROBES_BENCH_PREP_H
#define FSTUNE_PROBES_BENCH_PREP_H

#include "probes/bench/bench_int.h"

struct bench_prep {
	const struct probe_target *target;
	struct bench_config eff;            /* the config with defaults resolved (runtime) */
	struct bench_ctx ctx;
	const struct bench_test_def **sel;  /* the selected tests, table order */
	size_t n;
};

/* Checks the target and sizes the span; nothing is written. FST_EXIT_OK or the refusal's status with
 * `err` set. bench_prep_free must be called in every case. */
int bench_prepare(struct bench_prep *p, const struct probe_target *t, const struct bench_config *cfg,
		  struct bench_result *res, struct fst_error *err);
/* Creates the scratch directory and the empty data file, deciding direct I/O. */
int bench_prepare_files(struct bench_prep *p, struct fst_error *err);
/* Removes the scratch directory and frees. */
void bench_prep_free(struct bench_prep *p);

#endif
