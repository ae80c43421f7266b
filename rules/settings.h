/* The setting table of DESIGN.md's vocabulary (rules/settings.c): one row a setting, with its value
 * type and range, disruption class and unit, and the family that builds its apply/revert commands,
 * persistent form and mkfs spec, reads it back and names the fact holding it (settings_<family>.c).
 * Values are checked in settings_value.c. */
#ifndef FSTUNE_RULES_SETTINGS_H
#define FSTUNE_RULES_SETTINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fstune/facts.h"
#include "fstune/units.h"

enum setting_type {
	ST_INT,     /* integer in [min, max]; `pow2` demands a power of two */
	ST_REAL,    /* number in [rmin, rmax] */
	ST_BOOL,    /* true = turn on */
	ST_ENUM,    /* one of `choices` */
	ST_STRING,  /* free text of at most `max` bytes, no control characters */
	ST_FEATURES /* list of feature names [a-z0-9_], each optionally prefixed by ^ */
};

/* What a builder gets and fills. */
struct setting_ctx {
	const struct facts *facts;
	const json_t *value;   /* validated recommended value */
	const json_t *current; /* the rule's or the facts' current value; NULL when unknown */
	const char *fs;        /* filesystem type for mkfs settings; NULL when unknown */
	json_t *apply;         /* array of command lines */
	json_t *revert;        /* array of command lines */
	json_t *persistent;    /* object or NULL (set by builder, owned) */
	json_t *mkfs;          /* {"fs", "args"} or NULL (set by builder, owned) */
	json_t *owners;        /* the facts' owners.<setting>, copied by settings_place; NULL when none */
	const char *disruption; /* set by a builder whose class depends on the facts (a data mode of
	                         * the root filesystem is a reboot); NULL: the setting's own */
	char err[256];         /* set by a builder that cannot build: an error of the rule */
};

struct setting;

/* A family: the settings changed, kept and read back the same way (kernel sysctls, attributes of a
 * disk in sysfs, mount options, ...), one file each. The family, not the name or the builder,
 * answers what kind of setting a row is; what holds for every setting of a family belongs here,
 * what varies between them in the row. */
struct setting_family {
	const char *name; /* "sysctl", "sysfs", "mount", ...: for tests and messages */
	/* Fills c->apply and c->revert (and c->persistent, c->mkfs, c->disruption where it has them)
	 * from c->value and c->current; sets c->err instead when these facts cannot be built on. */
	void (*build)(const struct setting *s, struct setting_ctx *c);
	/* The read-back of a setting apply.sh may change: as rules_setting_read (include/fstune/rules.h).
	 * NULL when there is none (a reformat, an offline change). */
	bool (*read)(const struct setting *s, const struct facts *facts, const json_t *current,
		     char **cmd, char **recorded);
	/* The fact an admin reads the setting's state in when no fact_key holds its value: the list
	 * fact it is one member of (fs.features, fs.mount_options). NULL: fact_key, or none. */
	const char *(*fact)(const struct setting *s);
	/* The current value from the facts when fact_key cannot give it (a mount option's presence
	 * in the option lists). NULL: settings_value_of_fact. Returns a new reference or NULL. */
	json_t *(*current)(const struct setting *s, const struct facts *facts);
	/* The file fstune apply installs the persistent form in, and the only one undo gives back for
	 * a setting of the family; when it is named NN-fstune.EXT, settings_place may choose a sibling
	 * NN-fstune.EXT or zz-fstune.EXT instead. NULL: the family has none fstune installs. */
	const char *persistent_file;
	/* A fact besides the setting's own that its revert is built from and that applying it changes
	 * (the ratio of a bytes sysctl, which writing the bytes zeroes): apply records its value before
	 * the change, so that undo builds the same revert. NULL: none. */
	const char *(*revert_fact)(const struct setting *s);
	/* The setting is one for the whole host, which no namespace confines: a container changing it
	 * changes it for every tenant (vm.* sysctls, a disk's attributes, a bdi). */
	bool host_wide;
};

/* One row of the table. The builder parameters `key` and `alt` are the family's to read. */
struct setting {
	const char *name;
	const struct setting_family *family;
	enum setting_type type;
	long long min, max;          /* ST_INT range; ST_STRING: max = longest length in bytes;
	                              * ST_FEATURES: max = most names in the list */
	double rmin, rmax;           /* ST_REAL range */
	bool pow2;                   /* ST_INT: power of two only */
	bool zero_unsets;            /* ST_INT: 0 is valid below `min` and means "remove the override" */
	const char *const *choices;  /* ST_ENUM values, NULL-terminated */
	const char *disruption;      /* advice, runtime, online, remount, offline, reboot, reformat */
	const char *fact_key;        /* facts key of the current value; NULL when there is none */
	const char *fact_per;        /* facts key dividing fact_key's value into the setting's unit
	                              * (bytes / fs.block_size = blocks); NULL when used as is */
	enum units_kind unit;        /* the value's unit where neither its fact nor its name says it
	                              * (mkfs.inode_ratio: bytes); UNITS_UNSET: fact_key's unit */
	const char *key;             /* builder parameter: sysctl name, sysfs attribute, option, flag */
	const char *alt;             /* builder parameter: counterpart sysctl, "off" option, ... */
	const char *help;            /* one line for `rules list --format markdown` and the man page */
};

