/* Unit tests of the merge of reformat recommendations into the one mkfs command for the device:
 * options joined, one filesystem type chosen (the others spelled for it or left out, said), the
 * label and UUID of the filesystem replaced kept in each program's spelling, and the notes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/internal.h"
#include "rules/settings.h"
#include "tests/lib/check.h"

#define UUID "638e692b-95da-4007-b117-c966e6add75d"

/* The merged entries of `recs_json` on the facts `facts_json`; *recs_out keeps the recommendations
 * left after the merge. */
static json_t *merge(const char *recs_json, const char *facts_json, json_t **recs_out)
{
	struct fst_error err = FST_ERROR_INIT;
	struct facts *f = facts_from_json(facts_json, strlen(facts_json), "t", &err);
	json_t *recs = json_loads(recs_json, 0, NULL), *m;

	CHECK(f && recs);
	m = rules_merge_mkfs(recs, f);
	facts_free(f);
	if (recs_out)
		*recs_out = recs;
	else
		json_decref(recs);
	return m;
}

static const char *command(const json_t *m)
{
	return json_string_value(json_object_get(json_array_get(m, 0), "command"));
}

static const char *note(const json_t *m, size_t i)
{
	return json_string_value(json_array_get(json_object_get(json_array_get(m, 0), "notes"), i));
}

/* Whether some note of the entry starts with `prefix`. */
static bool has_note(const json_t *m, const char *prefix)
{
	const json_t *n;
	size_t i;

	json_array_foreach(json_object_get(json_array_get(m, 0), "notes"), i, n)
		if (!strncmp(json_string_value(n), prefix, strlen(prefix)))
			return true;
	return false;
}

static void test_join(void)
{
	const char *recs =
		"[{\"id\": \"a.stride\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-E\", \"stride=16\"]}},"
		" {\"id\": \"a.width\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-E\", \"stripe_width=64\"]}},"
		" {\"id\": \"b.bs\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-b\", \"1024\"]}},"
		" {\"id\": \"b.bs2\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-b\", \"4096\"]}},"
		" {\"id\": \"c.feat\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-O\", \"inline_data\"]}},"
		" {\"id\": \"c.big\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-O\", \"bigalloc\", \"-C\", \"65536\"]}},"
		" {\"id\": \"n.none\"}]";
	json_t *m = merge(recs, "{\"device\": {\"path\": \"/dev/md0\"}}", NULL);

	CHECK(json_array_size(m) == 1);
	CHECK_STR(command(m), "mkfs.ext4 -E stride=16,stripe_width=64 -b 4096 -O inline_data,bigalloc -C 65536 /dev/md0");
	CHECK(json_array_size(json_object_get(json_array_get(m, 0), "from")) == 6);
	CHECK_STR(note(m, 0), "It writes a new filesystem over all of /dev/md0.");
	/* b.bs2's -b 4096 overrides b.bs's 1024, and the merge says so. */
	CHECK(has_note(m, "Takes -b 4096 (b.bs2) over -b 1024 (b.bs): mkfs honours one value."));
	json_decref(m);
	/* The block size of the filesystem found is kept when no recommendation names one, and
	 * mkfs.xfs needs -f to replace it (mke2fs asks on the terminal instead). */
	m = merge("[{\"id\": \"x.su\", \"mkfs\": {\"fs\": \"xfs\", \"args\": [\"-d\", \"su=65536\"]}},"
		  " {\"id\": \"x.sw\", \"mkfs\": {\"fs\": \"xfs\", \"args\": [\"-d\", \"sw=4\"]}}]",
		  "{\"device\": {\"path\": \"/dev/md0\"}, \"fs\": {\"type\": \"xfs\", \"block_size\": 1024}}", NULL);
	CHECK_STR(command(m), "mkfs.xfs -d su=65536,sw=4 -b size=1024 -f /dev/md0");
	CHECK(has_note(m, "Keeps -b size=1024, the block size of the filesystem found (fs.block_size), which the "
			  "advice was worked out for."));
	CHECK(has_note(m, "The facts do not give the UUID of the filesystem found (fs.uuid)"));
	json_decref(m);
}

/* The facts of a filesystem of `type` labelled `label` on /dev/sdb1, mounted on /srv. */
static void facts_of(char *buf, size_t len, const char *type, const char *label)
{
	snprintf(buf, len, "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"%s\", \"label\": \"%s\", "
		 "\"uuid\": \"" UUID "\", \"mount_point\": \"/srv\"}}", type, label);
}

