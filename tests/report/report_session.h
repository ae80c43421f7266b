/* A session as the report's renderers see one after session_evaluate, from hand-made facts and a
 * hand-made rule result: for the unit tests of the writers and of the report model. */
#ifndef FSTUNE_TEST_REPORT_SESSION_H
#define FSTUNE_TEST_REPORT_SESSION_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/session/session.h"
#include "tests/lib/check.h"

/* Reads `facts_text` (named `name` in messages) into s->facts and takes the members of `result` as
 * the rules' result; false, said on stderr, when the facts do not load. */
static inline bool report_session_load(struct session *s, const char *facts_text, const char *name,
				       const json_t *result, size_t n_loaded)
{
	struct fst_error err = FST_ERROR_INIT;

	s->facts = facts_from_json(facts_text, strlen(facts_text), name, &err);
	if (!s->facts) {
		fprintf(stderr, "test fixture: %s\n", err.msg);
		return false;
	}
	s->result.recommendations = json_incref(json_object_get(result, "recommendations"));
	s->result.mkfs = json_incref(json_object_get(result, "mkfs"));
	s->result.not_evaluated = json_incref(json_object_get(result, "not_evaluated"));
	s->result.errors = json_incref(json_object_get(result, "errors"));
	s->result.notices = json_incref(json_object_get(result, "notices"));
	s->result.n_loaded = n_loaded;
	s->is_evaluated = true;
	return true;
}

/* Drops what report_session_load took. */
static inline void report_session_free(struct session *s)
{
	json_decref(s->result.recommendations);
	json_decref(s->result.mkfs);
	json_decref(s->result.not_evaluated);
	json_decref(s->result.errors);
	json_decref(s->result.notices);
	facts_free(s->facts);
}

/* What writer `fn` writes of `s`, checked to succeed. Caller frees. TEST_REPORT_DUMP=1 also writes
 * it to stderr, to look at the layout by eye. */
static inline char *report_session_render(const struct session *s, int (*fn)(const struct session *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	CHECK(fn(s, m) == 0);
	fclose(m);
	if (getenv("TEST_REPORT_DUMP"))
		fputs(buf, stderr);
	return buf;
}

#endif
