/* libFuzzer target: the facts JSON reader (facts_from_json) on arbitrary bytes, and the writer on
 * whatever the reader accepted. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fstune/facts.h"
#include "tests/fuzz/fuzz.h"

static void visit(const char *key, const json_t *value, void *arg)
{
	size_t *n = arg;

	(void)key;
	(void)value;
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_from_json((const char *)data, size, "fuzz", &err);
	size_t n = 0;

	if (!f) {
		if (err.status != FST_EXIT_USAGE || !err.msg[0])
			__builtin_trap(); /* a refusal must say why, with status 2 */
		return 0;
	}
	free(facts_to_json(f));
	facts_foreach(f, visit, &n);
	(void)facts_failed_count(f);
	facts_free(f);
	return 0;
}
