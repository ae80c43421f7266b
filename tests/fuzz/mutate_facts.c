/* The facts mutator: deterministic mutations of the fixtures' facts files (the files of tests/facts
 * and of the facts_json fuzz corpus) through everything that reads facts, so that a hostile file
 * can neither crash nor hang a run. Each mutation takes one file, changes one to four of its values
 * (another type, an extreme number, a string of shell metacharacters, of escaped bytes, of 64 KiB,
 * a key removed, an unknown one, a subtree copied under another key, a bogus "escaped",
 * "sources" or "unavailable" entry), and one in eight also damages the text (a byte flipped, a cut,
 * bytes that are not UTF-8). Then: the reader (which may refuse, with status 2 and a message), the
 * writer and the facts renderers; for every FULL_EVERY-th mutation the reader accepts, the session,
 * the shipped rules, every report writer and the apply/revert scripts too.
 *
 * Usage: mutate-facts [COUNT [SEED]] (default 2000 and 0x66737475; FSTUNE_MUTATE_FULL_EVERY sets the
 * share that runs the rules). A crash aborts (ASan, UBSan); a hang is caught by an alarm of 60 s per
 * mutation. Exit 0, 1 when a refusal said nothing, 99 when the fixtures cannot be read. */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/render/facts_render.h"
#include "app/render/report_render.h"
#include "app/render/scripts.h"
#include "app/session/session.h"
#include "fstune/facts.h"

