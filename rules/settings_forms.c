/* The shapes of what every family's builder makes: a value as command text, a command appended to
 * a list, a persistent form (a line in a file, an fstab change) and a read-back of a value. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/shell.h"
#include "lib/xalloc.h"
#include "rules/settings_forms.h"

char *settings_value_text(const json_t *v)
{
	if (json_is_integer(v))
		return xasprintf("%lld", (long long)json_integer_value(v));
	if (json_is_real(v))
		return xasprintf("%.15g", json_real_value(v));
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "1" : "0");
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	return xstrdup("");
}

char *settings_list_text(const json_t *list)
{
	size_t i, n = 0;
	json_t *e;
	char *out;

	json_array_foreach(list, i, e)
		n += strlen(json_string_value(e)) + 1;
	out = xcalloc(1, n + 1);
	json_array_foreach(list, i, e) {
		if (i)
			strcat(out, ",");
		strcat(out, json_string_value(e));
	}
	return out;
}

void settings_add_cmd(json_t *arr, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	json_array_append_new(arr, json_string(s));
	free(s);
}

json_t *settings_file_line(const char *kind, const char *path, const char *line)
{
	return json_pack("{s:s, s:s, s:s}", "kind", kind, "path", path, "line", line);
}

json_t *settings_fstab_change(const char *field, const char *value, const char *line)
{
	return json_pack("{s:s, s:s, s:s, s:s}", "kind", "fstab", "path", SETTINGS_FSTAB_FILE, field, value,
			 "line", line);
}

void settings_echo_value(json_t *apply, json_t *revert, const json_t *value, const json_t *current,
			 const char *qpath)
{
	const json_t *v[2] = {value, current};
	json_t *arr[2] = {apply, revert};

	for (size_t i = 0; i < 2; i++) {
		char *text, *q;

		if (!v[i])
			continue;
		text = settings_value_text(v[i]);
		q = fst_shell_quote(text);
		settings_add_cmd(arr[i], "echo %s > %s", q, qpath);
		free(text);
		free(q);
	}
}

bool settings_read_value(char *cmd, const json_t *current, char **out_cmd, char **recorded)
{
	if (!cmd || !current) {
		free(cmd);
		return false;
	}
	*out_cmd = cmd;
	*recorded = settings_value_text(current);
	return true;
}
