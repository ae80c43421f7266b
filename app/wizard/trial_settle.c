/* "Settle this by trial" on the Advice screen: runs `fstune trial` on a 1 GiB image beside the target,
 * with the terminal handed to it for its progress: the filesystem as it is now (the baseline) against
 * the advice's mkfs, measured on the whole workload of the session (its workload.* facts: preset,
 * sizes, I/O size, sync, sample). Its result joins the session (session_merge_trial), so the engine
 * marks the advice it measured at the next evaluation, and the Trial screen shows it. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/wizard/ui_int.h"
#include "lib/xalloc.h"
#include "fstune/status.h"

#define IMAGE_BYTES (1ull << 30)
#define KEEP_FREE_BYTES (512ull << 20) /* the benchmarks' own margin for other writers */

/* A typed setting value as the word mkfs takes; NULL for anything but a number or a string. */
static char *value_word(const json_t *v)
{
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

/* The advice's mkfs arguments with its recommended value put back to the current one (-b 4096 with
 * current 1024: -b 1024; xfs -i size=512 with current 256: -i size=256): the filesystem as it is.
 * NULL when the advice names no value that can be put back. */
static char **current_args(const struct report_rec *rec)
{
	const struct report_mkfs_spec *mkfs = rec->mkfs;
	char *cur = value_word(rec->current), *want = value_word(rec->recommended), **args;
	bool is_put_back = false;

	if (!cur || !want) {
		free(cur);
		free(want);
		return NULL;
	}
	args = xcalloc(mkfs->n_args + 1, sizeof *args);
	for (size_t i = 0; i < mkfs->n_args; i++) {
		size_t n = strlen(mkfs->args[i]), k = strlen(want);

		if (i > 0 && !is_put_back && n >= k && !strcmp(mkfs->args[i] + n - k, want)) {
			args[i] = xasprintf("%.*s%s", (int)(n - k), mkfs->args[i], cur);
			is_put_back = true;
		} else {
			args[i] = xstrdup(mkfs->args[i]);
		}
	}
	free(cur);
	free(want);
	if (!is_put_back) {
		for (size_t i = 0; i < mkfs->n_args; i++)
			free(args[i]);
		free(args);
		return NULL;
	}
	return args;
}

/* "FS:ARGS" of n words; NULL when one cannot be a candidate's word. */
static char *spec_of(const char *fs, char *const *args, size_t n)
{
	char *out = xasprintf("%s:", fs);

	for (size_t i = 0; i < n; i++) {
		char *next;

		if (strpbrk(args[i], " ;\t\n")) {
			free(out);
			return NULL;
		}
		next = xasprintf("%s%s%s", out, i ? " " : "", args[i]);
		free(out);
		out = next;
	}
	return out;
}

/* The candidates: the filesystem as it is (or, when that cannot be said, the mkfs defaults) first, as
 * the baseline, then the advice's mkfs. NULL when the recommendation carries no mkfs spec, or an
 * argument a candidate cannot hold. */
static char *candidates_of(const struct report_rec *rec)
{
	const struct report_mkfs_spec *mkfs = rec->mkfs;
	char **cur, *base, *advice, *out;

	if (!mkfs || !mkfs->fs || !mkfs->n_args || !(advice = spec_of(mkfs->fs, mkfs->args, mkfs->n_args)))
		return NULL;
	cur = current_args(rec);
	base = cur ? spec_of(mkfs->fs, cur, mkfs->n_args) : NULL;
	if (!base)
		base = xasprintf("%s:", mkfs->fs);
	out = xasprintf("%s;%s", base, advice);
	for (size_t i = 0; cur && i < mkfs->n_args; i++)
		free(cur[i]);
	free(cur);
	free(base);
	free(advice);
	return out;
}

/* The directory the trial's image goes in: the target's, or its filesystem's mount point. */
static const char *image_dir(const struct ui_wizard *w)
{
	const struct probe_target *t = w->session ? w->session->target : NULL;

	return !t ? NULL : t->kind == TARGET_DIRECTORY ? t->path : t->mount_point;
}

bool ui_trial_applies(const struct ui_wizard *w, const struct report_rec *rec)
{
	char *cands = rec && rec->disruption && !strcmp(rec->disruption, "reformat") ? candidates_of(rec) : NULL;
	bool ok = cands && image_dir(w);

	free(cands);
	return ok;
}

/* Runs the trial with the terminal its own; the wizard ignores the keyboard's signals meanwhile (the
 * trial handles them and cleans up). Returns its exit status (128+n when a signal ended it), or -1. */
static int run_trial(const char *const argv[])
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	int status = -1;
	char line[8];
	pid_t pid;

	def_prog_mode();
	endwin();
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execv("/proc/self/exe", (char *const *)argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	printf("\nfstune trial ended (%s %d): press Enter to return to the wizard\n",
	       pid > 0 && WIFEXITED(status) ? "status" : "signal",
	       pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : pid > 0 ? WTERMSIG(status) : -1);
	fflush(stdout);
	if (!fgets(line, sizeof line, stdin))
		clearerr(stdin);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	reset_prog_mode();
	refresh();
	if (pid <= 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The session's workload, as a facts file the trial reads (--workload-from): the whole description,
 * sampled percentiles included. Returns the file's path (caller unlinks and frees), or NULL. */
static char *workload_file(const struct ui_wizard *w)
{
	const char *dir = getenv("TMPDIR") && *getenv("TMPDIR") == '/' ? getenv("TMPDIR") : "/tmp";
	char *path = xasprintf("%s/fstune-trial-workload.XXXXXX", dir), *text;
	struct facts *f = facts_new();
	int fd = mkstemp(path);
	bool ok;

	facts_copy_branch(f, w->session->facts, "workload");
	text = facts_to_json(f);
	ok = fd >= 0 && text && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0)
		close(fd);
	free(text);
	facts_free(f);
	if (!ok) {
		if (fd >= 0)
			unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

/* The trial's result into the session (the engine marks the advice at the evaluation) and onto the
 * Trial screen. */
static bool adopt_trial(struct ui_wizard *w, const char *path)
{
	struct fst_error err = FST_ERROR_INIT;
	json_t *doc = json_load_file(path, 0, NULL);
	char *profile = NULL;
	bool ok = doc && session_merge_trial(w->session, path, &profile, &err) == FST_EXIT_OK;

	if (ok) {
		session_evaluate(w->session);
		ui_view_trial(w, doc, COLS - 4);
	}
	free(profile);
	json_decref(doc);
	return ok;
}

/* Checks that the advice can be tried here; the directory the image goes into, or NULL (said). */
static const char *trial_dir(struct ui_wizard *w, const struct report_rec *rec, const char *cands)
{
	const char *dir = image_dir(w);
	struct statvfs vfs;

	if (!rec->disruption || strcmp(rec->disruption, "reformat") != 0 || !cands) {
		ui_message(w, UI_ERROR, "only advice that makes a new filesystem (with its mkfs command) is settled "
			   "by trial");
		return NULL;
	}
	if (!dir) {
		ui_message(w, UI_ERROR, "a trial needs a directory for its 1 GiB image: open a directory or a "
			   "mounted filesystem (or run fstune trial --device on a scratch disk)");
		return NULL;
	}
	if (statvfs(dir, &vfs) < 0 || (unsigned long long)vfs.f_bavail * vfs.f_frsize < IMAGE_BYTES + KEEP_FREE_BYTES) {
		ui_message(w, UI_ERROR, "%s has too little free space for a 1 GiB trial image and 512 MiB left "
			   "over", dir);
		return NULL;
	}
	return dir;
}

bool ui_trial_settle(struct ui_wizard *w, const struct report_rec *rec)
{
	char *cands = candidates_of(rec), *image, *out, *wl;
	const char *argv[16], *dir = trial_dir(w, rec, cands);
	int fd, st, n = 0;
	bool ok = false;

	if (!dir || !(wl = workload_file(w))) {
		if (dir)
			ui_message(w, UI_ERROR, "cannot write the workload for the trial: %s", strerror(errno));
		free(cands);
		return false;
	}
	image = xasprintf("%s/.fstune-trial.%ld.img", strcmp(dir, "/") ? dir : "", (long)getpid());
	out = xasprintf("%s/fstune-trial-result.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(out)) < 0) {
		ui_message(w, UI_ERROR, "cannot make a temporary file: %s", strerror(errno));
		unlink(wl);
		free(cands), free(image), free(out), free(wl);
		return false;
	}
	close(fd);
	argv[n++] = "fstune";
	argv[n++] = "trial";
	argv[n++] = "--image";
	argv[n++] = image;
	argv[n++] = "--size";
	argv[n++] = "1G";
	argv[n++] = "--candidates";
	argv[n++] = cands;
	argv[n++] = "--workload-from";
	argv[n++] = wl;
	argv[n++] = "--json";
	argv[n++] = "--output";
	argv[n++] = out;
	argv[n] = NULL;
	st = run_trial(argv);
	/* a trial stopped by a signal still wrote the rounds it completed, marked partial */
	if ((st == 0 || st == FST_EXIT_PARTIAL || st > 128) && adopt_trial(w, out)) {
		w->unsaved |= UI_UNSAVED_TRIAL;
		ui_message(w, UI_OK, "%s: the advice it measured is marked in Advice (Enter on it shows the numbers)",
			   st ? "the trial stopped early; its completed rounds" : "trial done");
		ok = true;
	} else {
		ui_message(w, UI_ERROR, "the trial ended with status %d%s: nothing was marked", st,
			   st > 128 ? " (stopped by a signal; it removed what it made)" : "");
	}
	unlink(out);
	unlink(wl);
	free(cands), free(image), free(out), free(wl);
	return ok;
}
