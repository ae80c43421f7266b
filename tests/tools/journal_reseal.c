/* Test tool: recomputes every checksum of a journal file in place, as a forger would (the checksum
 * finds hand edits, not attacks). Usage: journal-reseal FILE. Exit 0, or 99 when FILE is not JSON. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/apply/apply.h"

static void reseal(json_t *rec)
{
	char *sum;

	if (!json_is_object(rec))
		return;
	sum = journal_record_sum(rec);
	json_object_set_new(rec, "sum", json_string(sum));
	free(sum);
}

int main(int argc, char **argv)
{
	json_error_t jerr;
	json_t *doc, *c;
	size_t i;

	if (argc != 2 || !(doc = json_load_file(argv[1], 0, &jerr))) {
		fprintf(stderr, "journal-reseal: %s: %s\n", argc == 2 ? argv[1] : "usage: journal-reseal FILE",
			argc == 2 ? jerr.text : "one journal file");
		return 99;
	}
	reseal(json_object_get(doc, "run"));
	json_array_foreach(json_object_get(doc, "changes"), i, c)
		reseal(c);
	if (json_dump_file(doc, argv[1], JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		fprintf(stderr, "journal-reseal: cannot write %s\n", argv[1]);
		return 99;
	}
	json_decref(doc);
	return 0;
}