/* The label and UUID kept: mke2fs -L -U, mkfs.xfs -L -m uuid= (joined with the advice's -m),
 * wipefs then mkfs.btrfs -L -U; args keep only what the advice chose. */
static void test_identity(void)
{
	char facts[512];
	json_t *m;

	facts_of(facts, sizeof facts, "ext4", "data01");
	m = merge("[{\"id\": \"i.ratio\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-i\", \"8192\"]}}]", facts, NULL);
	CHECK_STR(command(m), "mkfs.ext4 -i 8192 -L data01 -U " UUID " /dev/sdb1");
	CHECK(json_array_size(json_object_get(json_array_get(m, 0), "args")) == 2);
	CHECK_STR(note(m, 0), "Back up first: it destroys everything on /dev/sdb1, the ext4 filesystem mounted on "
			      "/srv included; unmount it first (mkfs refuses a mounted filesystem).");
	CHECK(has_note(m, "It keeps the label data01 and the UUID " UUID ", so /etc/fstab and anything else"));
	json_decref(m);

	facts_of(facts, sizeof facts, "xfs", "xfsdata");
	m = merge("[{\"id\": \"x.crc\", \"mkfs\": {\"fs\": \"xfs\", \"args\": [\"-m\", \"reflink=0\"]}}]", facts, NULL);
	CHECK_STR(command(m), "mkfs.xfs -m reflink=0,uuid=" UUID " -L xfsdata -f /dev/sdb1");
	json_decref(m);
	/* a 13-byte label does not fit XFS's 12: no -L, and said */
	facts_of(facts, sizeof facts, "xfs", "abcdefghijklm");
	m = merge("[{\"id\": \"x.su\", \"mkfs\": {\"fs\": \"xfs\", \"args\": [\"-d\", \"su=65536\"]}}]", facts, NULL);
	CHECK_STR(command(m), "mkfs.xfs -d su=65536 -m uuid=" UUID " -f /dev/sdb1");
	CHECK(has_note(m, "The label abcdefghijklm is longer than the 12 bytes xfs takes"));
	json_decref(m);

	facts_of(facts, sizeof facts, "btrfs", "b da'ta");
	m = merge("[{\"id\": \"b.sect\", \"mkfs\": {\"fs\": \"btrfs\", \"args\": [\"--sectorsize\", \"4096\"]}}]", facts,
		  NULL);
	CHECK_STR(command(m), "wipefs -a /dev/sdb1 && mkfs.btrfs --sectorsize 4096 -L 'b da'\\''ta' -U " UUID
			      " -f /dev/sdb1");
	CHECK(has_note(m, "wipefs -a first"));
	json_decref(m);
	/* a hand-written uuid that is no UUID is never passed on */
	m = merge("[{\"id\": \"i.ratio\", \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-i\", \"8192\"]}}]",
		  "{\"device\": {\"path\": \"/dev/sdb1\"}, \"fs\": {\"type\": \"ext4\", \"uuid\": \"$(reboot)\"}}", NULL);
	CHECK_STR(command(m), "mkfs.ext4 -i 8192 /dev/sdb1");
	CHECK(has_note(m, "fs.uuid $(reboot) is no UUID"));
	json_decref(m);
}

/* A reformat recommendation asking XFS for a stripe unit of 64 KiB. */
#define XFS_SU_REC \
	"{\"id\": \"t.su\", \"setting\": \"mkfs.xfs_su\", \"recommended\": 65536," \
	"  \"mkfs\": {\"fs\": \"xfs\", \"args\": [\"-d\", \"su=65536\"]}}"

/* Reformat advice for two types where no rule chose one: the command made and what it says. */
static const struct {
	const char *recs, *facts, *command, *note;
} two_types[] = {
	/* Nothing is on the disk: the type of the first reformat advice, said so. */
	{"[{\"id\": \"t.stride\", \"setting\": \"mkfs.stride\", \"recommended\": 16,"
	 "  \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-E\", \"stride=16\"]}}, " XFS_SU_REC "]",
	 "{\"device\": {\"path\": \"/dev/sdc\"}}", "mkfs.ext4 -E stride=16 /dev/sdc",
	 "Leaves out t.su (for xfs: -d su=65536): no rule chose the type, so it is ext4, that of "
	 "the first reformat advice (t.stride)"},
	/* The filesystem found decides. */
	{"[" XFS_SU_REC ", {\"id\": \"t.bs\", \"setting\": \"mkfs.block_size\", \"recommended\": 4096,"
	 "  \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-b\", \"4096\"]}}]",
	 "{\"device\": {\"path\": \"/dev/sdc\"}, \"fs\": {\"type\": \"xfs\"}}",
	 "mkfs.xfs -d su=65536 -b size=4096 -f /dev/sdc",
	 "Spells t.bs (advised for ext4) for xfs: the filesystem found is xfs."},
};

