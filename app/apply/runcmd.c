/* Runs the setting table's command lines: they are already quoted for a POSIX shell, so they go to
 * /bin/sh -c as they are, never split or quoted again. Also what apply and undo share around them:
 * the run's log lines and the signals held while a change is under way. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "fstune/utf8.h"
#include "lib/xalloc.h"

#define OUTPUT_KEEP 2048

/* Reads the child's output to the end (so it never blocks on a full pipe), keeping the start. */
static char *drain(int fd)
{
	char *buf = xcalloc(1, OUTPUT_KEEP + 1), tmp[1024];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, tmp, sizeof tmp)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (len < OUTPUT_KEEP) {
			size_t k = (size_t)n < OUTPUT_KEEP - len ? (size_t)n : OUTPUT_KEEP - len;

			memcpy(buf + len, tmp, k);
			len += k;
		}
	}
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	return buf;
}

int apply_sh(const char *cmd, char **output)
{
	int fds[2], status;
	pid_t pid;

	*output = NULL;
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	*output = drain(fds[0]);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void apply_hold_signals(bool hold)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(hold ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void apply_log(FILE *log, const char *fmt, ...)
{
	va_list ap;
	char *line, *shown;

	if (!log)
		return;
	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		abort();
	va_end(ap);
	/* a line quotes commands and paths from journals and files: nothing in it may steer a terminal,
	 * and a line break in a mount point's name may not make two lines of one */
	shown = fst_text_visible(line, true);
	fprintf(log, "fstune: %s\n", shown);
	fflush(log);
	free(shown);
	free(line);
}
