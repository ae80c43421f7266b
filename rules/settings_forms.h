/* The shapes of what every family's builder makes (rules/settings_forms.c). */
#ifndef FSTUNE_RULES_SETTINGS_FORMS_H
#define FSTUNE_RULES_SETTINGS_FORMS_H

#include <jansson.h>
#include <stdbool.h>

/* A value as text: integers exactly, reals shortest, strings verbatim, booleans 1/0. malloc'd. */
char *settings_value_text(const json_t *v);
/* A list of strings joined by commas: a features list as mke2fs -O wants it ("a,^b"), mount
 * options as mountinfo shows them. malloc'd. */
char *settings_list_text(const json_t *list);
/* Appends one formatted command line to `arr`. */
void settings_add_cmd(json_t *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A persistent form that is one line in a file: {"kind", "path", "line"}. */
json_t *settings_file_line(const char *kind, const char *path, const char *line);
#define SETTINGS_FSTAB_FILE "/etc/fstab"
/* After 60-persistent-storage.rules and mdadm's 63-md-raid-arrays.rules, which set the ID_*, MD_*
 * and DM_* properties the rules match on. */
#define SETTINGS_UDEV_FILE "/etc/udev/rules.d/69-fstune.rules"

/* An fstab change in words, with the machine-readable part beside it: `field` ("option" or "type")
 * set to `value`. */
json_t *settings_fstab_change(const char *field, const char *value, const char *line);
/* `echo VALUE > QPATH` into `apply`, and into `revert` the same with `current` when it is known:
 * an attribute file of sysfs, `qpath` already a shell word. */
void settings_echo_value(json_t *apply, json_t *revert, const json_t *value, const json_t *current,
			 const char *qpath);
/* The read-back that prints `cmd`'s value as `current` shows it: sets both and returns true; false
 * (nothing set) when cmd or current is NULL. Takes cmd. */
bool settings_read_value(char *cmd, const json_t *current, char **out_cmd, char **recorded);

#endif
