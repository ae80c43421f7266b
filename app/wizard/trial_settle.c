/* "Settle this by trial" on the Advice screen: runs `fstune trial` on a 1 GiB image beside the target,
 * with the terminal handed to it for its progress, and brings its trial.* facts back into the session,
 * so the reformat advice it settled is marked confirmed or contradicted (by the engine, at evaluation). */
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

#define IMAGE_BYTES (1ull << 30)
#define KEEP_FREE_BYTES (512ull << 20) /* the benchmarks' own margin for other writers */

/* "ext4:" and "ext4:-b 4096 -i 16384": the filesystem's defaults against the advice's merged mkfs.
 * NULL when the recommendation carries no mkfs spec, or an argument a candidate cannot hold. */
static char *candidates_of(const struct report_rec *rec)
{
	const struct report_mkfs_spec *mkfs = rec->mkfs;
	char *out;

	if (!mkfs || !mkfs->fs || !mkfs->n_args)
		return NULL;
	out = xasprintf("%s:;%s:", mkfs->fs, mkfs->fs);
	for (size_t i = 0; i < mkfs->n_args; i++) {
		char *next;

		if (strpbrk(mkfs->args[i], " ;\t\n")) {
			free(out);
			return NULL;
		}
		next = xasprintf("%s%s%s", out, i ? " " : "", mkfs->args[i]);
		free(out);
		out = next;
	}
	return out;
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

/* The trial document's trial.* facts, into the session's facts. */
static bool adopt_trial(struct ui_wizard *w, const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);
	json_t *trial = json_object_get(json_object_get(doc, "facts"), "trial");
	bool ok = json_is_object(trial);

	if (ok)
		facts_set_json(w->session->facts, "trial", json_deep_copy(trial), "trial");
	json_decref(doc);
	return ok;
}

bool ui_trial_settle(struct ui_wizard *w, const struct report_rec *rec)
{
	const struct probe_target *t = w->session ? w->session->target : NULL;
	const char *dir = !t ? NULL : t->kind == TARGET_DIRECTORY ? t->path : t->mount_point;
	const char *profile = w->session ? facts_get_string(w->session->facts, "workload.profile") : NULL;
	const char *argv[16], *disruption = rec->disruption;
	char *cands = candidates_of(rec), *image, *out;
	struct statvfs vfs;
	int fd, st, n = 0;
	bool ok = false;

	if (!disruption || strcmp(disruption, "reformat") != 0 || !cands) {
		ui_message(w, UI_ERROR, "only advice that makes a new filesystem (with its mkfs command) is settled "
			   "by trial");
		free(cands);
		return false;
	}
	if (!dir) {
		ui_message(w, UI_ERROR, "a trial needs a directory for its 1 GiB image: open a directory or a "
			   "mounted filesystem (or run fstune trial --device on a scratch disk)");
		free(cands);
		return false;
	}
	if (statvfs(dir, &vfs) < 0 || (unsigned long long)vfs.f_bavail * vfs.f_frsize < IMAGE_BYTES + KEEP_FREE_BYTES) {
		ui_message(w, UI_ERROR, "%s has too little free space for a 1 GiB trial image and 512 MiB left "
			   "over", dir);
		free(cands);
		return false;
	}
	image = xasprintf("%s/.fstune-trial.%ld.img", strcmp(dir, "/") ? dir : "", (long)getpid());
	out = xasprintf("%s/fstune-trial-result.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(out)) < 0) {
		ui_message(w, UI_ERROR, "cannot make a temporary file: %s", strerror(errno));
		free(cands), free(image), free(out);
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
	argv[n++] = "--json";
	argv[n++] = "--output";
	argv[n++] = out;
	if (profile) {
		argv[n++] = "--workload";
		argv[n++] = profile;
	}
	argv[n] = NULL;
	st = run_trial(argv);
	if (st == 0 && adopt_trial(w, out)) {
		session_evaluate(w->session);
		ui_message(w, UI_OK, "trial done: the advice it settles is marked confirmed or contradicted (Enter "
			   "on it shows the numbers)");
		ok = true;
	} else {
		ui_message(w, UI_ERROR, "the trial ended with status %d%s: nothing was marked", st,
			   st > 128 ? " (stopped by a signal; it removed what it made)" : "");
	}
	unlink(out);
	free(cands), free(image), free(out);
	return ok;
}
