/* Writes doc/facts.md with its key table generated from the facts schema (lib/facts_schema.c): the
 * file named on the command line is copied to standard output, and the lines between its two marker
 * comments are replaced by one row per schema entry. `make facts-table` runs it; tests/base/facts-schema.sh
 * fails when the checked-in file differs from what it writes. Exit status 2 on a file without the
 * markers, or that cannot be read. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/facts_schema.h"

#define BEGIN_MARK "<!-- BEGIN facts-table"
#define END_MARK "<!-- END facts-table"

/* "an integer" -> "integer", "true or false" -> "bool": a column names types, it does not say them. */
static const char *bare_type(enum facts_type t)
{
	const char *n = facts_schema_type_name(t);

	if (t == FACTS_T_BOOL)
		return "bool";
	if (t == FACTS_T_ANY)
		return "any";
	if (!strncmp(n, "an ", 3))
		return n + 3;
	if (!strncmp(n, "a ", 2))
		return n + 2;
	return n;
}

static void write_table(FILE *out)
{
	fputs("| key | type | unit | label |\n|---|---|---|---|\n", out);
	for (size_t i = 0; i < facts_schema_size(); i++) {
		const struct facts_key_info *k = facts_schema_at(i);

		fprintf(out, "| `%s` | %s | %s | %s%s |\n", k->key, bare_type(k->type), units_name(k->unit),
			k->label, k->flags & FACTS_F_HAND_WRITTEN ? " (*hand-written only*)" : "");
	}
}

int main(int argc, char **argv)
{
	FILE *in;
	char *line = NULL;
	size_t cap = 0;
	int state = 0; /* 0 before the table, 1 inside it, 2 after it */

	if (argc != 2) {
		fprintf(stderr, "usage: %s doc/facts.md\n", argv[0]);
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 2;
	}
	while (getline(&line, &cap, in) != -1) {
		if (state == 1 && !strncmp(line, END_MARK, strlen(END_MARK))) {
			write_table(stdout);
			state = 2;
		}
		if (state != 1)
			fputs(line, stdout);
		if (state == 0 && !strncmp(line, BEGIN_MARK, strlen(BEGIN_MARK)))
			state = 1;
	}
	free(line);
	fclose(in);
	if (state != 2) {
		fprintf(stderr, "%s: no \"%s ...\" and \"%s ...\" lines around the key table\n", argv[1], BEGIN_MARK,
			END_MARK);
		return 2;
	}
	return 0;
}
