/* A trial's result, opened when a trial started from Advice ends: the same text `fstune trial` writes
 * (trial_write_text of its document): per metric the table of candidates with medians, spreads, ranks
 * and ratios to the baseline, the verdicts in words, the A/A control, the environment. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/render/trial_render.h"
#include "app/wizard/ui_int.h"

enum { X_CLOSE = UI_ACT_SCREEN };

static const struct ui_key trial_keys[] = {
	UI_KEYS_SCROLL,
	UI_KEYS_ENTER_OR(KEY_LEFT, X_CLOSE, "back to the advice"),
	{0, 0, NULL, false},
};

/* The role of a line of the text: headings, verdicts, the rest. */
static enum ui_role role_of(const char *line)
{
	if (!strncmp(line, "Trial:", 6) || !strcmp(line, "Verdicts:") || !strcmp(line, "Control:") ||
	    !strcmp(line, "Environment:") || !strcmp(line, "Notes:") || !strcmp(line, "Caveats:") ||
	    strstr(line, " is better"))
		return UI_HEADING;
	if (strstr(line, "x faster") || strstr(line, "x slower"))
		return UI_OK;
	return UI_NORMAL;
}

void ui_view_trial(struct ui_wizard *w, const json_t *doc, int width)
{
	struct ui_lines *l = &w->trial.content;
	char *text = NULL, *save = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	ui_lines_clear(l);
	w->trial.top = 0;
	if (!mem || trial_write_text(doc, mem) < 0) {
		if (mem)
			fclose(mem);
		free(text);
		ui_lines_add(l, UI_ERROR, 0, "the trial's result could not be shown");
		return;
	}
	fclose(mem);
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* the text's own indent stays; a wrapped item's further lines go under its words */
		int lead = (int)strspn(line, " "), hang = !strncmp(line + lead, "- ", 2) ? 2 : 4;
		size_t n;
		char **parts = ui_wrap(line + lead, width - lead - hang, &n);

		for (size_t i = 0; i < n; i++)
			ui_lines_add(l, role_of(line), lead + (i ? hang : 0), "%s", parts[i]);
		ui_lines_free(parts, n);
	}
	free(text);
}

static void trial_draw(struct ui_wizard *w, const struct ui_area *a) { ui_view_draw(&w->trial, a); }

static enum ui_result trial_key(struct ui_wizard *w, int action, int ch)
{
	return ui_view_screen_key(w, &w->trial, action, X_CLOSE, UI_SCR_ADVICE);
}

const struct ui_screen ui_screen_trial = {
	.name = NULL,
	.help_intro = "The trial's result: each metric's table (the ratio to the baseline with its 95% interval "
		      "and verdict), the verdicts in words, the A/A control and the host's load. The advice it "
		      "measured is marked in Advice; Enter on it shows the numbers.",
	.keys = trial_keys,
	.draw = trial_draw,
	.key = trial_key,
};
