/* The setting families, one file each, that the table's rows name (rules/settings.c). Not for the
 * rest of the engine, which asks the table (rules/settings.h). */
#ifndef FSTUNE_RULES_SETTINGS_FAMILY_H
#define FSTUNE_RULES_SETTINGS_FAMILY_H

#include <jansson.h>
#include <stdbool.h>

#include "rules/settings.h"

extern const struct setting_family setting_family_sysctl;          /* settings_sysctl.c */
extern const struct setting_family setting_family_sysfs;           /* settings_sysfs.c */
extern const struct setting_family setting_family_bdi;             /* settings_bdi.c */
extern const struct setting_family setting_family_xfs_growfs;      /* settings_xfs.c */
extern const struct setting_family setting_family_mount;           /* settings_mount.c */
extern const struct setting_family setting_family_mount_data;      /* settings_mount.c */
extern const struct setting_family setting_family_ext_feature;     /* settings_ext.c */
extern const struct setting_family setting_family_ext_journal;     /* settings_ext.c */
extern const struct setting_family setting_family_tune2fs;         /* settings_ext.c */
extern const struct setting_family setting_family_tune2fs_extended; /* settings_ext.c */
extern const struct setting_family setting_family_mkfs;            /* settings_mkfs.c */
extern const struct setting_family setting_family_freebsd_sysctl;  /* settings_freebsd.c */
extern const struct setting_family setting_family_freebsd_loader;  /* settings_freebsd.c */
extern const struct setting_family setting_family_systemd_unit;    /* settings_systemd.c */
extern const struct setting_family setting_family_nocow;           /* settings_layout.c */
extern const struct setting_family setting_family_advice;          /* settings_layout.c */

/* `sysctl -n KEY`, which FreeBSD's sysctl(8) takes too (settings_sysctl.c). */
bool settings_read_sysctl(const struct setting *s, const struct facts *facts, const json_t *current,
			  char **cmd, char **recorded);
/* For a setting of the mount family: the option `value` turns on and the ones an fstab entry must
 * lose, as rules_setting_mount_change (settings_mount.c). */
void settings_mount_change(const struct setting *s, const json_t *value, char **on, char **off);

#endif
