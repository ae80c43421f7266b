/* The wizard's state that every screen and step changes: the message line, the session (opened
 * through the session pipeline, dropped with what was built on it), and which steps can be entered.
 * Below the screens and the loop, so that none of them calls up into the wizard's main. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/wizard/ui_int.h"

void ui_message(struct ui_wizard *w, enum ui_role role, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->message, sizeof(w->message), fmt, ap);
	va_end(ap);
	w->message_role = role;
}

void ui_wizard_drop_session(struct ui_wizard *w)
{
	session_free(w->session);
	w->session = NULL;
	w->preset = NULL;
	w->has_workload = false;
	memset(&w->bench, 0, sizeof(w->bench));
}

/* The wizard's session, through the pipeline: probed (target) or read (facts_path), rules loaded,
 * the accepted findings marked at each evaluation; ready for a workload. On failure the message is
 * the wizard's. */
bool ui_wizard_open_session(struct ui_wizard *w, const char *target, const char *facts_path)
{
	struct fst_error err = FST_ERROR_INIT;
	struct session_plan plan = {
		.target = target,
		.facts_path = facts_path,
		.target_os = w->target_os,
		.is_verbose = w->is_verbose,
		.rules = &w->rules_opt,
		.accepted = w->accepted,
	};
	struct session *s;

	session_run(&plan, &s, &err);
	if (!s) {
		ui_message(w, UI_ERROR, "%s", err.msg[0] ? err.msg : "cannot examine this target");
		return false;
	}
	ui_wizard_drop_session(w);
	w->session = s;
	return true;
}

bool ui_wizard_open_target(struct ui_wizard *w, const char *arg)
{
	if (!ui_wizard_open_session(w, arg, NULL))
		return false;
	ui_message(w, UI_OK, "probed %s: %zu facts unavailable", arg,
		   json_object_size(json_object_get(w->session->facts->doc, "unavailable")));
	return true;
}

bool ui_wizard_can_enter(const struct ui_wizard *w, enum ui_screen_id id)
{
	switch (id) {
	case UI_SCR_TARGET:
		return true;
	case UI_SCR_WORKLOAD:
		return w->session != NULL;
	default:
		return w->session != NULL && w->has_workload;
	}
}
