/* The udev probe: enriches device.* with what udev's database knows (model, serial, WWN, bus, the
 * persistent path) when a database exists and the device is initialized. Live, through libudev.
 * Under --sysroot libudev would read the live /run, so the capture's own copy is read instead:
 * udev's database file run/udev/data/b<MAJ>:<MIN> ("E:KEY=VALUE" lines), else the per-device file
 * util-linux's mk-input.sh writes, dev/<NAME> (`udevadm info --query=property`: "KEY=VALUE"
 * lines). A capture has no device node to give to libblkid, so there the same data also gives the
 * device's own signature (ID_FS_*), as udev's blkid builtin found it. */
#include "config.h"

#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/registry.h"

/* One device's udev properties: a libudev device (live) or the parsed lines of a capture file. */
struct udev_props {
	struct udev_device *live; /* NULL for a capture */
	char *text;               /* the capture file, cut in place into keys and values */
	char **keys, **values;
	size_t n;
};

static const char *props_get(const struct udev_props *p, const char *prop)
{
	if (p->live)
		return udev_device_get_property_value(p->live, prop);
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->keys[i], prop) == 0)
			return p->values[i];
	return NULL;
}

static void props_free(struct udev_props *p)
{
	free(p->text);
	free(p->keys);
	free(p->values);
	memset(p, 0, sizeof(*p));
}

/* Cuts `text` into properties: each line "<prefix>KEY=VALUE"; lines without the prefix (udev's
 * I:, S:, G: records) are not properties. Takes ownership of `text`. */
static void props_parse(struct udev_props *p, char *text, const char *prefix)
{
	size_t plen = strlen(prefix);
	char *save = NULL;

	memset(p, 0, sizeof(*p));
	p->text = text;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq;

		if (strncmp(line, prefix, plen) != 0 || !(eq = strchr(line + plen, '=')) || eq == line + plen)
			continue;
		*eq = '\0';
		p->keys = xrealloc(p->keys, (p->n + 1) * sizeof(*p->keys));
		p->values = xrealloc(p->values, (p->n + 1) * sizeof(*p->values));
		p->keys[p->n] = line + plen;
		p->values[p->n++] = eq + 1;
	}
}

/* A capture file, only when it is a regular file: a capture that copied /dev with its nodes must
 * not make fstune read a live device. */
static char *read_capture_file(const char *dir, const char *name)
{
	char *p = path_resolve("%s/%s", dir, name);
	struct stat st;
	bool is_file = lstat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return is_file ? path_read_string("%s/%s", dir, name) : NULL;
}

/* The capture's udev properties of the block device `name`. False when it holds none. */
static bool props_from_capture(struct udev_props *p, const char *name)
{
	char *devno = path_read_string("/sys/class/block/%s/dev", name), *text = NULL, *dm, *file;

	if (devno) {
		file = xasprintf("b%s", devno);
		text = read_capture_file("/run/udev/data", file);
		free(file);
	}
	free(devno);
	if (text) {
		props_parse(p, text, "E:");
		return true;
	}
	text = read_capture_file("/dev", name);
	/* lsblk names a device-mapper device by its /dev/mapper link, so the capture does too */
	if (!text && (dm = path_read_string("/sys/class/block/%s/dm/name", name))) {
		text = read_capture_file("/dev/mapper", dm);
		free(dm);
	}
	if (!text)
		return false;
	props_parse(p, text, "");
	return true;
}

/* udev's *_ENC values escape unsafe bytes as \xNN (e.g. "\x20" for a space); decoded, with the
 * blanks a fixed-width IDENTIFY or INQUIRY field pads with trimmed and runs of them made one, as
 * lsblk's normalize_whitespace does. */