/* One filesystem for the device: the rule that recommends mkfs.fs_type chooses; a setting another
 * filesystem also has is spelled for it, one it lacks is left out of the report, each said; a
 * recommendation marked precedes_mkfs is named first. */
static void test_one_fs(void)
{
	const char *recs =
		"[{\"id\": \"fschoice.xfs\", \"setting\": \"mkfs.fs_type\", \"recommended\": \"xfs\","
		"  \"mkfs\": {\"fs\": \"xfs\", \"args\": []}},"
		" {\"id\": \"nvme.lbaf\", \"title\": \"check the LBA format\", \"precedes_mkfs\": true},"
		" {\"id\": \"blocksize.bigalloc\", \"title\": \"bigalloc is an option\", \"fs\": \"ext4\"},"
		" {\"id\": \"inodes.xfs_note\", \"title\": \"about XFS\", \"fs\": \"xfs\"},"
		" {\"id\": \"reserve.m\", \"setting\": \"mkfs.reserved_percent\", \"recommended\": 1,"
		"  \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-m\", \"1\"]}},"
		" {\"id\": \"blocksize.b\", \"setting\": \"mkfs.block_size\", \"recommended\": 4096,"
		"  \"mkfs\": {\"fs\": \"ext4\", \"args\": [\"-b\", \"4096\"]}}]";
	json_t *left, *m = merge(recs, "{\"device\": {\"path\": \"/dev/nvme1n1\"}}", &left);
	const json_t *r;
	size_t i;
	bool has_reserve = false;

	CHECK(json_array_size(m) == 1);
	CHECK_STR(command(m), "mkfs.xfs -b size=4096 /dev/nvme1n1");
	CHECK_STR(note(m, 0), "First, if you take it, nvme.lbaf (check the LBA format): it erases the whole device, "
			      "this filesystem and its partition table too, so it comes before the partitioning and "
			      "this command, never after.");
	CHECK(has_note(m, "Spells blocksize.b (advised for ext4) for xfs: fschoice.xfs chose xfs."));
	CHECK(has_note(m, "Leaves out reserve.m (for ext4: -m 1): fschoice.xfs chose xfs, and one filesystem goes "
			  "on a device (mkfs.reserved_percent does not apply to xfs)."));
	json_array_foreach(left, i, r)
		has_reserve |= !strcmp(json_string_value(json_object_get(r, "id")), "reserve.m");
	CHECK(!has_reserve);
	/* ext4's advice with nothing to run goes too; advice about the chosen type stays */
	CHECK(has_note(m, "Leaves out blocksize.bigalloc (advice for ext4): fschoice.xfs chose xfs, and one "
			  "filesystem goes on a device."));
	CHECK(json_array_size(left) == 4);
	CHECK_STR(json_string_value(json_object_get(json_array_get(left, 2), "id")), "inodes.xfs_note");
	/* every reformat recommendation left runs the one command */
	CHECK_STR(json_string_value(json_array_get(json_object_get(json_array_get(left, 3), "apply"), 0)),
		  "mkfs.xfs -b size=4096 /dev/nvme1n1");
	json_decref(left);
	json_decref(m);

	for (i = 0; i < sizeof(two_types) / sizeof(two_types[0]); i++) {
		m = merge(two_types[i].recs, two_types[i].facts, NULL);
		CHECK_STR(command(m), two_types[i].command);
		CHECK(has_note(m, two_types[i].note));
		json_decref(m);
	}

	CHECK(json_array_size(m = merge("[{\"id\": \"n.none\"}]", "{}", NULL)) == 0);
	json_decref(m);
}

int main(void)
{
	test_join();
	test_identity();
	test_one_fs();
	if (check_failures)
		fprintf(stderr, "%d failure(s)\n", check_failures);
	return CHECK_DONE();
}
