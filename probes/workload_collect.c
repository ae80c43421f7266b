/* All the workload facts of one run in the documented order: preset or default, sample, the user's
 * overrides, observation (workload.h explains why overrides win over a sample). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "fstune/workload.h"
#include "probes/probe_util.h"

static int observe_target(const struct workload_spec *w, const struct probe_target *t,
			  struct facts *f, const struct workload_hooks *hooks)
{
	static const char *const keys[] = {"workload.read_share", "workload.mean_request_bytes",
					   "workload.inflight_mean", "workload.busy_share"};
	struct workload_observation o;
	size_t i;
	int rc;

	if (!t || !t->dev_name) {
		const char *why = t && t->no_device_reason ? t->no_device_reason : "no block device";

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			facts_set_unavailable(f, keys[i], FACTS_NOT_APPLICABLE,
					      "nothing to observe: %s", why);
		return FST_EXIT_OK;
	}
	rc = workload_observe(t->dev_name, w->observe_s, hooks ? hooks->observe_tick : NULL,
			      hooks ? hooks->arg : NULL, &o);
	if (rc) {
		char what[128];

		snprintf(what, sizeof(what), "/sys/class/block/%s/stat", t->dev_name);
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			probe_unavailable_errno(f, keys[i], -rc, what);
		return probe_status_from_errno(-rc) == FACTS_FAILED ? FST_EXIT_PARTIAL : FST_EXIT_OK;
	}
	workload_observation_to_facts(&o, t->dev_name, f);
	return FST_EXIT_OK;
}

int workload_collect(const struct workload_spec *w, const struct probe_target *t, struct facts *f,
		     const struct workload_hooks *hooks, struct fst_error *err)
{
	int status = FST_EXIT_OK;

	workload_spec_apply_preset(w, f);
	if (w->sample_dir) {
		struct workload_sample_options opt = {
			.time_limit_s = w->sample_time_s > 0 ? w->sample_time_s
							     : WORKLOAD_SAMPLE_TIME_DEFAULT_S,
			.progress = hooks ? hooks->sample_progress : NULL,
			.progress_arg = hooks ? hooks->arg : NULL,
		};
		struct workload_sample_result r;
		int rc = workload_sample(w->sample_dir, &opt, &r, err);

		if (rc)
			return rc;
		workload_sample_to_facts(&r, w->sample_dir, f);
	}
	workload_spec_apply_overrides(w, f);
	if (w->observe_s > 0)
		status = observe_target(w, t, f, hooks);
	return status;
}
