/* The ordered list of every probe, and probe_all() that runs them on one target. */
#include "config.h"


#include "fstune/clock.h"
#include "fstune/debug.h"
#include "fstune/probe.h"
#include "probes/registry.h"

/* Order matters where a probe reads what an earlier one set:
 *  - sysfs_device sets device.disk, which udev and vm (the disk's bdi) read;
 *  - udev only fills what sysfs left unset, so it comes after sysfs_device; under --sysroot it
 *    also sets the device's signature (fs.type, fs.uuid) that blkid cannot read there;
 *  - host depends on nothing and goes first, so its branch leads the output;
 *  - owners goes last: it judges udev rules by device.* and finds fstab entries by fs.mount_point. */
static const struct probe_ops *const probes[] = {
	&probe_host,
	&probe_sysfs_device,
	&probe_udev,
	&probe_vm,
	/* ---- filesystem and stack probes, in their order ---- */
	/* blkid names the type that ext2fs/xfs/btrfs dispatch on; they read the superblock, so
	 * mounted (statfs) only fills what they could not; btrfs may fill the device branch of a
	 * mounted btrfs, which stack then reads. member reads the signature blkid (or, under
	 * --sysroot, udev) found and comes before mounted, which says why a member has no mount. */
	&probe_blkid,
	&probe_ext2fs,
	&probe_xfs,
	&probe_btrfs,
	&probe_member,
	&probe_mounted,
	&probe_stack,

	/* ---- end of filesystem and stack probes ---- */
	&probe_owners,
};

void probe_all(const struct probe_target *t, struct facts *f)
{
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		double start = fst_clock_s();

		probes[i]->collect(t, f);
		DBG(DEBUG_PROBES, "probe %s: %.2f ms", probes[i]->name, (fst_clock_s() - start) * 1e3);
	}
}

void probe_device_view(const struct probe_target *t, struct facts *f)
{
	probe_host.collect(t, f);
	probe_sysfs_device.collect(t, f);
}
