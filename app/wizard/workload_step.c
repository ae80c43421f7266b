/* The Workload step's actions: a preset, the facts' own description, the custom form's values, a
 * sample of a directory, an observation of the device. Each describes the workload afresh through
 * the session (session_describe_workload starts again from what the facts came with) and evaluates
 * the rules again; sampling and observing show their progress in the busy box. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

/* Runs the step with w->wl_spec; `label` names it on the message line and on Workload. */
static int describe(struct ui_wizard *w, const struct workload_hooks *hooks, const char *label)
{
	struct fst_error err = FST_ERROR_INIT;
	int status = session_describe_workload(w->session, &w->wl_spec, hooks, &err);
	size_t n;

	w->busy.is_on = false;
	if (status == FST_EXIT_USAGE) {
		ui_message(w, UI_ERROR, "%s", err.msg);
		return status;
	}
	w->has_workload = true;
	snprintf(w->workload_label, sizeof(w->workload_label), "%s", label);
	n = json_array_size(w->session->result.recommendations);
	if (status != FST_EXIT_OK)
		ui_message(w, UI_ERROR, "%s: %s", label, err.msg);
	else
		ui_message(w, UI_OK, "workload: %s: %zu recommendation%s", label, n, n == 1 ? "" : "s");
	return status;
}

/* The command line's overrides, with no preset, sample or observation. */
static void spec_from_command_line(struct ui_wizard *w)
{
	w->wl_spec = w->spec;
	w->wl_spec.preset = NULL;
	w->wl_spec.sample_dir = NULL;
	w->wl_spec.observe_s = 0;
}

void ui_wizard_set_preset(struct ui_wizard *w, const struct workload_preset *p)
{
	char label[96];

	if (!w->session)
		return;
	spec_from_command_line(w);
	w->wl_spec.preset = p->name;
	snprintf(label, sizeof(label), "preset %s", p->name);
	if (describe(w, NULL, label) != FST_EXIT_USAGE)
		w->preset = p;
}

void ui_wizard_keep_workload(struct ui_wizard *w)
{
	if (!w->session || w->has_workload)
		return; /* already described: the current description is kept as it is */
	spec_from_command_line(w);
	describe(w, NULL, "as the facts say");
	w->preset = NULL;
}

void ui_wizard_set_custom(struct ui_wizard *w, const struct workload_spec *spec)
{
	if (!w->session)
		return;
	w->wl_spec = *spec;
	w->wl_spec.sample_dir = NULL;
	w->wl_spec.observe_s = 0;
	describe(w, NULL, "custom");
	w->preset = NULL;
}

const char *ui_wizard_cannot_measure(const struct ui_wizard *w, bool is_observe)
{
	const struct session *s = w->session;

	if (!s || s->origin != SESSION_FROM_TARGET)
		return "saved facts: nothing is measured (run the wizard on the machine)";
	if (is_observe && !s->target->dev_name)
		return s->target->no_device_reason ? s->target->no_device_reason : "no block device";
	return NULL;
}

static bool on_sample(const struct workload_sample_progress *p, void *arg)
{
	return ui_busy_update(arg, -1, "%llu files, %llu directories, %llu errors, %.1f s",
			      (unsigned long long)p->files, (unsigned long long)p->dirs,
			      (unsigned long long)p->errors, p->elapsed_s);
}

static bool on_observe(double done_s, double total_s, void *arg)
{
	return ui_busy_update(arg, total_s > 0 ? done_s / total_s : 0, "%.0f s left of %.0f s",
			      total_s - done_s > 0 ? total_s - done_s : 0, total_s);
}

bool ui_wizard_sample(struct ui_wizard *w, const char *dir)
{
	struct workload_hooks hooks = {.sample_progress = on_sample, .arg = w};
	char label[160];

	if (ui_wizard_cannot_measure(w, false)) {
		ui_message(w, UI_ERROR, "%s", ui_wizard_cannot_measure(w, false));
		return false;
	}
	snprintf(w->sample_dir, sizeof(w->sample_dir), "%s", dir);
	spec_from_command_line(w);
	if (w->preset)
		w->wl_spec.preset = w->preset->name; /* the keys a sample does not measure */
	w->wl_spec.sample_dir = w->sample_dir;
	snprintf(w->busy.title, sizeof(w->busy.title), " Sampling %s ", dir);
	snprintf(label, sizeof(label), "sample of %s", dir);
	if (describe(w, &hooks, label) == FST_EXIT_USAGE)
		return false;
	w->unsaved |= UI_UNSAVED_SAMPLE;
	return true;
}

bool ui_wizard_observe(struct ui_wizard *w, double seconds)
{
	struct workload_hooks hooks = {.sample_progress = on_sample, .observe_tick = on_observe, .arg = w};
	char label[160];

	if (ui_wizard_cannot_measure(w, true)) {
		ui_message(w, UI_ERROR, "%s", ui_wizard_cannot_measure(w, true));
		return false;
	}
	/* the description so far stays: an observation measures keys nothing else sets */
	if (!w->has_workload)
		spec_from_command_line(w);
	w->wl_spec.observe_s = seconds;
	snprintf(w->busy.title, sizeof(w->busy.title), " Observing %s ", w->session->target->dev_name);
	snprintf(label, sizeof(label), "observed %.32s for %.0f s, on %.80s", w->session->target->dev_name,
		 seconds, w->has_workload ? w->workload_label : "general");
	if (describe(w, &hooks, label) == FST_EXIT_USAGE)
		return false;
	w->unsaved |= UI_UNSAVED_OBSERVE;
	return true;
}
