/* What the owners probe's source files share (probes/owners*.c): the list of owners being built,
 * the settings each source can own, and the configuration-directory listing that systemd-sysctl
 * and udev both use. Not a public contract: the facts `owners.<setting>` are (doc/facts.md). */
#ifndef FSTUNE_PROBES_OWNERS_H
#define FSTUNE_PROBES_OWNERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/facts.h"
#include "fstune/probe.h"

/* The owners found so far: setting name -> array of owner objects, each source's in the order it
 * applies them. Each object has at least kind, path, line, key (the name as the file spells it),
 * value (as written; null when the owner does not set it) and wins (true, false or "unknown"), and
 * may have note, via, profile, section, matches and run (doc/facts.md). */
struct owners {
	json_t *by_setting;
	const struct facts *facts; /* the probe's facts so far: device.disk, fs.mount_point, ... */
};

/* Appends an owner of `setting` and returns it (borrowed) for the caller to add fields to. `value`
 * may be NULL (the owner manages the setting without naming a value: an fstab entry without the
 * option). `wins` starts false; the source decides it. */
json_t *owners_add(struct owners *o, const char *setting, const char *kind, const char *path, int line,
		   const char *key, const char *value);
/* The list of `setting`, NULL when nobody owns it (borrowed). */
json_t *owners_list(const struct owners *o, const char *setting);

/* The sysctl names fstune may recommend ("vm.dirty_ratio") and their setting names. */
struct owners_sysctl_name {
	const char *sysctl;  /* dotted, as sysctl(8) spells it */
	const char *setting; /* "sysctl.vm.dirty_ratio" */
};
#define OWNERS_N_SYSCTL 7
extern const struct owners_sysctl_name owners_sysctl_names[OWNERS_N_SYSCTL];
/* The setting of a sysctl key as a file spells it ("vm/dirty_ratio", "vm.dirty_ratio"); NULL when
 * fstune never recommends it. */
const char *owners_sysctl_setting(const char *key);
/* The dotted form of a sysctl key (sysctl.d(5): when the first separator is '/', slashes and dots
 * swap). Caller frees. */
char *owners_sysctl_normalize(const char *key);

/* One file of a drop-in directory set, as systemd's conf-files listing sees it. */
struct owners_conf {
	char *name;   /* file name: the sort key, whatever the directory */
	char *path;   /* live path of the file that counts (the highest-priority directory's) */
	char *target; /* when `path` is a symbolic link to a file: the live path it reaches; else NULL */
	bool masked;  /* `path` is a link to /dev/null or an empty file: nothing is read */
};
/* The files ending in `suffix` of `dirs` (highest priority first, e.g. /etc before /run before
 * /usr/lib), through the sysroot: one entry per name, the first directory's file masking the
 * others of that name, sorted by name (strcmp, as systemd does) whatever the directory.
 * Returns the array (n entries) or NULL with *n = 0; free with owners_conf_free. */
struct owners_conf *owners_conf_list(const char *const *dirs, const char *suffix, size_t *n);
void owners_conf_free(struct owners_conf *c, size_t n);
/* The text of one listed file (its link target's, read inside the sysroot); NULL when masked or
 * unreadable. Caller frees. */
char *owners_conf_read(const struct owners_conf *c);
/* Splits `text` into lines in place: calls fn(line, 1-based number, arg) for each. A line ending in
 * a backslash continues on the next when `continued` (udev rules), reported at its first line. */
void owners_lines(char *text, bool continued, void (*fn)(char *line, int no, void *arg), void *arg);
/* `s` without leading and trailing blanks, in place. */
char *owners_trim(char *s);

/* The sources, each one file (probes/owners_<source>.c). They only add owners and decide `wins`
 * among their own; owners.c decides between sources. */
void owners_sysctl_collect(struct owners *o);
/* Sets *active when a tuned profile is active; fills the host.tuned_* facts. */
void owners_tuned_collect(struct owners *o, struct facts *f, bool *active);
void owners_udev_collect(struct owners *o);
void owners_mount_collect(struct owners *o);

#endif
