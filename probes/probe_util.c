/* Helpers shared by the probes: errno to unavailable status, one-value reads into facts, the name
 * of a device number and the whole disk of a partition. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/xalloc.h"
#include "fstune/path.h"
#include "probes/probe_util.h"

enum facts_status probe_status_from_errno(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return geteuid() == 0 ? FACTS_DENIED : FACTS_NEEDS_ROOT;
	case ENOENT:
	case ENOTDIR:
		return FACTS_NOT_FOUND;
	default:
		return FACTS_FAILED;
	}
}

bool probe_is_refused_read(int err)
{
	return err == PATH_ENOTREG || err == EFBIG;
}

void probe_unavailable_errno(struct facts *f, const char *key, int err, const char *what)
{
	facts_set_unavailable(f, key, probe_status_from_errno(err), "%s: %s", what, path_strerror(err));
}

bool probe_read_int(struct facts *f, const char *key, long long mult, const char *source,
		    bool required, const char *path)
{
	long long v;
	int rc = path_read_s64(&v, "%s", path);

	if (rc == 0) {
		facts_set_int(f, key, v * mult, source);
		return true;
	}
	if (required || probe_is_refused_read(-rc))
		probe_unavailable_errno(f, key, -rc, path);
	return false;
}

bool probe_read_string(struct facts *f, const char *key, const char *source, bool required,
		       const char *path)
{
	char *s = path_read_string("%s", path);
	int err = errno;

	if (s && *s) {
		facts_set_string(f, key, s, source);
		free(s);
		return true;
	}
	if (required || (!s && probe_is_refused_read(err))) {
		if (s)
			facts_set_unavailable(f, key, FACTS_NOT_FOUND, "%s is empty", path);
		else
			probe_unavailable_errno(f, key, err, path);
	}
	free(s);
	return false;
}

char *probe_devno_name(unsigned major, unsigned minor)
{
	char *canon = path_canonical("/sys/dev/block/%u:%u", major, minor), *slash, *name;

	if (!canon)
		return NULL;
	slash = strrchr(canon, '/');
	name = xstrdup(slash ? slash + 1 : canon);
	free(canon);
	return name;
}

bool probe_devno_of(const char *name, unsigned *major, unsigned *minor)
{
	char *devno = path_read_string("/sys/class/block/%s/dev", name);
	bool ok = devno && sscanf(devno, "%u:%u", major, minor) == 2;

	free(devno);
	return ok;
}

char *probe_whole_disk(const char *name)
{
	char *canon, *slash, *disk;

	if (!path_exists("/sys/class/block/%s/partition", name))
		return xstrdup(name);
	canon = path_canonical("/sys/class/block/%s", name);
	if (!canon)
		return xstrdup(name);
	slash = strrchr(canon, '/');
	if (slash)
		*slash = '\0';
	slash = strrchr(canon, '/');
	disk = xstrdup(slash ? slash + 1 : name);
	free(canon);
	return disk;
}