static char *decode_enc(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		unsigned v;
		char c = *s++;

		if (c == '\\' && s[0] == 'x' && sscanf(s + 1, "%2x", &v) == 1 && s[1] && s[2]) {
			c = (char)v;
			s += 3;
		}
		if (c == ' ' && (o == out || o[-1] == ' '))
			continue;
		*o++ = c;
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* Sets `key` from the first present property, unless an earlier probe already set it; when
 * `prop_key` is given, it records which property the value came from (persistent udev rules must
 * match that exact property). */
static void enrich(struct facts *f, const struct udev_props *p, const char *key, const char *prop,
		   const char *fallback, bool is_encoded, const char *prop_key)
{
	const char *v = props_get(p, prop), *used = prop;

	if (facts_has(f, key))
		return;
	if (!v && fallback) {
		v = props_get(p, fallback);
		used = fallback;
		is_encoded = false;
	}
	if (!v || !*v)
		return;
	if (is_encoded) {
		char *dec = decode_enc(v);

		facts_set_string(f, key, dec, "udev");
		free(dec);
	} else {
		facts_set_string(f, key, v, "udev");
	}
	if (prop_key)
		facts_set_string(f, prop_key, used, "udev");
}

/* The model as lsblk shows it: udev's (ID_MODEL_ENC, from the whole ATA IDENTIFY or SCSI INQUIRY
 * string) over sysfs's device/model, which the SCSI layer cuts at 16 bytes ("WDC WD800JD-00MS" for
 * "WDC WD800JD-00MSA1"). */
static void set_model(struct facts *f, const struct udev_props *p)
{
	const char *src = facts_source(f, "device.model");
	const char *enc = props_get(p, "ID_MODEL_ENC"), *plain = props_get(p, "ID_MODEL");

	if (src && !strcmp(src, "sysfs") && ((enc && *enc) || (plain && *plain)))
		facts_remove(f, "device.model");
	enrich(f, p, "device.model", "ID_MODEL_ENC", "ID_MODEL", true, NULL);
}

static void set_identity(struct facts *f, const struct udev_props *p)
{
	set_model(f, p);
	enrich(f, p, "device.serial", "ID_SERIAL_SHORT", "ID_SERIAL", false, "device.serial_udev_property");
	enrich(f, p, "device.wwn", "ID_WWN_WITH_EXTENSION", "ID_WWN", false, "device.wwn_udev_property");
	enrich(f, p, "device.id_bus", "ID_BUS", NULL, false, NULL);
	enrich(f, p, "device.id_path", "ID_PATH", NULL, false, NULL);
	enrich(f, p, "device.md_uuid", "MD_UUID", NULL, false, NULL);
	enrich(f, p, "device.dm_uuid", "DM_UUID", NULL, false, NULL);
}

/* The device's own signature from a capture, read as the blkid probe reads it live: a signature
 * that is not a filesystem, a bare partition table, or nothing at all leaves no fs to advise on. */
static void set_signature(const struct probe_target *t, struct facts *f, const struct udev_props *p,
			  bool is_whole_disk)
{
	const char *type = props_get(p, "ID_FS_TYPE"), *usage = props_get(p, "ID_FS_USAGE");
	const char *pttype = props_get(p, "ID_PART_TABLE_TYPE");

	if (type && *type && usage && strcmp(usage, "filesystem") != 0) {
		facts_set_unavailable(f, "fs", FACTS_NOT_FOUND,
				      "%s holds a %s signature (%s), not a filesystem", t->dev_path, type, usage);
		return;
	}
	if (!type || !*type) {
		if (t->is_mounted)
			return; /* a filesystem udev's blkid does not know: mountinfo says what it is */
		if (is_whole_disk && pttype)
			facts_set_unavailable(f, "fs", FACTS_NOT_FOUND,
					      "%s holds a %s partition table, not a filesystem: give one of "
					      "its partitions", t->dev_path, pttype);
		else
			facts_set_unavailable(f, "fs", FACTS_NOT_FOUND,
					      "no filesystem signature on %s (the capture's udev data)",
					      t->dev_path);
		return;
	}
	enrich(f, p, "fs.type", "ID_FS_TYPE", NULL, false, NULL);
	enrich(f, p, "fs.uuid", "ID_FS_UUID", NULL, false, NULL);
	if (!facts_has(f, "fs.uuid"))
		facts_set_unavailable(f, "fs.uuid", FACTS_NOT_FOUND, "%s has no UUID (the capture's udev data)", type);
	enrich(f, p, "fs.uuid_sub", "ID_FS_UUID_SUB", NULL, false, NULL);
	enrich(f, p, "fs.label", "ID_FS_LABEL_ENC", "ID_FS_LABEL", true, NULL);
	if (!facts_has(f, "fs.label"))
		facts_set_unavailable(f, "fs.label", FACTS_NOT_FOUND, "no label set (the capture's udev data)");
	enrich(f, p, "fs.version", "ID_FS_VERSION", NULL, false, NULL);
}

static void collect_capture(const struct probe_target *t, struct facts *f, const char *name,
			    const char *disk)
{
	struct udev_props p;

	if (props_from_capture(&p, disk)) {
		set_identity(f, &p);
		props_free(&p);
	} else {
		DBG(DEBUG_PROBES, "udev: the capture holds no udev data for %s", disk);
	}
	if (props_from_capture(&p, name)) {
		set_signature(t, f, &p, strcmp(name, disk) == 0);
		props_free(&p);
	}
}

static void udev_collect(const struct probe_target *t, struct facts *f)
{
	struct udev *u;
	struct udev_props p = {0};
	const char *disk = facts_get_string(f, "device.disk"), *name = facts_get_string(f, "device.name");

	if (!disk || !name)
		return;
	if (path_is_sysroot()) {
		char *name_copy = xstrdup(name), *disk_copy = xstrdup(disk); /* facts change below */

		collect_capture(t, f, name_copy, disk_copy);
		free(name_copy);
		free(disk_copy);
		return;
	}
	if (!path_exists("/run/udev/data"))
		return;
	u = udev_new();
	if (!u)
		return;
	p.live = udev_device_new_from_subsystem_sysname(u, "block", disk);
	if (p.live && udev_device_get_is_initialized(p.live))
		set_identity(f, &p);
	else
		DBG(DEBUG_PROBES, "udev: %s not in the udev database or not initialized", disk);
	if (p.live)
		udev_device_unref(p.live);
	udev_unref(u);
}

const struct probe_ops probe_udev = {
	.name = "udev",
	.needs_root = false,
	.collect = udev_collect,
};
