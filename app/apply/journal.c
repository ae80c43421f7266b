/* The undo journal: one JSON file per run of `fstune apply`, written before each change and
 * atomically replaced as the run goes on. The run record and each change sit on a line of their own
 * with a checksum over their content, so a hand edit is found and named by its line (doc/journal.md). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "app/apply/apply.h"
#include "fstune/utf8.h"
#include "lib/dirnames.h"
#include "lib/facts_schema.h"
#include "lib/xalloc.h"

#define JOURNAL_SCHEMA "fstune.journal/1"

static const char *const change_states[] = {"planned", "pending", "done", "failed", "undoing", "rolled-back", "undone",
					   NULL};
static const char *const run_states[] = {"running", "done", "rolled-back", "interrupted", NULL};

void journal_set_bytes(json_t *rec, const char *field, const char *bytes)
{
	json_t *list = json_object_get(rec, "escaped");

	for (size_t i = json_array_size(list); i-- > 0;)
		if (!strcmp(json_string_value(json_array_get(list, i)), field))
			json_array_remove(list, i);
	if (!bytes) {
		json_object_set_new(rec, field, json_null());
	} else if (fst_utf8_is_valid(bytes, strlen(bytes))) {
		json_object_set_new(rec, field, json_string(bytes));
	} else {
		char *e = fst_utf8_escape(bytes);

		json_object_set_new(rec, field, json_string(e));
		if (!list)
			json_object_set_new(rec, "escaped", list = json_array());
		json_array_append_new(list, json_string(field));
		free(e);
	}
	if (list && json_array_size(list) == 0)
		json_object_del(rec, "escaped");
}

char *journal_get_bytes(const json_t *rec, const char *field)
{
	const char *s = json_string_value(json_object_get(rec, field));
	size_t i;
	json_t *e;

	if (!s)
		return NULL;
	json_array_foreach(json_object_get(rec, "escaped"), i, e)
		if (json_is_string(e) && !strcmp(json_string_value(e), field))
			return fst_utf8_unescape(s);
	return xstrdup(s);
}

const char *journal_now(void)
{
	static char buf[40];
	struct timeval tv;
	struct tm tm;

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ".%03ldZ", (long)tv.tv_usec / 1000);
	return buf;
}

const char *journal_host(void)
{
	static char host[256];

	if (!host[0] && gethostname(host, sizeof host - 1) != 0)
		strcpy(host, "localhost");
	return host;
}

char *journal_record_sum(const json_t *rec)
{
	json_t *copy = json_copy((json_t *)rec);
	char *text, *sum;

	json_object_del(copy, "sum");
	text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	sum = xasprintf("crc32c:%s", files_crc(text, strlen(text)));
	free(text);
	json_decref(copy);
	return sum;
}

static void seal(json_t *rec)
{
	char *sum = journal_record_sum(rec);

	json_object_del(rec, "sum"); /* last again, after fields added since */
	json_object_set_new(rec, "sum", json_string(sum));
	free(sum);
}

/* The document as fstune writes it: one record a line, so a checksum failure names one line. */
static char *render(json_t *doc)
{
	json_t *changes = json_object_get(doc, "changes"), *c;
	char *run, *out, *line;
	size_t i;

	seal(json_object_get(doc, "run"));
	run = json_dumps(json_object_get(doc, "run"), JSON_PRESERVE_ORDER);
	out = xasprintf("{\n  \"schema\": \"%s\",\n  \"run\": %s,\n  \"changes\": [", JOURNAL_SCHEMA, run);
	free(run);
	json_array_foreach(changes, i, c) {
		char *rec, *grown;

		seal(c);
		rec = json_dumps(c, JSON_PRESERVE_ORDER);
		grown = xasprintf("%s%s\n    %s", out, i ? "," : "", rec);
		free(out);
		free(rec);
		out = grown;
	}
	line = xasprintf("%s%s]\n}\n", out, json_array_size(changes) ? "\n  " : "");
	free(out);
	return line;
}

int journal_save(struct journal *j, struct fst_error *err)
{
	char *text = render(j->doc);
	int status = files_write(j->root, j->path, text, 0644, err);

	free(j->text);
	j->text = text;
	return status;
}