#define MAX_INPUTS 64
#define HANG_S 60

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static size_t pick(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static const char *const hostile[] = {
	"", "; touch /tmp/fstune-mutated", "$(touch /tmp/fstune-mutated)", "`touch /tmp/fstune-mutated`",
	"' \" \\ \n\t\r", "../../../../etc/shadow", "/dev/zero", "/proc/self/mem", "\\xff\\xfe\\x00\\",
	"%s%s%s%n", "\xc3\xa9t\xc3\xa9", "-rf", "--help", "${DEVICE:?}", "*", "none", "mq-deadline", "ext4",
	"/", "write back", "sda", "../sda", "nvme0n1p3", "KERNEL==\"x\", RUN+=\"/bin/sh\"",
};
static const char *const keys[] = {
	"fs.type", "fs.mount_point", "fs.block_size", "fs.features", "fs.mount_options", "fs.uuid", "fs.label",
	"device.name", "device.disk", "device.path", "device.scheduler", "device.rotational", "device.transport",
	"device.read_ahead_kb", "device.members", "vm.dirty_ratio", "vm.dirty_bytes", "workload.profile",
	"workload.file_size_p50_bytes", "host.mem_total_bytes", "host.target_os", "bench.rand_read_4k_qd1.iops",
	"bench.rand_read_4k_qd1", "owners.queue.scheduler", "trial.c1", "freebsd.nbuf", "fs.no_such_key",
	"nonsense.branch",
};

/* A value of any shape, some of them extreme. */
static json_t *random_value(int depth)
{
	switch (pick(depth > 2 ? 9 : 11)) {
	case 0: return json_integer(0);
	case 1: return json_integer((json_int_t)(rnd() % 2 ? INT64_MAX : INT64_MIN));
	case 2: return json_integer(-(json_int_t)pick(100000));
	case 3: return json_real(pick(2) ? 1e308 : -1e-308);
	case 4: return json_real(0.5 + (double)pick(10));
	case 5: return json_boolean(pick(2));
	case 6: return json_null();
	case 7: return json_string(hostile[pick(sizeof hostile / sizeof hostile[0])]);
	case 8: {
		char *big = malloc(65537);
		json_t *v;

		memset(big, pick(2) ? 'a' : '/', 65536);
		big[65536] = '\0';
		v = json_string(big);
		free(big);
		return v;
	}
	case 9: {
		json_t *a = json_array();

		for (size_t i = 0, n = pick(6); i < n; i++)
			json_array_append_new(a, random_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object();

		for (size_t i = 0, n = pick(4); i < n; i++)
			json_object_set_new(o, keys[pick(sizeof keys / sizeof keys[0])] + pick(3), random_value(depth + 1));
		return o;
	}
	}
}

/* A node of the document chosen at random, walked from the root (never the root itself): its parent
 * and its key (objects) or index (arrays). false when the document has no node. */
static bool random_node(json_t *doc, json_t **parent, const char **key, size_t *index)
{
	json_t *node = doc;
	bool found = false;

	for (int depth = 0; depth < 8; depth++) {
		size_t n = json_is_object(node) ? json_object_size(node) : json_is_array(node) ? json_array_size(node) : 0;
		size_t k = pick(n);
		void *it;
		json_t *child;

		if (!n)
			break;
		if (json_is_object(node)) {
			it = json_object_iter(node);
			while (k--)
				it = json_object_iter_next(node, it);
			*key = json_object_iter_key(it);
			child = json_object_iter_value(it);
			/* the schema, rarely: a wrong one only says "unknown schema" */
			if (node == doc && !strcmp(*key, "schema") && pick(16))
				break;
		} else {
			*key = NULL;
			*index = k;
			child = json_array_get(node, k);
		}
		*parent = node;
		found = true;
		node = child;
		/* a whole branch rarely: most changes are to values inside one */
		if (!(json_is_object(node) || json_is_array(node)) || (depth > 0 && pick(3) == 0))
			break;
	}
	return found;
}

static void set_node(json_t *parent, const char *key, size_t index, json_t *v)
{
	if (json_is_object(parent))
		json_object_set_new(parent, key, v);
	else
		json_array_set_new(parent, index, v);
}

/* A value of the same type as `v`, but hostile: a string of metacharacters, escaped bytes or 64 KiB,
 * an extreme number, the other boolean, a list emptied or grown. */
static json_t *same_type_value(const json_t *v)
{
	if (json_is_string(v))
		return pick(6) ? json_string(hostile[pick(sizeof hostile / sizeof hostile[0])]) : random_value(3);
	if (json_is_integer(v)) {
		static const json_int_t ints[] = {0, -1, 1, 3, 7, 512, 4096, 1LL << 40, INT64_MAX, INT64_MIN};

		return json_integer(ints[pick(sizeof ints / sizeof ints[0])]);
	}
	if (json_is_real(v)) {
		static const double reals[] = {0.0, -0.0, 1e308, -1e308, 1e-308, 0.999999, 100.0, 2.5};

		return json_real(reals[pick(sizeof reals / sizeof reals[0])]);
	}
	if (json_is_boolean(v))
		return json_boolean(!json_is_true(v));
	if (json_is_array(v)) {
		json_t *a = json_deep_copy(v);

		if (pick(3) == 0)
			json_array_clear(a);
		for (size_t i = 0, n = pick(3) ? 1 : 200; i < n && json_array_size(v); i++)
			json_array_append_new(a, same_type_value(json_array_get(v, 0)));
		return a;
	}
	if (json_is_object(v)) {
		json_t *o = json_deep_copy(v);

		json_object_set_new(o, keys[pick(sizeof keys / sizeof keys[0])] + pick(4), random_value(2));
		return o;
	}
	return random_value(1);
}

/* One structural change of the document: most keep the value's type (what the schema lets through,
 * to reach the rules), some change it or the document's shape. */
static void mutate_tree(json_t *doc)
{
	json_t *parent = NULL, *copy;
	const char *key = NULL;
	size_t index = 0;
	char *k;

	switch (pick(10)) {
	case 0: /* a value replaced by one of another shape */
		if (random_node(doc, &parent, &key, &index))
			set_node(parent, key, index, random_value(0));
		break;
	case 1: /* a key or an item removed */
		if (random_node(doc, &parent, &key, &index)) {
			if (json_is_object(parent))
				json_object_del(parent, key);
			else
				json_array_remove(parent, index);
		}
		break;
	case 2: /* a subtree copied under another key */
		if (random_node(doc, &parent, &key, &index)) {
			copy = json_deep_copy(json_is_object(parent) ? json_object_get(parent, key) : json_array_get(parent, index));
			k = strdup(keys[pick(sizeof keys / sizeof keys[0])]);
			*strchrnul(k, '.') = '\0';
			if (json_is_object(json_object_get(doc, k)))
				json_object_set_new(json_object_get(doc, k), "copied", copy);
			else
				json_decref(copy);
			free(k);
		}
		break;
	case 3: /* a key the strings of which are said to be escaped */
		if (!json_is_array(json_object_get(doc, FACTS_ESCAPED)) || pick(8) == 0)
			json_object_set_new(doc, FACTS_ESCAPED, pick(8) ? json_array() : random_value(1));
		if (json_is_array(json_object_get(doc, FACTS_ESCAPED)))
			json_array_append_new(json_object_get(doc, FACTS_ESCAPED),
					      pick(8) ? json_string(keys[pick(sizeof keys / sizeof keys[0])]) : random_value(1));
		break;
	case 4: /* a source or an unavailable entry */
		if (!json_is_object(json_object_get(doc, "sources")))
			json_object_set_new(doc, "sources", json_object());
		json_object_set_new(json_object_get(doc, "sources"), keys[pick(sizeof keys / sizeof keys[0])],
				    pick(8) ? json_string("sysfs") : random_value(1));
		if (json_is_object(json_object_get(doc, "unavailable")))
			json_object_set_new(json_object_get(doc, "unavailable"), keys[pick(sizeof keys / sizeof keys[0])],
					    pick(2) ? json_pack("{s:s, s:s}", "status", "failed", "reason", "x") : random_value(1));
		break;
	case 5: { /* a key, known or not, set to a hostile value, its branch made if missing */
		const char *full = keys[pick(sizeof keys / sizeof keys[0])];
		char *branch = strdup(full), *dot = strchr(branch, '.');

		if (dot) {
			*dot = '\0';
			if (!json_is_object(json_object_get(doc, branch)))
				json_object_set_new(doc, branch, json_object());
			json_object_set_new(json_object_get(doc, branch), dot + 1, random_value(0));
		}
		free(branch);
		break;
	}
	default: /* a value of the same type, made hostile */
		if (random_node(doc, &parent, &key, &index))
			set_node(parent, key, index,
				 same_type_value(json_is_object(parent) ? json_object_get(parent, key) : json_array_get(parent, index)));
	}
}

/* One change of the text: a byte flipped, the text cut, or bytes that are not UTF-8 put in. */
static void mutate_text(char **text, size_t *len)
{
	size_t at = pick(*len + 1);

	switch (pick(3)) {
	case 0:
		if (*len)
			(*text)[pick(*len)] ^= (char)(1u << pick(8));
		break;
	case 1:
		*len = at;
		break;
	default:
		*text = realloc(*text, *len + 3);
		memmove(*text + at + 2, *text + at, *len - at);
		(*text)[at] = (char)0xff;
		(*text)[at + 1] = (char)0xfe;
		*len += 2;
		break;
	}
}

static void render_facts(const struct facts *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	facts_render_text(m, f, true);
	facts_render_markdown(m, f, false);
	facts_render_json(m, f, true);
	fclose(m);
	free(buf);
	free(facts_to_json(f));
}

/* The whole report on the facts in `path`: session, rules, every writer, the scripts. */
static void run_full(const char *path, const char *scripts, struct rules_set *rules)
{
	struct fst_error err = FST_ERROR_INIT;
	struct session *s = session_from_facts_file(path, &err);
	int (*const writers[])(const struct session *, FILE *) = {report_write_text, report_write_markdown,
								     report_write_json, report_write_openmetrics,
								     report_write_html};
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!s)
		return;
	s->rules = rules;
	session_evaluate(s);
	m = open_memstream(&buf, &len);
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
		writers[i](s, m);
	fclose(m);
	free(buf);
	scripts_write(scripts, s, &err);
	s->rules = NULL; /* shared by every mutation */
	session_free(s);
}

/* The fixtures: every regular file of `dir` (non-recursive) read into inputs[]. */
static size_t load_dir(const char *dir, char **inputs, size_t *lens, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) && n < MAX_INPUTS) {
		char path[4096];
		struct stat st;
		FILE *fp;

		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README") || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
		    !(fp = fopen(path, "rb")))
			continue;
		inputs[n] = malloc((size_t)st.st_size + 1);
		lens[n] = fread(inputs[n], 1, (size_t)st.st_size, fp);
		inputs[n][lens[n]] = '\0';
		n++;
		fclose(fp);
	}
	if (d)
		closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	const char *src = getenv("FSTUNE_SRCDIR"), *every_env = getenv("FSTUNE_MUTATE_FULL_EVERY");
	long count = argc > 1 ? atol(argv[1]) : 2000, every = every_env ? atol(every_env) : 4;
	char *inputs[MAX_INPUTS], dir[4096], tmpl[] = "/tmp/fstune-mutate.XXXXXX", path[4200];
	size_t lens[MAX_INPUTS], n = 0;
	long accepted = 0, refused = 0, silent = 0, full = 0;
	struct rules_options ro = {.no_system_rules = true};
	struct fst_error err = FST_ERROR_INIT;
	struct rules_set *rules;

	rng_state = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x66737475;
	if (!src || !mkdtemp(tmpl)) {
		fprintf(stderr, "mutate-facts: run through make check (FSTUNE_SRCDIR), with a writable /tmp\n");
		return 99;
	}
	snprintf(dir, sizeof dir, "%s/tests/facts", src);
	n = load_dir(dir, inputs, lens, n);
	snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/facts_json", src);
	n = load_dir(dir, inputs, lens, n);
	if (n == 0 || !(rules = rules_load(&ro, &err))) {
		fprintf(stderr, "mutate-facts: no fixtures or no rules: %s\n", err.msg);
		return 99;
	}
	snprintf(path, sizeof path, "%s/facts.json", tmpl);
	for (long i = 0; i < count; i++) {
		size_t which = pick(n), len;
		json_t *doc = json_loadb(inputs[which], lens[which], 0, NULL);
		char *text;
		struct facts *f;
		FILE *fp;

		alarm(HANG_S);
		if (doc)
			for (size_t k = 0, m = 1 + pick(4); k < m; k++)
				mutate_tree(doc);
		text = doc ? json_dumps(doc, JSON_INDENT(1) | JSON_ENCODE_ANY) : strdup(inputs[which]);
		json_decref(doc);
		len = strlen(text);
		if (pick(8) == 0)
			mutate_text(&text, &len);
		fst_error_clear(&err);
		f = facts_from_json(text, len, "mutated", &err);
		if (!f) {
			refused++;
			silent += err.status != FST_EXIT_USAGE || !err.msg[0];
		} else {
			accepted++;
			render_facts(f);
			facts_free(f);
			if (every > 0 && accepted % every == 0 && (fp = fopen(path, "wb"))) {
				fwrite(text, 1, len, fp);
				fclose(fp);
				run_full(path, tmpl, rules);
				full++;
			}
		}
		free(text);
	}
	alarm(0);
	printf("mutate-facts: %ld mutations of %zu fixtures (seed %#llx): %ld accepted (%ld through the rules, "
	       "reports and scripts), %ld refused, %ld of them without a message\n", count, n,
	       argc > 2 ? strtoull(argv[2], NULL, 0) : 0x66737475ull, accepted, full, refused, silent);
	rules_set_free(rules);
	for (size_t i = 0; i < n; i++)
		free(inputs[i]);
	unlink(path);
	snprintf(path, sizeof path, "%s/apply.sh", tmpl);
	unlink(path);
	snprintf(path, sizeof path, "%s/revert.sh", tmpl);
	unlink(path);
	rmdir(tmpl);
	return silent ? 1 : 0;
}
