/* Unit test of the report model built from a hostile result and facts: members of the wrong type,
 * missing members, lists that are not lists, a megabyte id. The model reads what it can, leaves the
 * rest empty, owns every string (it outlives the session's JSON), and every renderer writes it
 * without crashing. Run under ASan and UBSan in the sanitizer build. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/render/report_model.h"
#include "app/render/report_render.h"
#include "app/render/scripts.h"
#include "app/session/session.h"
#include "lib/xalloc.h"
#include "tests/lib/check.h"
#include "tests/report/report_session.h"

#define HUGE_LEN (1u << 20)

static const char facts_text[] =
	"{\"schema\": \"fstune.facts/1\","
	" \"host\": {\"kernel\": \"6.18.0\", \"target_os\": \"linux\"},"
	" \"device\": {\"name\": \"sdz\", \"path\": \"/dev/sdz\", \"scheduler\": \"bfq\"},"
	" \"fs\": {\"type\": \"ext4\", \"mount_point\": \"/srv\", \"weird\": {\"deep\": {\"x\": [1, 2]}}},"
	" \"bench\": {\"odd\": {\"note\": \"fast\", \"lat_p99_us\": 120.5, \"samples\": 10},"
	"  \"parameters\": {\"runtime_s\": 1}},"
	" \"unavailable\": {\"fs.inode_count\": {\"status\": \"failed\", \"reason\": \"EIO\"},"
	"  \"fs.label\": {\"status\": \"needs_root\"}}}";

/* Everything a renderer reads, in the wrong type somewhere; the huge id is patched in at run time. */
static const char result_text[] =
	"{\"recommendations\": [5, \"a string\","
	" {\"id\": 7, \"title\": [\"x\"], \"severity\": {\"a\": 1}, \"disruption\": 3, \"setting\": true,"
	"  \"confidence\": \"high\", \"evidence\": \"fs.type\", \"apply\": 12,"
	"  \"revert\": {\"now\": 5, \"x\": [1, null, \"ok\"]},"
	"  \"persistent\": \"udev\", \"mkfs\": \"ext4\", \"sources\": {\"a\": \"b\"}, \"verified\": 1,"
	"  \"accepted\": \"yes\", \"owners\": {\"a\": 1}},"
	" {\"id\": \"a.b\", \"severity\": \"warn\", \"disruption\": \"runtime\", \"setting\": \"queue.scheduler\","
	"  \"current\": {\"deep\": [1, {\"x\": null}]}, \"recommended\": [1, \"two\", null], \"confidence\": 2,"
	"  \"evidence\": [1, null, {\"key\": 3}, {\"key\": \"fs.weird\", \"value\": {\"x\": 1}, \"source\": 4},"
	"   {\"key\": \"fs.nosuch\", \"value\": null, \"status\": \"bogus\"}, \"device.scheduler\", \"\"],"
	"  \"apply\": [\"echo none > /sys/block/sdz/queue/scheduler\", 3, null],"
	"  \"persistent\": {\"kind\": 1, \"path\": \"/etc/x\", \"line\": \"l1\\nl2\", \"placement\": {\"note\": 9}},"
	"  \"owners\": [3, {\"kind\": \"cmdline\"}, {\"kind\": 4, \"line\": \"x\"}],"
	"  \"mkfs\": {\"fs\": 3, \"args\": [\"-b\", 4]}, \"verified\": \"unchanged\", \"verified_note\": [],"
	"  \"accepted\": {\"why\": 3, \"by\": null}, \"sources\": [\"man\", 4]},"
	" {\"id\": \"HUGE\", \"severity\": \"critical\", \"disruption\": \"reformat\", \"title\": \"t\","
	"  \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-b\", \"4096\"]}, \"verified\": \"maybe\"}],"
	" \"mkfs\": [3, {\"command\": 5}, {\"command\": \"mkfs.ext4 -b 4096 DEVICE\", \"fs\": [1],"
	"   \"notes\": [1, \"n\"], \"from\": \"x\"}],"
	" \"not_evaluated\": [\"x\", {\"rule\": 3, \"missing\": \"fs\"},"
	"   {\"rule\": \"r\", \"reason\": \"why\", \"missing\": [3]}],"
	" \"errors\": [{\"line\": \"3\", \"file\": {}}, 4],"
	" \"notices\": {\"not\": \"a list\"}}";

static void check_wrong_types(const struct report_model *m)
{
	const struct report_rec *r = &m->recs[2];

	CHECK(!m->recs[0].id && !m->recs[0].severity && m->recs[0].severity_rank == -1);
	CHECK(!r->id && !r->title && !r->severity && !r->disruption && !r->setting && !r->recommended_text);
	CHECK(!r->has_confidence && r->confidence == 0);
	CHECK(r->has_evidence && r->n_evidence == 0); /* named, but not as a list */
	CHECK(r->n_apply == 0);
	CHECK(r->n_revert == 1 && r->revert[0].label && !strcmp(r->revert[0].label, "x"));
	CHECK_STR(r->revert[0].text, "ok");
	CHECK(!r->persistent.kind && !r->persistent.path && !r->persistent.line);
	CHECK(r->mkfs && !r->mkfs->fs && r->mkfs->n_args == 0 && !r->mkfs->json);
	CHECK(r->n_sources == 0 && r->n_managed == 0 && !r->accepted);
	CHECK(r->verified.verdict == REPORT_VERDICT_NONE && !r->verified.word);
	/* what is not a known disruption goes to the catch-all, in the report's order */
	CHECK(report_model_group(m, NULL)->n == 3);
	CHECK(report_model_group(m, "runtime")->n == 1 && report_model_group(m, "reformat")->n == 1);
	CHECK(m->severity_count[3] == 1 && m->severity_count[2] == 1 && report_model_count_at_least(m, 0) == 2);
}

