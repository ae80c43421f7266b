/* The known fact keys (DESIGN.md's key table), each with its type, its unit and a short label. The
 * types check facts read from files, so that a wrong type names the dotted key and the type expected;
 * the units and labels are how every renderer shows a value (the Detected screen, the report,
 * `fstune probe`), and doc/facts.md's key table is generated from them. Unknown keys are accepted as
 * they are (rule authors may add facts) and listed for a warning: a misspelled key would otherwise go
 * unseen. */
#ifndef FSTUNE_FACTS_SCHEMA_H
#define FSTUNE_FACTS_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/units.h"

enum facts_type {
	FACTS_T_INT,     /* a whole number */
	FACTS_T_NUM,     /* any number (integers accepted) */
	FACTS_T_BOOL,
	FACTS_T_STRING,
	FACTS_T_STRLIST, /* a list of strings */
	FACTS_T_INTLIST, /* a list of whole numbers */
	FACTS_T_OBJECT,  /* a subtree */
	FACTS_T_OBJLIST, /* a list of objects (owners.<setting>) */
	FACTS_T_ANY,     /* anything: the bench layer's own detail under bench.<test> */
};

enum {
	FACTS_F_HAND_WRITTEN = 1, /* only in hand-written facts: no live probe sets it */
};

/* One row of the schema. */
struct facts_key_info {
	const char *key;     /* dotted key, or a pattern where "*" stands for one segment (bench.*.iops) */
	enum facts_type type;
	enum units_kind unit;
	const char *label;   /* short, for people: "Logical sector size" */
	unsigned flags;      /* FACTS_F_* */
};

/* The row that describes `key` (a dotted key of a document, not a pattern), NULL when unknown. A key
 * takes the first row that matches it. */
const struct facts_key_info *facts_schema_find(const char *key);
/* The unit of `key`'s value; UNITS_PLAIN for a key the schema does not know. */
enum units_kind facts_schema_unit(const char *key);
/* The rows in table order, for documentation and tests: i < facts_schema_size(). */
size_t facts_schema_size(void);
const struct facts_key_info *facts_schema_at(size_t i);

/* The expected type of a dotted key, false when the key is not a known one. Patterns in the table may
 * use "*" for one segment (bench.*.iops). */
bool facts_schema_lookup(const char *key, enum facts_type *type);
/* Whether `key` is a known key that only hand-written facts hold (vm.bdflush, freebsd.*). */
bool facts_schema_is_hand_written_only(const char *key);
/* Whether `value` has type `type`. */
bool facts_schema_matches(enum facts_type type, const json_t *value);
/* The keys of a facts document (its branches, not "schema", "sources" or "unavailable") that the
 * schema does not know, as a new array of messages naming each: "unknown group \"filesystem\"" for a
 * branch no known key starts with (its keys are not listed one by one), "unknown key fs.tpye" for the
 * rest. A subtree under an unknown key is named once. Empty when everything is known. */
json_t *facts_schema_unknown(const json_t *doc);
/* "an integer", "a list of strings", ... for messages. */
const char *facts_schema_type_name(enum facts_type type);

#endif
