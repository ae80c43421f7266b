/* Candidate specs of `fstune trial`: parsing without a shell, and the allow-list of each mkfs tool's
 * own options (trial.h). */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial/trial.h"
#include "lib/xalloc.h"
#include "fstune/status.h"

enum value_kind {
	VAL_NONE,  /* a switch: no value word follows */
	VAL_INT,   /* a decimal integer */
	VAL_POW2,  /* a block size: a power of two, 1024..65536 */
	VAL_SIZE,  /* an integer with an optional k/m/g/t suffix */
	VAL_WORD,  /* a label, a usage type, a profile: [A-Za-z0-9_.-] */
	VAL_LIST,  /* comma-separated items, each NAME or NAME=VALUE (or ^NAME for ext features) */
};

/* The options a trial passes to each mkfs. Anything else is refused: in particular options that name
 * another device or a file (mke2fs -J device=, -d, -E offset is harmless but -S rewrites only the
 * superblocks of an existing fs; mkfs.xfs -r rtdev=, -l logdev=, -d file/name), and those fstune sets
 * itself (-F/-f, -q, -n dry run, the device). */
static const struct {
	const char *family; /* "ext", "xfs", "btrfs" */
	const char *flag;
	enum value_kind kind;
} allowed[] = {
	{"ext", "-b", VAL_POW2}, {"ext", "-C", VAL_SIZE}, {"ext", "-i", VAL_INT}, {"ext", "-I", VAL_INT},
	{"ext", "-N", VAL_INT}, {"ext", "-m", VAL_INT}, {"ext", "-g", VAL_INT}, {"ext", "-G", VAL_INT},
	{"ext", "-O", VAL_LIST}, {"ext", "-E", VAL_LIST}, {"ext", "-T", VAL_WORD}, {"ext", "-L", VAL_WORD},
	{"ext", "-j", VAL_NONE}, {"ext", "-J", VAL_LIST}, {"ext", "-r", VAL_INT}, {"ext", "-e", VAL_WORD},
	{"xfs", "-b", VAL_LIST}, {"xfs", "-d", VAL_LIST}, {"xfs", "-i", VAL_LIST}, {"xfs", "-l", VAL_LIST},
	{"xfs", "-n", VAL_LIST}, {"xfs", "-m", VAL_LIST}, {"xfs", "-s", VAL_LIST}, {"xfs", "-L", VAL_WORD},
	{"xfs", "-K", VAL_NONE},
	{"btrfs", "-n", VAL_SIZE}, {"btrfs", "-s", VAL_SIZE}, {"btrfs", "-O", VAL_LIST},
	{"btrfs", "-R", VAL_LIST}, {"btrfs", "-L", VAL_WORD}, {"btrfs", "-m", VAL_WORD},
	{"btrfs", "-d", VAL_WORD}, {"btrfs", "--csum", VAL_WORD}, {"btrfs", "-K", VAL_NONE},
};

/* Items of a list option that would make mkfs write somewhere other than the scratch device, or make
 * something other than a filesystem. */
static const char *const refused_items[] = {
	"device", "file", "name", "logdev", "rtdev", "journal_dev", "rtinherit", "offset",
};

static const char *const shell_meta = ";&|<>()$`\\\"'*?[]{}~!#";

static const char *family_of(const char *fs)
{
	if (!strcmp(fs, "ext2") || !strcmp(fs, "ext3") || !strcmp(fs, "ext4"))
		return "ext";
	if (!strcmp(fs, "xfs"))
		return "xfs";
	if (!strcmp(fs, "btrfs"))
		return "btrfs";
	return NULL;
}

static int option_kind(const char *family, const char *flag)
{
	for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
		if (!strcmp(allowed[i].family, family) && !strcmp(allowed[i].flag, flag))
			return (int)allowed[i].kind;
	return -1;
}

static bool all_chars(const char *s, const char *extra)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

