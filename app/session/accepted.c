/* Accepted findings (accepted.h): reading accepted.conf, matching entries against findings and facts,
 * and finding the stale ones. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "app/session/accepted.h"
#include "lib/xalloc.h"
#include "fstune/facts.h"
#include "fstune/path.h"
#include "fstune/status.h"

enum accepted_op { OP_NONE, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE };

static const struct {
	const char *text;
	enum accepted_op op;
} ops[] = {{"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}};

struct accepted_entry {
	char *id;
	char *key;           /* NULL: unconditional */
	enum accepted_op op;
	char *value;
	char *why;           /* NULL when the line has no comment */
	char *by;            /* "FILE:LINE" or "--accept" */
	bool is_used;        /* accepted at least one finding */
};

struct accepted {
	struct accepted_entry *v;
	size_t n;
};

struct accepted *accepted_new(void)
{
	return xcalloc(1, sizeof(struct accepted));
}

void accepted_free(struct accepted *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		free(a->v[i].id);
		free(a->v[i].key);
		free(a->v[i].value);
		free(a->v[i].why);
		free(a->v[i].by);
	}
	free(a->v);
	free(a);
}

bool accepted_is_empty(const struct accepted *a)
{
	return a->n == 0;
}

/* rule.name, each part lower_snake_case as rule ids and names are. */
static bool is_finding_id(const char *id)
{
	const char *dot = strchr(id, '.');

	if (!dot || dot == id || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = id; *p; p++)
		if (p != dot && !(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
			return false;
	return true;
}

static bool is_fact_key(const char *key)
{
	if (!*key || *key == '.')
		return false;
	for (const char *p = key; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_' || *p == '.'))
			return false;
	return key[strlen(key) - 1] != '.';
}

static struct accepted_entry *entry_push(struct accepted *a, const char *id, const char *by)
{
	struct accepted_entry *e;

	e = XAPPEND(a->v, a->n);
	e->id = xstrdup(id);
	e->by = xstrdup(by);
	return e;
}

int accepted_add(struct accepted *a, const char *id, const char *origin, struct fst_error *err)
{
	if (!is_finding_id(id))
		return fst_error_set(err, FST_EXIT_USAGE,
				     "%s '%s' is not a finding id: use RULE.NAME as the report shows it "
				     "(e.g. mount.lazytime)", origin, id);
	entry_push(a, id, origin);
	return FST_EXIT_OK;
}

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static size_t token_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !isspace((unsigned char)s[n]))
		n++;
	return n;
}

/* One non-blank line without its comment: ID [KEY OP VALUE]. Fills `e`'s condition. Returns NULL or
 * what is wrong with it. */
static const char *parse_condition(char *rest, struct accepted_entry *e)
{
	size_t n = token_len(rest), i;
	char *value;

	e->key = xstrndup(rest, n);
	if (!is_fact_key(e->key))
		return "KEY must be a dotted fact key such as fs.mount_point";
	rest = trim(rest + n);
	n = token_len(rest);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i].text) == n && strncmp(rest, ops[i].text, n) == 0)
			e->op = ops[i].op;
	if (e->op == OP_NONE)
		return "OP must be one of == != < <= > >=";
	value = trim(rest + n);
	n = strlen(value);
	if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
		value[n - 1] = '\0';
		value++;
	}
	if (!*value)
		return "a condition needs a VALUE: ID KEY OP VALUE";
	e->value = xstrdup(value);
	return NULL;
}

static int parse_line(struct accepted *a, char *line, const char *path, unsigned lineno, struct fst_error *err)
{
	char *hash = strchr(line, '#'), *body, *rest, *id, *by;
	const char *why = NULL, *problem = NULL;
	struct accepted_entry *e;
	int status = FST_EXIT_OK;
	size_t n;

	if (hash) {
		*hash = '\0';
		why = trim(hash + 1);
	}
	body = trim(line);
	if (!*body)
		return FST_EXIT_OK;
	n = token_len(body);
	rest = trim(body + n);
	id = xstrndup(body, n);
	by = xasprintf("%s:%u", path, lineno);
	if (!is_finding_id(id)) {
		status = fst_error_set(err, FST_EXIT_USAGE,
				       "%s: '%s' is not a finding id: use RULE.NAME as the report shows it", by, id);
	} else {
		e = entry_push(a, id, by);
		if (why && *why)
			e->why = xstrdup(why);
		if (*rest)
			problem = parse_condition(rest, e);
		if (problem)
			status = fst_error_set(err, FST_EXIT_USAGE, "%s: %s (the format is: ID [KEY OP VALUE] [# why])",
					       by, problem);
	}
	free(id);
	free(by);
	return status;
}

