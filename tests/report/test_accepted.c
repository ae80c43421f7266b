/* Unit tests of the accepted findings' bookkeeping across evaluations (app/session/accepted.c): after
 * accepted_forget_use, an entry that accepted a finding of an earlier evaluation only is stale when
 * no loaded rule names it. The file format, the conditions and the report's marks are tested end to
 * end in tests/report/report-accepted.sh and tests/wizard/ui-accepted.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/session/accepted.h"
#include "fstune/status.h"
#include "tests/lib/check.h"

/* The stale ids of `a` against one loaded rule file "queue" whose vectors name only "bfq_on_nvme". */
static char *stale_ids(const struct accepted *a)
{
	json_t *rules = json_pack("[{s:s, s:[{s:[{s:s}]}]}]", "id", "queue", "tests", "expect", "name", "bfq_on_nvme");
	json_t *stale = accepted_stale(a, rules), *e;
	char *out = strdup("");
	size_t i;

	json_array_foreach(stale, i, e) {
		const char *id = json_string_value(json_object_get(e, "id"));
		char *next = malloc(strlen(out) + strlen(id) + 2);

		sprintf(next, "%s%s%s", out, *out ? " " : "", id);
		free(out);
		out = next;
	}
	json_decref(stale);
	json_decref(rules);
	return out;
}

static void test_evaluated_again(void)
{
	struct accepted *a = accepted_new();
	struct fst_error err = FST_ERROR_INIT;
	json_t *first = json_pack("[{s:s}, {s:s}]", "id", "queue.bfq_on_nvme", "id", "queue.made_here_only");
	json_t *again = json_pack("[{s:s}]", "id", "queue.bfq_on_nvme");
	json_t *facts = json_object();

	CHECK(accepted_add(a, "queue.made_here_only", "--accept", &err) == FST_EXIT_OK);
	CHECK(accepted_add(a, "queue.bfq_on_nvme", "--accept", &err) == FST_EXIT_OK);
	CHECK(accepted_add(a, "nosuch.finding", "--accept", &err) == FST_EXIT_OK);
	accepted_mark(a, first, facts);
	CHECK(accepted_is_marked(json_array_get(first, 0)));
	CHECK(accepted_is_marked(json_array_get(first, 1)));
	CHECK_STR_FREE(stale_ids(a), "nosuch.finding");
	/* evaluated again: the finding only the first result had is no longer made, nor in the vectors */
	accepted_forget_use(a);
	accepted_mark(a, again, facts);
	CHECK(accepted_is_marked(json_array_get(again, 0)));
	CHECK_STR_FREE(stale_ids(a), "queue.made_here_only nosuch.finding");
	json_decref(first);
	json_decref(again);
	json_decref(facts);
	accepted_free(a);
}

int main(void)
{
	test_evaluated_again();
	return CHECK_DONE();
}
