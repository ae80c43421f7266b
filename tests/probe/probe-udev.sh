#!/bin/bash
# The udev probe through libudev: with a udev database it fills model, serial, WWN, bus and path
# (decoding ID_MODEL_ENC); a device missing from the database, or no database at all, adds nothing;
# --sysroot never consults it. The database is a hand-written one on a private tmpfs /run, so
# the host's /run is never touched.
. "$FSTUNE_SRCDIR/tests/lib/common.sh"
private_mount_ns "$@"
require_loop
require_cmd jq

truncate -s 16M "$TMP/a.img" "$TMP/b.img"
a=$(attach_loop "$TMP/a.img" --direct-io=off)
b=$(attach_loop "$TMP/b.img" --direct-io=off)
mount -t tmpfs -o size=1m tmpfs /run # private namespace: the host's /run is unaffected
mkdir -p /run/udev/data
# systemd's database format (src/libsystemd/sd-device/device-private.c): I: marks it initialized.
printf 'I:12345\nE:ID_MODEL=Fake_Model\nE:ID_MODEL_ENC=Fake\\x20Model\\x20\\x20\nE:ID_SERIAL_SHORT=SER123\nE:ID_WWN=0x5000c500a1b2c3d4\nE:ID_BUS=ata\nE:ID_PATH=pci-0000:00:1f.2-ata-2\nG:systemd\n' \
	>"/run/udev/data/b$(cat "/sys/class/block/${a#/dev/}/dev")"

run_status 0 "$FSTUNE" probe --json "$a"
assert_eq "$(jq -r .device.model "$TMP/out")" "Fake Model" "model from ID_MODEL_ENC, trailing blanks trimmed"
assert_eq "$(jq -r .device.serial "$TMP/out")" SER123 "serial"
assert_eq "$(jq -r .device.wwn "$TMP/out")" 0x5000c500a1b2c3d4 "wwn"
assert_eq "$(jq -r .device.serial_udev_property "$TMP/out")" ID_SERIAL_SHORT "serial's udev property"
assert_eq "$(jq -r .device.wwn_udev_property "$TMP/out")" ID_WWN "wwn's udev property (no ID_WWN_WITH_EXTENSION)"
assert_eq "$(jq -r .device.id_bus "$TMP/out")" ata "id_bus"
assert_eq "$(jq -r .device.id_path "$TMP/out")" pci-0000:00:1f.2-ata-2 "id_path"
assert_eq "$(jq -r '.sources["device.model"]' "$TMP/out")" udev "model source"
assert_eq "$(jq -r '.unavailable["device.model"] // "none"' "$TMP/out")" none "model no longer unavailable"
# The transport still comes from the sysfs path, whatever udev's ID_BUS says.
assert_eq "$(jq -r .device.transport "$TMP/out")" loop "transport"

# A device the database does not know: nothing from udev.
run_status 0 "$FSTUNE" probe --json "$b"
assert_eq "$(jq -r '.device.wwn // "absent"' "$TMP/out")" absent "unknown device: wwn"
assert_eq "$(jq -r '.unavailable["device.model"].status' "$TMP/out")" not_applicable "unknown device: model"

# No database at all: the same.
rm -r /run/udev/data
run_status 0 "$FSTUNE" probe --json "$a"
assert_eq "$(jq -r '.device.serial // "absent"' "$TMP/out")" absent "no database: serial"
exit 0