static void check_partly_right(const struct report_model *m)
{
	const struct report_rec *r = report_model_group(m, "runtime")->recs[0];

	CHECK_STR(r->id, "a.b");
	CHECK(r->current && json_is_object(r->current) && r->current_text);
	CHECK_STR(r->recommended_text, "1, two, null");
	CHECK(r->has_confidence && r->confidence == 2);
	/* 1, null and {"key": 3} name no key; the other four are read */
	CHECK(r->n_evidence == 4);
	CHECK_STR(r->evidence[0].key, "fs.weird");
	CHECK(r->evidence[0].value && !r->evidence[0].unavailable);
	CHECK_STR(r->evidence[1].unavailable, "not in the facts");
	CHECK_STR(r->evidence[2].value, "bfq");
	CHECK(r->evidence[3].unavailable != NULL);
	CHECK(r->n_apply == 1 && !r->apply[0].label);
	CHECK(!r->persistent.kind);
	CHECK_STR(r->persistent.path, "/etc/x");
	CHECK_STR(r->persistent.line, "l1\nl2");
	CHECK(r->n_managed == 3); /* one sentence per owner, whatever it holds; no placement note */
	CHECK(r->mkfs && r->mkfs->n_args == 0 && r->mkfs->json);
	CHECK(r->verified.verdict == REPORT_VERDICT_UNCHANGED && !r->verified.note);
	CHECK_CONTAINS(r->accepted, "no reason given");
	CHECK(r->n_sources == 1);
	CHECK(report_model_group(m, "reformat")->recs[0]->verified.verdict == REPORT_VERDICT_OTHER);
	CHECK(report_model_group(m, "reformat")->recs[0]->mkfs->n_args == 2);
}

static void check_tail(const struct report_model *m)
{
	CHECK(m->n_mkfs == 1 && !m->mkfs[0].fs && m->mkfs[0].n_notes == 1 && m->mkfs[0].n_from == 0);
	CHECK(m->n_not_evaluated == 3 && !m->not_evaluated[0].rule && !m->not_evaluated[1].rule);
	CHECK(m->n_errors == 2 && !m->errors[0].file && m->errors[0].line == 0);
	CHECK(m->n_notices == 0);
	CHECK(m->n_unknown == 2);
	CHECK_STR(m->mount_point, "/srv");
	/* bench.parameters is not a test; "fast" is not a number */
	CHECK(m->n_bench == 1 && m->bench[0].n_values == 2);
	CHECK(report_bench_find(&m->bench[0], "lat_p99_us") &&
	      report_bench_find(&m->bench[0], "lat_p99_us")->unit == UNITS_US);
	CHECK(!report_bench_find(&m->bench[0], "note"));
}

static void check_renderers(const struct session *s)
{
	char dir[] = "/tmp/fstune-test-model.XXXXXX", *t;
	struct fst_error err = FST_ERROR_INIT;

	t = report_session_render(s, report_write_text);
	CHECK(strlen(t) > HUGE_LEN);
	CHECK_CONTAINS(t, "[?] \n    ?\n");
	CHECK_CONTAINS(t, "queue.scheduler: ");
	free(t);
	t = report_session_render(s, report_write_markdown);
	CHECK(strlen(t) > HUGE_LEN);
	free(t);
	free(report_session_render(s, report_write_json));
	/* every string of the wrong-typed model as text, none as markup */
	t = report_session_render(s, report_write_html);
	CHECK(strlen(t) > HUGE_LEN);
	CHECK(strstr(t, "</html>\n") && !strstr(t, "<script"));
	free(t);
	t = report_session_render(s, report_write_openmetrics);
	CHECK_CONTAINS(t, "fstune_findings{device=\"sdz\",mount_point=\"/srv\",severity=\"critical\","
			  "accepted=\"false\"} 1");
	CHECK_CONTAINS(t, "fstune_bench_latency_seconds{device=\"sdz\",mount_point=\"/srv\",test=\"odd\","
			  "quantile=\"0.99\"} 0.0001205");
	free(t);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(99);
	}
	CHECK(scripts_write(dir, s, &err) == FST_EXIT_OK);
	for (size_t i = 0; i < 2; i++) {
		char *path = xasprintf("%s/%s", dir, i ? "revert.sh" : "apply.sh");

		CHECK(unlink(path) == 0);
		free(path);
	}
	rmdir(dir);
}

int main(void)
{
	struct session s = {.origin = SESSION_FROM_FILE, .facts_path = (char *)"hostile.json"};
	json_error_t jerr;
	json_t *res = json_loads(result_text, 0, &jerr);
	char *huge = xmalloc(HUGE_LEN + 1);
	struct report_model *m;

	if (!res) {
		fprintf(stderr, "test fixture: %s at %d\n", jerr.text, jerr.line);
		return 99;
	}
	memset(huge, 'A', HUGE_LEN);
	huge[HUGE_LEN] = '\0';
	json_object_set_new(json_array_get(json_object_get(res, "recommendations"), 4), "id", json_string(huge));
	if (!report_session_load(&s, facts_text, "hostile.json", res, 1))
		return 99;

	check_renderers(&s);
	m = report_model_new(&s);
	/* the model owns what it holds: the session's JSON can go first */
	report_session_free(&s);
	json_decref(res);
	CHECK(m->n_recs == 5);
	check_wrong_types(m);
	check_partly_right(m);
	check_tail(m);
	CHECK(strlen(report_model_group(m, "reformat")->recs[0]->id) == HUGE_LEN);
	report_model_free(m);
	free(huge);
	return CHECK_DONE();
}
