/* The udev probe: enriches device.* with what udev's database knows (model, serial, WWN, bus, the
 * persistent path) when a database exists and the device is initialized. Skipped under --sysroot:
 * libudev reads the live /sys and /run. */
#include "config.h"

#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "fstune/debug.h"
#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/registry.h"

/* udev's *_ENC values escape unsafe bytes as \xNN (e.g. "\x20" for a space); decoded and trimmed. */
static char *decode_enc(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		unsigned v;

		if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1 && s[2] && s[3]) {
			*o++ = (char)v;
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	while (o > out && o[-1] == ' ')
		o--;
	*o = '\0';
	return out;
}

/* Sets `key` from the first present property, unless an earlier probe already set it. */
static void enrich(struct facts *f, struct udev_device *d, const char *key, const char *prop,
		   const char *fallback, bool is_encoded)
{
	const char *v = udev_device_get_property_value(d, prop);

	if (facts_has(f, key))
		return;
	if (!v && fallback) {
		v = udev_device_get_property_value(d, fallback);
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
}

static void udev_collect(const struct probe_target *t, struct facts *f)
{
	struct udev *u;
	struct udev_device *d;
	const char *disk = facts_get_string(f, "device.disk");

	if (path_is_sysroot() || !disk || !path_exists("/run/udev/data"))
		return;
	u = udev_new();
	if (!u)
		return;
	d = udev_device_new_from_subsystem_sysname(u, "block", disk);
	if (d && udev_device_get_is_initialized(d)) {
		enrich(f, d, "device.model", "ID_MODEL_ENC", "ID_MODEL", true);
		enrich(f, d, "device.serial", "ID_SERIAL_SHORT", "ID_SERIAL", false);
		enrich(f, d, "device.wwn", "ID_WWN_WITH_EXTENSION", "ID_WWN", false);
		enrich(f, d, "device.id_bus", "ID_BUS", NULL, false);
		enrich(f, d, "device.id_path", "ID_PATH", NULL, false);
	} else {
		DBG(DEBUG_PROBES, "udev: %s not in the udev database or not initialized", disk);
	}
	if (d)
		udev_device_unref(d);
	udev_unref(u);
}

const struct probe_ops probe_udev = {
	.name = "udev",
	.needs_root = false,
	.collect = udev_collect,
};
