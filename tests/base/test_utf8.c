/* Strings from the machine as bytes: the UTF-8 check agrees with jansson's, escaping makes any byte
 * string valid UTF-8 and decodes back to the same bytes, the facts escape a value (and list its key
 * in "escaped") only when it needs it, through a JSON round trip, and shell quoting passes the
 * original bytes in a word that is itself valid UTF-8. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fstune/facts.h"
#include "fstune/shell.h"
#include "fstune/utf8.h"
#include "tests/lib/check.h"

/* Every string of 1..3 bytes over an alphabet of the interesting bytes: our check against jansson's,
 * and escape then unescape gives the bytes back. */
static void test_exhaustive(void)
{
	static const unsigned char alpha[] = {'a', '\\', 'x', '0', 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xc3, 0xa9,
					      0xe0, 0xed, 0xa0, 0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xfe, 0xff};
	size_t n = sizeof alpha, bad = 0;

	for (size_t len = 1; len <= 3; len++) {
		size_t total = 1;

		for (size_t k = 0; k < len; k++)
			total *= n;
		for (size_t code = 0; code < total; code++) {
			char s[4] = "", *e, *d;
			size_t c = code;
			json_t *j;

			for (size_t k = 0; k < len; k++, c /= n)
				s[k] = (char)alpha[c % n];
			j = json_string(s);
			if ((j != NULL) != fst_utf8_is_valid(s, len))
				bad++;
			json_decref(j);
			e = fst_utf8_escape(s);
			d = fst_utf8_unescape(e);
			if (!fst_utf8_is_valid(e, strlen(e)) || strcmp(d, s) || (fst_utf8_is_valid(s, len) && strchr(s, '\\') == NULL && strcmp(e, s)))
				bad++;
			free(e);
			free(d);
		}
	}
	CHECK(bad == 0);
}

static void test_escape_forms(void)
{
	CHECK_STR_FREE(fst_utf8_escape("/srv/\xff\xfe" "a\\b"), "/srv/\\xff\\xfea\\\\b");
	CHECK_STR_FREE(fst_utf8_escape("caf\xc3\xa9"), "caf\xc3\xa9");
	CHECK_STR_FREE(fst_utf8_escape("\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* a surrogate */
	CHECK_STR_FREE(fst_utf8_escape("\xc0\xaf"), "\\xc0\\xaf");          /* an overlong '/' */
	/* a hand-written value decodes to something: a lone backslash, \x00, \x0a (never a control
	 * character), \x41 (escaping writes only 80..ff), \xZZ stand for themselves */
	CHECK_STR_FREE(fst_utf8_unescape("a\\qb\\x00\\x0a\\xZZ\\"), "a\\qb\\x00\\x0a\\xZZ\\");
	CHECK_STR_FREE(fst_utf8_unescape("\\x41\\xC3\\xa9\\\\x41"), "\\x41\xc3\xa9\\x41");
}

static void test_facts(void)
{
	struct facts *f = facts_new(), *g;
	struct fst_error err = FST_ERROR_INIT;
	const char *const opts[] = {"rw", "x\xff"};
	char *text, *b;
	const char *bad;

	facts_set_string(f, "fs.mount_point", "/mnt/\xff\xfe", "mountinfo");
	facts_set_string(f, "fs.label", "a\\b", "blkid"); /* valid: as it is, not listed */
	facts_set_strings(f, "fs.mount_options", opts, 2, "mountinfo");
	facts_set_unavailable(f, "device.model", FACTS_FAILED, "read /sys/\xff: bad");
	CHECK(facts_is_escaped(f, "fs.mount_point"));
	CHECK(!facts_is_escaped(f, "fs.label"));
	CHECK(facts_is_escaped(f, "fs.mount_options"));
	CHECK_STR(facts_get_string(f, "fs.mount_point"), "/mnt/\\xff\\xfe");
	CHECK_STR_FREE(facts_get_bytes(f, "fs.mount_point"), "/mnt/\xff\xfe");
	CHECK_STR_FREE(facts_get_bytes(f, "fs.label"), "a\\b");
	text = facts_to_json(f);
	CHECK(text != NULL);
	g = text ? facts_from_json(text, strlen(text), "rt", &err) : NULL;
	CHECK(g != NULL);
	if (g) {
		CHECK(facts_is_escaped(g, "fs.mount_point"));
		CHECK_STR_FREE(facts_get_bytes(g, "fs.mount_point"), "/mnt/\xff\xfe");
		CHECK(!facts_is_escaped(g, "fs.label"));
		facts_free(g);
	}
	free(text);
	/* a valid value set again drops the listing; removing the key does too */
	facts_set_string(f, "fs.mount_point", "/mnt/ok", "mountinfo");
	CHECK(!facts_is_escaped(f, "fs.mount_point"));
	facts_remove(f, "fs.mount_options");
	CHECK(!facts_is_escaped(f, "fs.mount_options"));
	CHECK(json_object_get(f->doc, FACTS_ESCAPED) == NULL);
	b = facts_get_bytes(f, "fs.nothing");
	CHECK(b == NULL);
	facts_free(f);
	/* a malformed "escaped" is a usage error that names it */
	bad = "{\"fs\": {}, \"escaped\": {}}";
	g = facts_from_json(bad, strlen(bad), "bad.json", &err);
	CHECK(g == NULL && err.status == FST_EXIT_USAGE);
	CHECK_CONTAINS(err.msg, "\"escaped\"");
	facts_free(g);
}

static void test_shell_quote(void)
{
	const char *raw = "/srv/it's \xff\xfe.d";
	char *q = fst_shell_quote(raw);

	CHECK_STR(q, "'/srv/it'\\''s '\"$(printf '\\377\\376')\"'.d'");
	CHECK(fst_utf8_is_valid(q, strlen(q)));
	free(q);
	CHECK_STR_FREE(fst_shell_quote("\xff"), "\"$(printf '\\377')\"");
	CHECK_STR_FREE(fst_shell_quote("/dev/sda"), "/dev/sda");
	CHECK_STR_FREE(fst_shell_quote(""), "''");
}

int main(void)
{
	test_exhaustive();
	test_escape_forms();
	test_facts();
	test_shell_quote();
	return CHECK_DONE();
}
