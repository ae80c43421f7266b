/* Runs one piece of sandboxed work in a forked child and reads its JSON answer over a pipe: the
 * wall-clock limit that also stops what the instruction hook cannot see (a pathological pattern
 * inside string.find, a finalizer loop with hooks off) is a SIGKILL of that child. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "rules/internal.h"
#include "fstune/clock.h"

#define ANSWER_MAX (16u << 20) /* bytes: more than any honest list of recommendations */

static json_t *child_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static json_t *child_error(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_pack("{s:{s:s}}", "error", "message", buf);
}

/* In the child: no signal handler of the parent (a bench cleanup) may run here; die with the
 * parent; no new files (the rule cannot open any, this is the second wall). */
static void child_setup(int wfd, pid_t parent)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGCHLD};
	struct rlimit zero = {0, 0};

	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) /* the parent died before prctl: nobody would ever kill us */
		_exit(1);
	if (wfd > 3)
		close_range(3, (unsigned)wfd - 1, 0);
	close_range((unsigned)wfd + 1, ~0U, 0);
	setrlimit(RLIMIT_FSIZE, &zero);
	setrlimit(RLIMIT_NOFILE, &zero);
}

static void write_all(int fd, const char *s, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* The parent's reading end: a buffer of what the child wrote, consumed line by line. */
struct reader {
	int fd;
	char *buf;   /* bytes read and not yet consumed */
	size_t len;  /* bytes in buf */
	size_t cap;  /* bytes allocated */
	bool is_eof;
};

enum line_result { LINE_OK, LINE_EOF, LINE_TIMEOUT, LINE_TOO_BIG };

/* Waits for one complete line until `deadline`; on LINE_OK *line is malloc'd. */
static enum line_result read_line(struct reader *r, long long deadline, char **line)
{
	for (;;) {
		char *nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
		long long left;
		struct pollfd p = {r->fd, POLLIN, 0};
		ssize_t n;
		int rc;

		if (nl) {
			size_t l = (size_t)(nl - r->buf);

			*line = xstrndup(r->buf, l);
			memmove(r->buf, nl + 1, r->len - l - 1);
			r->len -= l + 1;
			return LINE_OK;
		}
		if (r->is_eof)
			return LINE_EOF;
		if (r->len > ANSWER_MAX)
			return LINE_TOO_BIG;
		left = deadline - (long long)(fst_clock_ns() / 1000000);
		if (left <= 0)
			return LINE_TIMEOUT;
		rc = poll(&p, 1, (int)left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0)
			return LINE_TIMEOUT;
		if (r->cap - r->len < 4096) {
			r->cap = r->cap ? r->cap * 2 : 65536;
			r->buf = xrealloc(r->buf, r->cap);
		}
		n = read(r->fd, r->buf + r->len, r->cap - r->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			r->is_eof = true;
		else
			r->len += (size_t)n;
	}
}

/* In the child: every item from `first` on, one JSON line each, then exit. */
_Noreturn static void child_main(int wfd, size_t first, size_t n, json_t *(*fn)(void *, size_t),
				 void *arg, pid_t parent)
{
	child_setup(wfd, parent);
	for (size_t i = first; i < n; i++) {
		json_t *answer = fn(arg, i);
		char *text = json_dumps(answer, JSON_COMPACT); /* no newline inside: one line each */

		if (!text)
			text = strdup("{\"error\":{\"message\":\"answer not representable as JSON\"}}");
		if (text) {
			write_all(wfd, text, strlen(text));
			write_all(wfd, "\n", 1);
		}
		free(text);
		json_decref(answer);
	}
	_exit(0); /* no atexit handlers or stdio flushes of the parent's state */
}

json_t *rules_run_batch(size_t n, json_t *(*fn)(void *arg, size_t i), void *arg,
			const struct rules_limits *lim)
{
	json_t *out = json_array();
	pid_t parent = getpid();
	size_t i = 0;

	while (i < n) {
		struct reader r = {0};
		int fds[2], status = 0;
		enum line_result lr = LINE_OK;
		pid_t pid;

		if (pipe2(fds, O_CLOEXEC) != 0 || (fflush(NULL), pid = fork()) < 0) {
			json_array_append_new(out, child_error("cannot start a rule process: %s",
							       strerror(errno)));
			i++;
			continue;
		}
		if (pid == 0) {
			close(fds[0]);
			child_main(fds[1], i, n, fn, arg, parent);
		}
		close(fds[1]);
		r.fd = fds[0];
		while (i < n) {
			char *line = NULL;
			json_t *a;

			lr = read_line(&r, (long long)(fst_clock_ns() / 1000000) + lim->timeout_ms, &line);
			if (lr != LINE_OK)
				break;
			a = json_loads(line, JSON_REJECT_DUPLICATES, NULL);
			free(line);
			if (!json_is_object(a)) {
				json_decref(a);
				a = child_error("rule process returned garbage");
			}
			json_array_append_new(out, a);
			i++;
		}
		if (lr != LINE_OK && lr != LINE_EOF)
			kill(pid, SIGKILL);
		close(fds[0]);
		free(r.buf);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (i >= n)
			break;
		/* Item i did not answer: it is the one that failed; the next child resumes after it. */
		if (lr == LINE_TIMEOUT)
			json_array_append_new(out, child_error("wall-clock limit of %ld ms exceeded: stopped",
							       lim->timeout_ms));
		else if (lr == LINE_TOO_BIG)
			json_array_append_new(out, child_error("answer larger than %u bytes", ANSWER_MAX));
		else if (WIFSIGNALED(status))
			json_array_append_new(out, child_error("rule process ended by signal %d%s",
							       WTERMSIG(status),
							       WTERMSIG(status) == SIGXCPU ? " (CPU time limit)" : ""));
		else
			json_array_append_new(out, child_error("rule process ended without an answer (status %d)",
							       WIFEXITED(status) ? WEXITSTATUS(status) : -1));
		i++;
	}
	return out;
}