/* A host name as it may stand in a file name. */
static char *name_safe(const char *s)
{
	char *out = xstrdup(s && *s ? s : "localhost");

	for (char *p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '.')
			*p = '_';
	return out;
}

/* A journal of `root` at `path` (as on the target system). */
static struct journal *journal_new(const char *root, const char *path)
{
	struct journal *j = xcalloc(1, sizeof(*j));

	j->root = root ? xstrdup(root) : NULL;
	j->path = xstrdup(path);
	j->shown = files_rooted(root, path);
	return j;
}

/* Whether the journal directory holds `name` already. */
static bool journal_exists(const char *root, const char *name)
{
	struct fst_error e = FST_ERROR_INIT;
	int dfd = files_open_dir(root, JOURNAL_DIR, &e);
	struct stat st;
	bool found = dfd >= 0 && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;

	if (dfd >= 0)
		close(dfd);
	return found;
}

struct journal *journal_create(const char *root, json_t *run, struct fst_error *err)
{
	struct journal *j;
	char stamp[32], *host = name_safe(journal_host()), *name, *path;
	time_t now = time(NULL);
	struct tm tm;

	if (files_mkdirs(root, JOURNAL_DIR, NULL, err) != FST_EXIT_OK) {
		json_decref(run);
		free(host);
		return NULL;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	name = xasprintf("%s-%s.json", stamp, host);
	/* a second run within the same second: its own file, sorting after the first */
	for (int k = 2; journal_exists(root, name) && k < 1000; k++) {
		free(name);
		name = xasprintf("%s-%s~%d.json", stamp, host, k);
	}
	path = xasprintf("%s/%s", JOURNAL_DIR, name);
	j = journal_new(root, path);
	free(path);
	free(name);
	free(host);
	j->doc = json_pack("{s:s, s:o, s:[]}", "schema", JOURNAL_SCHEMA, "run", run, "changes");
	if (journal_save(j, err) != FST_EXIT_OK) {
		journal_free(j);
		return NULL;
	}
	return j;
}

void journal_free(struct journal *j)
{
	if (!j)
		return;
	free(j->root);
	free(j->path);
	free(j->shown);
	free(j->text);
	json_decref(j->doc);
	free(j);
}

/* A small scanner of the JSON text: the line where top-level member `key`'s value starts (index <
 * 0), or where element `index` of that array starts. Strings are skipped whole, so a brace or a
 * comma inside one counts for nothing. 0 when not found. */
static int line_of(const char *text, const char *key, long index)
{
	int line = 1, depth = 0, in_key_value = 0;
	long element = -1;
	bool expect_key = false, after_colon = false;
	size_t klen = strlen(key);

	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			line++;
			continue;
		}
		if (isspace((unsigned char)*p))
			continue;
		if (in_key_value && depth == 2 && element < 0 && index >= 0) {
			element = 0; /* the first element of the array starts here */
			if (index == 0 && *p != ']')
				return line;
		}
		if (*p == '"') {
			const char *start = ++p;

			while (*p && *p != '"')
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (!*p)
				return 0;
			if (depth == 1 && expect_key) {
				in_key_value = (size_t)(p - start) == klen && !strncmp(start, key, klen);
				expect_key = false;
			} else if (after_colon && in_key_value && depth == 1 && index < 0) {
				return line;
			}
			after_colon = false;
			continue;
		}
		if (after_colon && in_key_value && depth == 1 && index < 0)
			return line;
		after_colon = false;
		switch (*p) {
		case '{':
		case '[':
			depth++;
			expect_key = *p == '{' && depth == 1;
			break;
		case '}':
		case ']':
			depth--;
			if (depth == 1 && in_key_value && index >= 0)
				return 0;
			break;
		case ',':
			if (depth == 1) {
				expect_key = true;
				in_key_value = 0;
			} else if (depth == 2 && in_key_value && index >= 0 && ++element == index) {
				for (p++; *p && isspace((unsigned char)*p); p++)
					line += *p == '\n';
				return line;
			}
			break;
		case ':':
			after_colon = depth == 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

int journal_line(const struct journal *j, long index)
{
	return j->text ? line_of(j->text, index < 0 ? "run" : "changes", index) : 0;
}

static bool is_one_of(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* What is wrong with a change's fields, or NULL. */
static const char *change_problem(const json_t *c)
{
	const json_t *files = json_object_get(c, "files");
	size_t i;
	json_t *f;

	if (!json_is_string(json_object_get(c, "id")) || !json_is_string(json_object_get(c, "setting")))
		return "\"id\" and \"setting\" must be strings";
	if (!is_one_of(json_string_value(json_object_get(c, "state")), change_states))
		return "\"state\" is not one fstune writes";
	if (!facts_schema_matches(FACTS_T_STRLIST, json_object_get(c, "apply")) ||
	    !facts_schema_matches(FACTS_T_STRLIST, json_object_get(c, "revert")))
		return "\"apply\" and \"revert\" must be arrays of command lines";
	if (!json_is_boolean(json_object_get(c, "live")))
		return "\"live\" must be true or false";
	if (files && !json_is_array(files))
		return "\"files\" must be an array";
	json_array_foreach(files, i, f) {
		const char *path = json_string_value(json_object_get(f, "path"));
		const json_t *prev = json_object_get(f, "previous");

		if (!path || path[0] != '/' || strstr(path, "/../") || !json_is_string(json_object_get(f, "written")) ||
		    !(json_is_null(prev) || json_is_string(prev)))
			return "a file needs an absolute \"path\", \"previous\" (text or null) and \"written\"";
	}
	return NULL;
}

static const char *run_problem(const json_t *run)
{
	if (!json_is_object(run))
		return "\"run\" must be an object";
	if (!is_one_of(json_string_value(json_object_get(run, "state")), run_states))
		return "\"state\" is not one fstune writes";
	if (!json_is_string(json_object_get(run, "host")) || !json_is_string(json_object_get(run, "started")))
		return "\"host\" and \"started\" must be strings";
	if (!json_is_boolean(json_object_get(run, "live")))
		return "\"live\" must be true or false";
	return NULL;
}

/* Checks one record: its checksum first (an edit), then its fields. */
static bool record_ok(const struct journal *j, const json_t *rec, long index, struct fst_error *err)
{
	const char *what = index < 0 ? "the run record" : "a change";
	const char *sum = json_string_value(json_object_get(rec, "sum"));
	const char *problem = index < 0 ? run_problem(rec) : json_is_object(rec) ? change_problem(rec) : "not an object";
	char *want = json_is_object(rec) ? journal_record_sum(rec) : NULL;
	bool ok = false;

	if (!json_is_object(rec))
		fst_error_set(err, FST_EXIT_USAGE, "%s line %d: %s: %s", j->shown, journal_line(j, index), what, problem);
	else if (!sum || strcmp(sum, want))
		fst_error_set(err, FST_EXIT_USAGE,
			      "%s line %d: %s%s%s does not match its checksum: the journal was edited by hand, and "
			      "fstune will not undo from it (restore the file from a backup, or undo by hand with "
			      "the \"revert\" commands it lists)", j->shown, journal_line(j, index), what,
			      index < 0 ? "" : " of ", index < 0 ? "" : json_string_value(json_object_get(rec, "id")) ?
			      json_string_value(json_object_get(rec, "id")) : "?");
	else if (problem)
		fst_error_set(err, FST_EXIT_USAGE, "%s line %d: %s: %s", j->shown, journal_line(j, index), what, problem);
	else
		ok = true;
	free(want);
	return ok;
}

/* The journal directory holding `path`, owned by the user running fstune and not writable by others:
 * a journal is read only from there. */
static int check_journal_dir(const char *root, const char *path, struct fst_error *err)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash && slash != path ? xstrndup(path, (size_t)(slash - path)) : xstrdup("/");
	char *shown = files_rooted(root, dir);
	int fd = files_open_dir(root, dir, err), status;

	status = fd < 0 ? FST_EXIT_REFUSED : files_check_owner(fd, "the journal directory", shown, err);
	if (fd >= 0)
		close(fd);
	free(shown);
	free(dir);
	return status;
}

struct journal *journal_load(const char *root, const char *path, struct fst_error *err)
{
	struct journal *j = journal_new(root, path);
	json_error_t jerr;
	json_t *changes, *c;
	size_t i;
	int rc;

	if (check_journal_dir(root, path, err) != FST_EXIT_OK) {
		journal_free(j);
		return NULL;
	}
	rc = files_read_owned(root, path, &j->text, "the journal", err);
	if (rc <= 0) {
		if (rc == 0)
			fst_error_set(err, FST_EXIT_USAGE, "%s: no such journal (fstune history lists them)", j->shown);
		else if (err->status != FST_EXIT_REFUSED)
			err->status = FST_EXIT_USAGE;
		journal_free(j);
		return NULL;
	}
	j->doc = json_loads(j->text, JSON_REJECT_DUPLICATES, &jerr);
	if (!j->doc) {
		fst_error_set(err, FST_EXIT_USAGE, "%s line %d: not a journal: %s", j->shown, jerr.line, jerr.text);
		goto bad;
	}
	if (!json_is_object(j->doc) ||
	    !is_one_of(json_string_value(json_object_get(j->doc, "schema")), (const char *const[]){JOURNAL_SCHEMA, NULL})) {
		fst_error_set(err, FST_EXIT_USAGE, "%s line %d: not a %s document", j->shown,
			      json_is_object(j->doc) ? line_of(j->text, "schema", -1) : 1, JOURNAL_SCHEMA);
		goto bad;
	}
	if (!record_ok(j, json_object_get(j->doc, "run"), -1, err))
		goto bad;
	changes = json_object_get(j->doc, "changes");
	if (!json_is_array(changes)) {
		fst_error_set(err, FST_EXIT_USAGE, "%s line %d: \"changes\" must be an array", j->shown,
			      line_of(j->text, "changes", -1));
		goto bad;
	}
	json_array_foreach(changes, i, c)
		if (!record_ok(j, c, (long)i, err))
			goto bad;
	return j;
bad:
	journal_free(j);
	return NULL;
}

json_t *journal_list(const char *root)
{
	struct fst_error e = FST_ERROR_INIT;
	json_t *out = json_array();
	int dfd = files_open_dir(root, JOURNAL_DIR, &e);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	char **names;
	size_t n;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return out;
	}
	names = dir_names(d, ".json", &n);
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", JOURNAL_DIR, names[i]);

		json_array_append_new(out, fst_json_text(p));
		free(p);
		free(names[i]);
	}
	free(names);
	return out;
}