const struct setting *settings_find(const char *name);
const struct setting *settings_all(size_t *n);
const char *settings_type_name(const struct setting *s);
/* Describes a setting's range in words ("0..100", "one of none, mq-deadline"): into buf. */
const char *settings_range_text(const struct setting *s, char *buf, size_t len);

/* Checks `v` against the type and (when `check_range`) the range. false with `msg` on mismatch. */
bool settings_check_value(const struct setting *s, const json_t *v, bool check_range, char *msg,
			  size_t msglen);
/* The value fact_key holds, typed as the setting's values are (bytes as blocks by fact_per, a 0/1
 * as a boolean); NULL when the facts lack it or it does not fit the type. New reference. */
json_t *settings_value_of_fact(const struct setting *s, const struct facts *facts);
/* The setting's current value as the facts show it: the family's reading, else
 * settings_value_of_fact. What a rule's `current` defaults to. New reference or NULL. */
json_t *settings_current(const struct setting *s, const struct facts *facts);

/* Builds apply/revert/persistent/mkfs for one recommendation. false with c->err set when the
 * setting cannot be built from these facts (e.g. a mkfs setting for a filesystem it does not apply
 * to). */
bool settings_build(const struct setting *s, struct setting_ctx *c);

/* Places the persistent form the builder made where it wins over what else manages the setting
 * (facts owners.<setting>, host.tuned_*), adding "placement" {reason, note} to it, or makes it a
 * tuned child profile when tuned is active; copies the owners into c->owners (settings_owners.c).
 * Called by settings_build. */
void settings_place(const struct setting *s, struct setting_ctx *c);

/* Whether mkfs option `flag` of filesystem `fs` is a comma-joined list (mke2fs -E/-O, mkfs.xfs -d);
 * settings_mkfs.c, with the program of each filesystem. */
bool settings_mkfs_flag_joins(const char *fs, const char *flag);
/* The program that makes filesystem `fs` ("mkfs.ext4", "newfs"). */
const char *settings_mkfs_program(const char *fs);

/* What the builders read from the facts to name the target (settings_facts.c). */
/* The absolute path fact `key` as a shell word: its bytes quoted (a name that is not UTF-8 is
 * escaped in the facts: facts_get_bytes), or `unnamed` when the facts lack it. malloc'd. */
char *settings_path_word(const struct facts *facts, const char *key, const char *unnamed);
/* The facts' mount point as a shell word, or "${MOUNTPOINT:?}". malloc'd. */
char *settings_mount_word(const struct facts *facts);
/* Whether the facts' filesystem is the root one, which cannot be unmounted to change it. */
bool settings_is_root_mount(const struct facts *facts);
/* false with c->err set when the recommendation's filesystem is known and not ext2/3/4. */
bool settings_is_ext_target(const struct setting *s, struct setting_ctx *c);
/* Offline: unmount (when mounted), run `cmds`, and mount the device again on its mount point with
 * the options it had (an fstab entry for it may not exist), as filesystem `type` (NULL: as it
 * was), without the options `drop` names and with `add` (settings_mount_back_as). */
void settings_offline_wrap(struct setting_ctx *c, json_t *arr, const char *const *cmds, size_t n,
			   const char *type, const char *const *drop, const char *add);
/* A shell word naming the device of the facts: its quoted path, or "${DEVICE:?}". malloc'd. */
char *settings_device_word(const struct facts *facts);

/* The kernel name of the whole disk: device.disk, else what device.name implies (a partition's
 * disk, or the name itself); NULL when the facts name no device. Not validated. malloc'd. */
char *settings_disk_name(const struct facts *facts);
/* " -f" when making `fs` over the filesystem the facts describe needs it (mkfs.xfs and mkfs.btrfs
 * refuse an existing signature without it; mke2fs asks on the terminal instead), else "". */
const char *settings_mkfs_force(const char *fs, const struct facts *facts);
/* Whether a value can stand in a udev rule's double-quoted match (no quote, backslash, newline). */
bool settings_udev_safe(const char *s);
/* The udev match for whole disk `disk`: ENV{DEVTYPE}=="disk" and ENV{<property>}=="<value>" on the
 * strongest identity whose udev property the facts name (serial, WWN, MD_UUID, DM_UUID), else
 * KERNEL=="<disk>" with *comment set to a rule-file comment line saying why. Both malloc'd. */
char *settings_udev_match(const struct facts *facts, const char *disk, char **comment);
/* "mount [-t TYPE] [-o OPTS] DEVICE MNT": the filesystem mounted again on `mnt` (a shell word) with
 * the per-mount and superblock options the probe found, needing no fstab entry. malloc'd. */
char *settings_mount_back(const struct facts *facts, const char *mnt);
/* The same, as filesystem `type` (NULL: fs.type), without the options `drop` names ("name", or
 * "name=" for every value of it; NULL-terminated, may be NULL) and with option `add` (may be NULL). */
char *settings_mount_back_as(const struct facts *facts, const char *mnt, const char *type,
			     const char *const *drop, const char *add);

#endif
