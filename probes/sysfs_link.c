/* device.link_speed_mbps (and device.link_lanes for PCIe): the speed the device's link negotiated, as
 * the kernel's device tree says it, in megabits per second of signalling. The benchmarks judge their
 * figures by it: no USB 2.0 disk moves 100 MB/s. Read from the whole disk's place in /sys/devices:
 * a USB device's `speed` (Mb/s: 12, 480, 5000, ...; Documentation/ABI/stable/sysfs-bus-usb), an ATA
 * link's `sata_spd` ("6.0 Gbps"; Documentation/ABI/testing/sysfs-ata), a PCI function's
 * `current_link_speed` ("8.0 GT/s PCIe") and `current_link_width` (Documentation/ABI/testing/
 * sysfs-bus-pci). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "probes/sysfs_link.h"

#define KEY "device.link_speed_mbps"

/* The first ancestor of the disk (nearest first) holding a USB `speed`: the USB device itself, not
 * the interface below it nor the hub above it. */
static bool usb_speed(const char *canon, long long *mbps)
{
	char *dir = xstrdup(canon), *slash;
	bool found = false;

	while (!found && (slash = strrchr(dir, '/')) && slash != dir) {
		char *s;
		double v;

		*slash = '\0';
		if (!path_exists("%s/busnum", dir) || !(s = path_read_string("%s/speed", dir)))
			continue;
		found = sscanf(s, "%lf", &v) == 1 && v > 0;
		*mbps = (long long)(v + 0.5);
		free(s);
	}
	free(dir);
	return found;
}

/* The ATA port "ataN" in the disk's path, and its link's negotiated speed (a port multiplier's links
 * are linkN.M: the disk's own is not found there, and nothing is said). */
static bool sata_speed(const char *canon, long long *mbps)
{
	const char *p = strstr(canon, "/ata");
	char *port, *s;
	unsigned n;
	double gbps;
	bool found = false;

	while (p && sscanf(p, "/ata%u", &n) != 1)
		p = strstr(p + 1, "/ata");
	if (!p)
		return false;
	port = strchr(p + 1, '/') ? xstrndup(canon, (size_t)(strchr(p + 1, '/') - canon)) : xstrdup(canon);
	s = path_read_string("%s/link%u/ata_link/link%u/sata_spd", port, n, n);
	if (s && sscanf(s, "%lf Gbps", &gbps) == 1 && gbps > 0) {
		*mbps = (long long)(gbps * 1000 + 0.5);
		found = true;
	}
	free(s);
	free(port);
	return found;
}

/* The PCI function above ".../nvme/nvmeN/": its current link speed times its width. */
static bool pcie_speed(const char *canon, long long *mbps, long long *lanes)
{
	const char *nv = strstr(canon, "/nvme/");
	char *fn, *speed = NULL;
	long long width = 0;
	double gts;
	bool found = false;

	if (!nv)
		return false;
	fn = xstrndup(canon, (size_t)(nv - canon));
	speed = path_read_string("%s/current_link_speed", fn);
	if (speed && sscanf(speed, "%lf GT/s", &gts) == 1 && gts > 0 &&
	    path_read_s64(&width, "%s/current_link_width", fn) == 0 && width > 0) {
		*mbps = (long long)(gts * 1000 + 0.5) * width;
		*lanes = width;
		found = true;
	}
	free(speed);
	free(fn);
	return found;
}

void sysfs_link_probe(struct facts *f, const char *disk, const char *canon, const char *transport)
{
	long long mbps = 0, lanes = 0;
	bool found;

	if (!strcmp(transport, "usb"))
		found = usb_speed(canon, &mbps);
	else if (!strcmp(transport, "sata"))
		found = sata_speed(canon, &mbps);
	else if (!strcmp(transport, "nvme"))
		found = pcie_speed(canon, &mbps, &lanes);
	else {
		static const char *const virtual[] = {"loop", "zram", "md", "dm", "virtio", "xen"};
		bool is_virtual = false;
		size_t i;

		for (i = 0; i < sizeof virtual / sizeof virtual[0]; i++)
			is_virtual = is_virtual || !strcmp(transport, virtual[i]);
		if (is_virtual)
			facts_set_unavailable(f, KEY, FACTS_NOT_APPLICABLE, "%s is a %s device: no link of its own",
					      disk, transport);
		else
			facts_set_unavailable(f, KEY, FACTS_NOT_FOUND, "not read for a %s device: fstune reads the "
					      "link speed of USB, SATA and PCIe (NVMe) links", transport);
		return;
	}
	if (!found) {
		facts_set_unavailable(f, KEY, FACTS_NOT_FOUND, "no negotiated %s link speed in sysfs above %s",
				      transport, canon);
		return;
	}
	facts_set_int(f, KEY, mbps, "sysfs");
	if (lanes)
		facts_set_int(f, "device.link_lanes", lanes, "sysfs");
}