static bool is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Whether `v` is well formed for `kind`; `why` is set when not. */
static bool value_ok(enum value_kind kind, const char *v, const char **why)
{
	size_t n = strlen(v);
	long long x;
	char *end;

	switch (kind) {
	case VAL_NONE:
		return true;
	case VAL_INT:
		*why = "a whole number";
		return n <= 12 && is_digits(v);
	case VAL_POW2:
		*why = "a block size: a power of two from 1024 to 65536";
		x = strtoll(v, &end, 10);
		return !*end && n <= 6 && x >= 1024 && x <= 65536 && (x & (x - 1)) == 0;
	case VAL_SIZE:
		*why = "a size: digits with an optional k, m, g or t";
		x = strtoll(v, &end, 10);
		return end != v && x > 0 && n <= 16 && (!*end || (strchr("kmgtKMGT", *end) && !end[1]));
	case VAL_WORD:
		*why = "a word of letters, digits, '_', '.' and '-'";
		return n <= 64 && all_chars(v, "_.-");
	case VAL_LIST:
		for (const char *it = v; *it; it += strcspn(it, ","), it += *it == ',') {
			size_t len = strcspn(it, "=,");
			const char *name = it + (*it == '^');

			len -= (size_t)(name - it);
			for (size_t i = 0; i < sizeof refused_items / sizeof refused_items[0]; i++)
				if (strlen(refused_items[i]) == len && !strncmp(name, refused_items[i], len)) {
					*why = "a list without items that name another device or file, or make a "
					       "journal device";
					return false;
				}
		}
		*why = "a comma-separated list of name or name=value items";
		return n <= 256 && all_chars(v, "_.,=^+-") && v[0] != ',' && v[n - 1] != ',' && !strstr(v, ",,");
	}
	return false;
}

static void candidate_free(struct trial_candidate *c)
{
	for (size_t i = 0; i < c->n_args; i++)
		free(c->args[i]);
	free(c->args);
	free(c->fs);
	free(c->spec);
	free(c->origin);
	free(c->stripped);
	free(c->obs);
	json_decref(c->runs);
}

void trial_candidates_free(struct trial_candidates *c)
{
	for (size_t i = 0; i < c->n; i++)
		candidate_free(&c->v[i]);
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

void trial_candidates_remove(struct trial_candidates *c, size_t i)
{
	candidate_free(&c->v[i]);
	memmove(&c->v[i], &c->v[i + 1], (c->n - i - 1) * sizeof *c->v);
	c->n--;
}

/* Refuses shell metacharacters and control characters in any word (also in those left out later: a
 * spec that holds them is nobody's mkfs command). FST_EXIT_OK or FST_EXIT_USAGE with err set. */
static int check_chars(const char *spec, char *const *w, size_t n, struct fst_error *err)
{
	for (size_t i = 0; i < n; i++) {
		const char *bad = w[i] + strcspn(w[i], shell_meta);

		if (*bad)
			return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': '%s' holds the shell "
					     "metacharacter '%c'; candidates are never given to a shell, and only "
					     "mkfs options are accepted", spec, w[i], *bad);
		for (const char *p = w[i]; *p; p++)
			if (iscntrl((unsigned char)*p))
				return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': a control character "
						     "in '%s'", spec, w[i]);
	}
	return FST_EXIT_OK;
}

/* Checks the words of one spec against the allow-list. FST_EXIT_OK or FST_EXIT_USAGE with err set. */
static int check_words(const char *spec, const char *fs, char **w, size_t n, struct fst_error *err)
{
	const char *family = family_of(fs);
	size_t i;

	if (!family)
		return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': unknown filesystem '%s' (ext2, ext3, "
				     "ext4, xfs or btrfs)", spec, fs);
	for (i = 0; i < n; i++) {
		const char *why = "";
		int kind;

		kind = option_kind(family, w[i]);
		if (kind < 0)
			return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': '%s' is not an option %s "
					     "takes in a trial (see fstune(1), TRIAL CANDIDATES)", spec, w[i],
					     !strcmp(family, "ext") ? "mke2fs" : !strcmp(family, "xfs")
					     ? "mkfs.xfs" : "mkfs.btrfs");
		if (kind == VAL_NONE)
			continue;
		if (i + 1 == n)
			return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': %s needs a value", spec, w[i]);
		if (!value_ok((enum value_kind)kind, w[i + 1], &why))
			return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': %s '%s': the value must be %s",
					     spec, w[i], w[i + 1], why);
		i++;
	}
	return FST_EXIT_OK;
}

static char *join_spec(const char *fs, char *const *w, size_t n)
{
	size_t len = strlen(fs) + 2;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(w[i]) + 1;
	s = xmalloc(len);
	strcpy(s, fs);
	strcat(s, ":");
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, w[i]);
	}
	return s;
}

/* Appends `word` to the space-joined list *acc. */
static void append_word(char **acc, const char *word)
{
	char *next = xasprintf("%s%s%s", *acc ? *acc : "", *acc ? " " : "", word);

	free(*acc);
	*acc = next;
}

/* Leaves out the target's identity from the words: -L LABEL and -U UUID (any mkfs), and the uuid=
 * item of mkfs.xfs -m. Returns what was left out, joined by spaces, or NULL when nothing was. */
