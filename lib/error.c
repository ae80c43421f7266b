/* The error convention: library code fills a struct fst_error, app/ prints it (error.h). */
#include "config.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fstune/error.h"
#include "fstune/status.h"
#include "fstune/utf8.h"

int fst_error_set(struct fst_error *err, int status, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return status;
	err->status = status;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return status;
}

void fst_error_clear(struct fst_error *err)
{
	err->status = FST_EXIT_OK;
	err->msg[0] = '\0';
}

/* "fstune: MSG" on stderr; a message may quote what a file held (a path, a value): its control
 * characters are written visibly, as the text renderers write them (fstune/utf8.h). */
static void say(const char *msg)
{
	unsigned char held = 0;

	fputs("fstune: ", stderr);
	fst_text_visible_write(stderr, msg, strlen(msg), &held);
	fst_text_visible_end(stderr, &held);
	fputc('\n', stderr);
}

void fst_error_print(const struct fst_error *err)
{
	say(err->msg[0] ? err->msg : "unknown error");
}

void fst_vwarn(const char *fmt, va_list ap)
{
	char msg[2048];

	vsnprintf(msg, sizeof msg, fmt, ap);
	say(msg);
}

void fst_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fst_vwarn(fmt, ap);
	va_end(ap);
}

/* REFUSED (4) beats PARTIAL (3) beats THRESHOLD (1); USAGE (2) stops a run before the others arise,
 * so when it is present it is what the run ends with. */
int fst_exit_merge(int a, int b)
{
	static const int rank[] = {
		[FST_EXIT_OK] = 0, [FST_EXIT_THRESHOLD] = 1, [FST_EXIT_PARTIAL] = 2,
		[FST_EXIT_REFUSED] = 3, [FST_EXIT_USAGE] = 4,
	};

	if (a < 0 || a > FST_EXIT_REFUSED)
		return a;
	if (b < 0 || b > FST_EXIT_REFUSED)
		return b;
	return rank[a] >= rank[b] ? a : b;
}

/* Only async-signal-safe calls: sigaction, sigprocmask, raise. */
void fst_exit_by_signal(int sig)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
