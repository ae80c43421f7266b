/* The `fstune.report/1` JSON document: the facts and the rule engine's result as they are, plus a
 * `generated` block. `report --facts` reads such a document back (its "facts" member). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "app/render/report_render.h"
#include "fstune/utf8.h"

#define REPORT_SCHEMA "fstune.report/1"

static json_t *generated_block(const struct session *s)
{
	char host[256] = "unknown", when[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	json_t *g;

	if (gethostname(host, sizeof(host) - 1) != 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	g = json_pack("{s:s, s:s, s:s}", "version", PACKAGE_VERSION, "time", when, "host", host);
	if (s->origin == SESSION_FROM_FILE)
		json_object_set_new(g, "facts_file", fst_json_text(s->facts_path));
	else if (s->target && s->target->path)
		json_object_set_new(g, "target", fst_json_text(s->target->path));
	return g;
}

/* A member of the result, or an empty array when the rules were not evaluated. */
static json_t *array_or_empty(json_t *a)
{
	return a ? json_incref(a) : json_array();
}

json_t *report_json(const struct session *s, bool generated)
{
	json_t *doc = json_object(), *leftovers;
	char *headline;

	json_object_set_new(doc, "schema", json_string(REPORT_SCHEMA));
	if (generated)
		json_object_set_new(doc, "generated", generated_block(s));
	headline = report_headline(s);
	if (headline)
		json_object_set_new(doc, "headline", json_string(headline));
	free(headline);
	json_object_set(doc, "facts", s->facts->doc);
	json_object_set_new(doc, "recommendations", array_or_empty(s->result.recommendations));
	json_object_set_new(doc, "mkfs", array_or_empty(s->result.mkfs));
	json_object_set_new(doc, "not_evaluated", array_or_empty(s->result.not_evaluated));
	json_object_set_new(doc, "errors", array_or_empty(s->result.errors));
	json_object_set_new(doc, "notices", array_or_empty(s->result.notices));
	leftovers = report_leftovers(s);
	if (json_array_size(leftovers))
		json_object_set(doc, "leftovers", leftovers);
	json_decref(leftovers);
	if (s->accepted_stale)
		json_object_set(doc, "accepted_stale", s->accepted_stale);
	return doc;
}

int report_write_json(const struct session *s, FILE *out)
{
	json_t *doc = report_json(s, true);
	int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));

	json_decref(doc);
	if (rc == 0 && fputc('\n', out) != EOF && fflush(out) == 0 && !ferror(out))
		return 0;
	if (!errno)
		errno = EIO;
	return -1;
}
