/* The progress line on stderr, drawn one way for every command (progress.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "app/render/progress.h"

/* Back to the line's start, and erase to its end: a shorter text leaves nothing of a longer one. */
#define ERASE_LINE "\r\033[K"

void progress_init(struct progress *p, bool is_quiet)
{
	p->is_quiet = is_quiet;
	p->is_live = !is_quiet && isatty(STDERR_FILENO);
	p->is_shown = false;
}

void progress_update(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->is_live)
		return;
	fputs(ERASE_LINE, stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	p->is_shown = true;
}

void progress_clear(struct progress *p)
{
	if (p->is_shown)
		fputs(ERASE_LINE, stderr);
	p->is_shown = false;
}

void progress_done(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p->is_quiet)
		return;
	progress_clear(p);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool progress_observe_tick(double done_s, double total_s, void *arg)
{
	progress_update(arg, "observing: %.0f of %.0f s", done_s, total_s);
	return true;
}