/* The accepted findings file open for reading; NULL with errno (ENOENT, EISDIR, PATH_ENOTREG: only a
 * regular file or the null device is opened, so a FIFO named by mistake cannot hang the run). */
static FILE *open_regular(const char *path)
{
	int pfd = open(path, O_PATH | O_CLOEXEC), fd, e;
	struct stat st;
	FILE *fp;

	if (pfd < 0)
		return NULL;
	fd = path_reopen_regular(pfd, &st);
	if (fd == -PATH_ENOTREG && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* no findings: --accepted /dev/null */
	close(pfd);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if ((fp = fdopen(fd, "r")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
	}
	return fp;
}

/* What to do when the accepted findings file does not open with `e`. */
static const char *open_advice(int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		return "give a file that exists (/dev/null accepts nothing)";
	case EACCES:
	case EPERM:
		return "make it readable to this user, or run as one who may read it";
	default:
		return "name the file itself: a regular file of lines ID [KEY OP VALUE] [# why], as fstune(1) "
		       "ACCEPTED FINDINGS describes";
	}
}

int accepted_load_file(struct accepted *a, const char *path, bool missing_ok, struct fst_error *err)
{
	FILE *fp = open_regular(path);
	char *line = NULL;
	size_t cap = 0;
	unsigned lineno = 0;
	int status = FST_EXIT_OK;

	if (!fp) {
		if (errno == ENOENT && missing_ok)
			return FST_EXIT_OK;
		return fst_error_set(err, FST_EXIT_USAGE, "cannot read the accepted findings file %s: %s: %s", path,
				     errno == EISDIR ? "is a directory" : path_strerror(errno), open_advice(errno));
	}
	while (status == FST_EXIT_OK && getline(&line, &cap, fp) != -1) {
		lineno++;
		status = parse_line(a, line, path, lineno, err);
	}
	if (status == FST_EXIT_OK && ferror(fp))
		status = fst_error_set(err, FST_EXIT_USAGE, "reading the accepted findings file %s: %s", path,
				       strerror(errno));
	free(line);
	fclose(fp);
	return status;
}

const char *accepted_default_path(bool no_system, bool *must_exist)
{
	const char *env = getenv("FSTUNE_ACCEPTED");

	*must_exist = env && *env;
	if (*must_exist)
		return env;
	return no_system ? NULL : ACCEPTED_DEFAULT_PATH;
}

/* The fact at a dotted key of a facts document (a report's "facts" member); NULL when absent.
 * facts_get only reads the document, so a report's member is looked at in place. */
const json_t *accepted_fact_at(const json_t *facts, const char *key)
{
	const struct facts view = {.doc = (json_t *)facts, .values_are_user = false};

	return facts_get(&view, key);
}

static bool parse_number(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return end != s && !*end && errno == 0;
}

static bool ordered(enum accepted_op op, int cmp)
{
	switch (op) {
	case OP_EQ: return cmp == 0;
	case OP_NE: return cmp != 0;
	case OP_LT: return cmp < 0;
	case OP_LE: return cmp <= 0;
	case OP_GT: return cmp > 0;
	case OP_GE: return cmp >= 0;
	default: return false;
	}
}

static bool scalar_equals(const json_t *v, const char *value)
{
	double d;

	if (json_is_string(v))
		return strcmp(json_string_value(v), value) == 0;
	if (json_is_boolean(v))
		return strcmp(value, json_is_true(v) ? "true" : "false") == 0;
	if (json_is_number(v) && parse_number(value, &d))
		return json_number_value(v) == d;
	return false;
}

static bool condition_holds(const struct accepted_entry *e, const json_t *facts)
{
	const json_t *v, *item;
	double want;
	size_t i;

	if (!e->key)
		return true;
	v = accepted_fact_at(facts, e->key);
	if (!v || json_is_null(v) || json_is_object(v))
		return false;
	if (json_is_array(v)) {
		bool has = false;

		json_array_foreach(v, i, item)
			has = has || scalar_equals(item, e->value);
		return e->op == OP_EQ ? has : e->op == OP_NE ? !has : false;
	}
	if (e->op == OP_EQ || e->op == OP_NE)
		return scalar_equals(v, e->value) == (e->op == OP_EQ);
	if (!json_is_number(v) || !parse_number(e->value, &want))
		return false;
	return ordered(e->op, json_number_value(v) < want ? -1 : json_number_value(v) > want ? 1 : 0);
}

static json_t *mark_of(const struct accepted_entry *e)
{
	json_t *m = json_pack("{s:s}", "by", e->by);

	if (e->why)
		json_object_set_new(m, "why", json_string(e->why));
	if (e->key) {
		const char *op = "";

		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (ops[i].op == e->op)
				op = ops[i].text;
		json_object_set_new(m, "condition", json_sprintf("%s %s %s", e->key, op, e->value));
	}
	return m;
}

void accepted_mark(struct accepted *a, json_t *recs, const json_t *facts_doc)
{
	size_t i, j;
	json_t *rec;

	json_array_foreach(recs, i, rec) {
		const char *id = json_string_value(json_object_get(rec, "id"));

		for (j = 0; id && j < a->n; j++) {
			struct accepted_entry *e = &a->v[j];

			if (strcmp(e->id, id) != 0 || !condition_holds(e, facts_doc))
				continue;
			e->is_used = true;
			if (!accepted_is_marked(rec))
				json_object_set_new(rec, "accepted", mark_of(e));
		}
	}
}

void accepted_forget_use(struct accepted *a)
{
	for (size_t i = 0; i < a->n; i++)
		a->v[i].is_used = false;
}

bool accepted_is_marked(const json_t *rec)
{
	return json_is_object(json_object_get(rec, "accepted"));
}

/* The rule file `file_id` of rules_describe, or NULL. */
static const json_t *rule_file(const json_t *rules, const char *file_id, size_t len)
{
	const json_t *r;
	size_t i;

	json_array_foreach(rules, i, r) {
		const char *id = json_string_value(json_object_get(r, "id"));

		if (id && strlen(id) == len && strncmp(id, file_id, len) == 0 && !json_object_get(r, "replaced_by"))
			return r;
	}
	return NULL;
}

static bool vectors_name(const json_t *rule, const char *name)
{
	const json_t *t, *x;
	size_t i, j;

	json_array_foreach(json_object_get(rule, "tests"), i, t)
		json_array_foreach(json_object_get(t, "expect"), j, x) {
			const char *n = json_string_value(json_object_get(x, "name"));

			if (n && strcmp(n, name) == 0)
				return true;
		}
	return false;
}

json_t *accepted_stale(const struct accepted *a, const json_t *rules)
{
	json_t *out = json_array();

	for (size_t i = 0; i < a->n; i++) {
		const struct accepted_entry *e = &a->v[i];
		const char *dot = strchr(e->id, '.');
		const json_t *rule;
		char *reason = NULL;

		if (e->is_used || !rules)
			continue;
		rule = rule_file(rules, e->id, (size_t)(dot - e->id));
		if (!rule)
			reason = xasprintf("no loaded rule file has the id '%.*s'", (int)(dot - e->id), e->id);
		else if (!vectors_name(rule, dot + 1))
			reason = xasprintf("rule file '%.*s' has no finding '%s' (not made here, not in its test vectors)",
					   (int)(dot - e->id), e->id, dot + 1);
		if (reason)
			json_array_append_new(out, json_pack("{s:s, s:s, s:s%}", "id", e->id, "by", e->by, "reason",
							     reason, strlen(reason)));
		free(reason);
	}
	return out;
}
