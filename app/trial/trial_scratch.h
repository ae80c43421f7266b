/* The scratch space of a trial (trial_scratch.c): what it made, so that every exit path, a signal's
 * included, can take it away with trial_scratch_cleanup. */
#ifndef FSTUNE_APP_TRIAL_SCRATCH_H
#define FSTUNE_APP_TRIAL_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "app/trial/trial.h"
#include "fstune/error.h"

struct trial_scratch {
	char *image;         /* the image file this trial made (removed at cleanup); NULL with --device */
	char *dev;           /* what mkfs writes: the loop device, or the --device */
	int loop_fd;         /* the loop device, held open until cleanup; -1 without one */
	bool is_loop_direct; /* the loop device does direct I/O (sysfs loop/dio) */
	char *mnt;           /* the mount point this trial made (removed at cleanup); NULL until a mount */
	bool is_mounted;
	bool is_written;     /* a mkfs ran on the device: a --device is wiped at cleanup */
	uint64_t size_bytes; /* of the image or the device */
	int record_status;   /* of the last trial_record_write: 0, or -errno (no record is kept) */
};

void trial_scratch_init(struct trial_scratch *s);
/* Enters a private mount namespace (unshare(CLONE_NEWNS), then MS_REC|MS_PRIVATE on /). FST_EXIT_OK,
 * FST_EXIT_REFUSED without the privilege, FST_EXIT_PARTIAL otherwise. */
int trial_scratch_namespace(struct fst_error *err);
/* Makes the image (never over an existing file: FST_EXIT_REFUSED), preallocates `size` bytes and
 * attaches it to a loop device with direct I/O and autoclear. What it makes, and the mount point
 * later, is on record (trial_record.h) until trial_scratch_cleanup. */
int trial_scratch_image(struct trial_scratch *s, const char *path, uint64_t size, struct fst_error *err);
/* Uses an already checked device (scratch_device_check). */
void trial_scratch_set_device(struct trial_scratch *s, const char *dev, uint64_t size);
/* Makes the candidate's filesystem on the device with the real mkfs (ext: without lazy init; nothing
 * discarded, so an image stays allocated), no shell; *secs the time taken. FST_EXIT_OK; FST_EXIT_PARTIAL with mkfs's message; 128+n if it was
 * ended by signal n. */
int trial_scratch_mkfs(struct trial_scratch *s, const struct trial_candidate *c, double *secs,
		       struct fst_error *err);
/* The command trial_scratch_mkfs runs, words joined by spaces (every word passed the allow-list, so
 * none needs quoting); caller frees. */
char *trial_scratch_mkfs_command(const struct trial_scratch *s, const struct trial_candidate *c);
/* Mounts the device on the trial's mount point (made on first use, under $TMPDIR or /tmp); btrfs with
 * nodiscard. */
int trial_scratch_mount(struct trial_scratch *s, const char *fs, struct fst_error *err);
/* Unmounts; *secs (may be NULL) the time it took, which includes writing back what was dirty. */
int trial_scratch_umount(struct trial_scratch *s, double *secs, struct fst_error *err);
/* Unmounts, removes the mount point, detaches the loop device, removes the image, wipes a --device's
 * signatures (the first MiB: it was blank before the trial); idempotent. `dev`,
 * `size_bytes` and `is_loop_direct` stay, for the report. */
void trial_scratch_cleanup(struct trial_scratch *s);
/* Cleans up and frees `dev`. */
void trial_scratch_free(struct trial_scratch *s);

#endif