bool journal_is_undone(const struct journal *j)
{
	const json_t *undo = json_object_get(json_object_get(j->doc, "run"), "undo");

	return is_one_of(json_string_value(json_object_get(undo, "state")), (const char *const[]){"undone", NULL});
}

int journal_lock(const char *root, FILE *log, struct fst_error *err)
{
	char *shown = files_rooted(root, JOURNAL_DIR "/.lock"), *dir = files_rooted(root, JOURNAL_DIR);
	int dfd = -1, fd = -1;

	if (files_mkdirs(root, JOURNAL_DIR, NULL, err) == FST_EXIT_OK && (dfd = files_open_dir(root, JOURNAL_DIR, err)) >= 0 &&
	    files_check_owner(dfd, "the journal directory", dir, err) == FST_EXIT_OK) {
		fd = openat(dfd, ".lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			fst_error_set(err, FST_EXIT_REFUSED, "cannot open %s: %s", shown, strerror(errno));
		} else if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			fst_error_set(err, FST_EXIT_REFUSED, "another fstune apply or undo is running (it holds %s): "
				      "wait for it, then run this again", shown);
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		err->status = FST_EXIT_REFUSED; /* before any change: nothing was done (read-only, full) */
	else
		apply_sweep_temps(root, log);
	if (dfd >= 0)
		close(dfd);
	free(dir);
	free(shown);
	return fd;
}

bool journal_has_undoable(const struct journal *j)
{
	size_t i;
	json_t *c;

	json_array_foreach(json_object_get(j->doc, "changes"), i, c)
		if (is_one_of(json_string_value(json_object_get(c, "state")),
			      (const char *const[]){"done", "pending", "failed", "undoing", NULL}))
			return true;
	return false;
}

long apply_test_pause_after(void)
{
	const char *v = getenv("FSTUNE_TEST_PAUSE_AFTER_CHANGE");

	return v && *v ? strtol(v, NULL, 10) : 0;
}