static char *strip_identity(const char *fs, char **w, size_t *n)
{
	char *left_out = NULL;
	size_t i = 0, k = 0;

	while (i < *n) {
		if (!strcmp(w[i], "-L") || !strcmp(w[i], "-U")) {
			append_word(&left_out, w[i]);
			free(w[i++]);
			if (i < *n) {
				append_word(&left_out, w[i]);
				free(w[i++]);
			}
			continue;
		}
		if (!strcmp(fs, "xfs") && !strcmp(w[i], "-m") && i + 1 < *n && strstr(w[i + 1], "uuid=")) {
			char *kept = NULL, *save = NULL;

			for (char *it = strtok_r(w[i + 1], ",", &save); it; it = strtok_r(NULL, ",", &save)) {
				char **to = strncmp(it, "uuid=", 5) ? &kept : &left_out;

				if (to == &left_out)
					append_word(to, "-m");
				if (to == &kept && kept) {
					char *next = xasprintf("%s,%s", kept, it);

					free(kept);
					kept = next;
				} else {
					append_word(to, it);
				}
			}
			free(w[i + 1]);
			if (!kept) {
				free(w[i]);
				i += 2;
				continue;
			}
			w[i + 1] = kept;
		}
		w[k++] = w[i++];
	}
	*n = k;
	return left_out;
}

/* Takes ownership of `w` (n words) and `fs`. */
static int add_checked(struct trial_candidates *out, const char *shown, char *fs, char **w, size_t n,
		       const char *origin, struct fst_error *err)
{
	struct trial_candidate *c;
	char *spec, *stripped;
	int st = check_chars(shown, w, n, err);

	stripped = strip_identity(fs, w, &n);
	if (st == FST_EXIT_OK)
		st = check_words(shown, fs, w, n, err);

	if (st != FST_EXIT_OK) {
		for (size_t i = 0; i < n; i++)
			free(w[i]);
		free(w);
		free(fs);
		free(stripped);
		return st;
	}
	spec = join_spec(fs, w, n);
	for (size_t i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].spec, spec)) {
			for (size_t k = 0; k < n; k++)
				free(w[k]);
			free(w);
			free(fs);
			free(spec);
			free(stripped);
			return FST_EXIT_OK;
		}
	c = XAPPEND(out->v, out->n);
	c->fs = fs;
	c->args = w;
	c->n_args = n;
	c->spec = spec;
	c->origin = xstrdup(origin);
	c->stripped = stripped;
	c->merged_into = -1;
	c->runs = json_array();
	return FST_EXIT_OK;
}

/* Splits one "FS:OPTIONS" at blanks. */
static int parse_one(const char *one, const char *origin, struct trial_candidates *out, struct fst_error *err)
{
	const char *colon = strchr(one, ':');
	char *fs, *copy, *save = NULL, **w = NULL;
	size_t n = 0;

	if (!colon)
		return fst_error_set(err, FST_EXIT_USAGE, "candidate '%s': write FS:OPTIONS, e.g. 'ext4:-b 4096' "
				     "or 'xfs:'", one);
	fs = xstrndup(one, (size_t)(colon - one));
	fs[strcspn(fs, " \t")] = '\0';
	copy = xstrdup(colon + 1);
	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		w = xrealloc(w, (n + 1) * sizeof *w);
		w[n++] = xstrdup(t);
	}
	free(copy);
	return add_checked(out, one, fs, w, n, origin, err);
}

int trial_candidates_parse(const char *text, const char *origin, struct trial_candidates *out,
			   struct fst_error *err)
{
	char *copy = xstrdup(text), *save = NULL;
	size_t before = out->n;
	int st = FST_EXIT_OK;

	if (strchr(text, '\n'))
		st = fst_error_set(err, FST_EXIT_USAGE, "--candidates: a newline; separate candidates with ';'");
	for (char *one = strtok_r(copy, ";", &save); st == FST_EXIT_OK && one; one = strtok_r(NULL, ";", &save)) {
		while (*one == ' ' || *one == '\t')
			one++;
		if (*one)
			st = parse_one(one, origin, out, err);
	}
	free(copy);
	if (st == FST_EXIT_OK && out->n == before)
		st = fst_error_set(err, FST_EXIT_USAGE, "--candidates '%s': no candidate", text);
	return st;
}

int trial_candidates_add_args(struct trial_candidates *out, const char *fs, const json_t *args,
			      const char *origin, struct fst_error *err)
{
	size_t n = json_array_size(args), i;
	char **w = xcalloc(n ? n : 1, sizeof *w);
	char *shown;
	int st;

	for (i = 0; i < n; i++)
		w[i] = xstrdup(json_string_value(json_array_get(args, i)) ? json_string_value(json_array_get(args, i)) : "");
	shown = join_spec(fs, w, n);
	st = add_checked(out, shown, xstrdup(fs), w, n, origin, err);
	free(shown);
	return st;
}
