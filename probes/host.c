/* The host probe: kernel, OS, virtualization, container, memory, page size and CPUs (host.*). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fstune/path.h"
#include "fstune/probe.h"
#include "probes/probe_util.h"

/* Live: uname(2). Under --sysroot: the third word of the captured /proc/version. */
static void probe_kernel(struct facts *f)
{
	struct utsname u;
	char *v, rel[128];

	if (!path_is_sysroot()) {
		if (uname(&u) == 0)
			facts_set_string(f, "host.kernel", u.release, "uname");
		else
			probe_unavailable_errno(f, "host.kernel", errno, "uname");
		return;
	}
	v = path_read_string("/proc/version");
	if (!v) {
		probe_unavailable_errno(f, "host.kernel", errno, "/proc/version");
		return;
	}
	if (sscanf(v, "Linux version %127s", rel) == 1)
		facts_set_string(f, "host.kernel", rel, "procfs");
	else
		facts_set_unavailable(f, "host.kernel", FACTS_FAILED,
				      "/proc/version does not start with \"Linux version\"");
	free(v);
}

/* The value of `key` in os-release text (os-release(5): KEY=value, optionally quoted). */
static char *os_release_value(const char *text, const char *key)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, klen) == 0 && l[klen] == '=') {
			const char *v = l + klen + 1, *end = strchr(v, '\n');
			size_t n = end ? (size_t)(end - v) : strlen(v);
			char *out;

			if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
				v++;
				n -= 2;
			}
			out = malloc(n + 1);
			if (!out)
				return NULL;
			memcpy(out, v, n);
			out[n] = '\0';
			return out;
		}
	}
	return NULL;
}

static void probe_os(struct facts *f)
{
	char *text = path_read_string("/etc/os-release"), *v;
	int err = errno;

	if (!text) {
		text = path_read_string("/usr/lib/os-release");
		if (!text) {
			probe_unavailable_errno(f, "host.os", err, "/etc/os-release");
			return;
		}
	}
	v = os_release_value(text, "PRETTY_NAME");
	if (!v)
		v = os_release_value(text, "NAME");
	if (v)
		facts_set_string(f, "host.os", v, "os-release");
	else
		facts_set_unavailable(f, "host.os", FACTS_NOT_FOUND, "os-release has no PRETTY_NAME or NAME");
	free(v);
	free(text);
}

/* DMI strings of hypervisors (as systemd-detect-virt knows them), mapped to fstune's names. */
static const struct {
	const char *prefix;
	const char *virt;
} dmi_vendors[] = {
	{"KVM", "kvm"},
	{"OpenStack", "kvm"},
	{"QEMU", "kvm"},
	{"Amazon EC2", "kvm"},
	{"Google", "kvm"},
	{"VMware", "vmware"},
	{"VMW", "vmware"},
	{"innotek GmbH", "virtualbox"},
	{"VirtualBox", "virtualbox"},
	{"Xen", "xen"},
	{"Bochs", "bochs"},
	{"Parallels", "parallels"},
	{"BHYVE", "bhyve"},
	{"Hyper-V", "hyperv"},
	{"Apple Virtualization", "apple"},
};

static const char *dmi_virt(void)
{
	static const char *const files[] = {"product_name", "sys_vendor", "board_vendor", "bios_vendor"};
	const char *virt = NULL;
	char *product = path_read_string("/sys/class/dmi/id/product_name");
	char *vendor = path_read_string("/sys/class/dmi/id/sys_vendor");

	/* Hyper-V says only "Microsoft Corporation" / "Virtual Machine". */
	if (product && vendor && strcmp(vendor, "Microsoft Corporation") == 0 &&
	    strcmp(product, "Virtual Machine") == 0)
		virt = "hyperv";
	free(product);
	free(vendor);
	for (size_t i = 0; !virt && i < sizeof(files) / sizeof(files[0]); i++) {
		char *s = path_read_string("/sys/class/dmi/id/%s", files[i]);

		for (size_t j = 0; s && !virt && j < sizeof(dmi_vendors) / sizeof(dmi_vendors[0]); j++)
			if (strncmp(s, dmi_vendors[j].prefix, strlen(dmi_vendors[j].prefix)) == 0)
				virt = dmi_vendors[j].virt;
		free(s);
	}
	return virt;
}

/* True when the "flags" line of cpuinfo has the word "hypervisor" (x86's CPUID bit 31). */
static bool cpuinfo_has_hypervisor(const char *cpuinfo)
{
	for (const char *l = cpuinfo; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end, *p;

		if (strncmp(l, "flags", 5) != 0)
			continue;
		end = strchr(l, '\n');
		if (!end)
			end = l + strlen(l);
		for (p = strstr(l, " hypervisor"); p && p < end; p = strstr(p + 1, " hypervisor"))
			if (p + 11 == end || isspace((unsigned char)p[11]))
				return true;
		return false;
	}
	return false;
}

static void probe_virtualization(struct facts *f, const char *cpuinfo)
{
	const char *virt = dmi_virt();

	if (virt) {
		facts_set_string(f, "host.virtualization", virt, "sysfs");
		return;
	}
	if (probe_read_string(f, "host.virtualization", "sysfs", false, "/sys/hypervisor/type"))
		return;
	if (!cpuinfo) {
		facts_set_unavailable(f, "host.virtualization", FACTS_NOT_FOUND,
				      "no DMI, no /sys/hypervisor/type and no /proc/cpuinfo");
		return;
	}
	facts_set_string(f, "host.virtualization", cpuinfo_has_hypervisor(cpuinfo) ? "vm" : "none",
			 "procfs");
}

/* As systemd-detect-virt --container: the marker files of container managers, then pid 1's
 * environment, which only root may read. */
static void probe_container(struct facts *f)
{
	char *env;
	int fd, err;
	ssize_t n;
	char buf[8192];

	if (path_exists("/run/.containerenv") || path_exists("/.dockerenv")) {
		facts_set_bool(f, "host.container", true, "procfs");
		return;
	}
	env = path_read_string("/run/systemd/container");
	if (env && *env) {
		facts_set_bool(f, "host.container", true, "systemd");
		free(env);
		return;
	}
	free(env);
	fd = path_open("/proc/1/environ");
	if (fd < 0) {
		err = -fd;
		if (err == ENOENT)
			facts_set_bool(f, "host.container", false, "procfs");
		else
			probe_unavailable_errno(f, "host.container", err, "/proc/1/environ");
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	err = errno;
	close(fd);
	if (n < 0) {
		probe_unavailable_errno(f, "host.container", err, "/proc/1/environ");
		return;
	}
	buf[n] = '\0';
	/* NUL-separated entries: look for one that starts with container=. */
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1) {
		if (strncmp(buf + i, "container=", 10) == 0) {
			facts_set_bool(f, "host.container", true, "procfs");
			return;
		}
	}
	facts_set_bool(f, "host.container", false, "procfs");
}

/* Sets `key` from the "<field>: N kB" line of meminfo text `mi`; when the line is missing, `key` is
 * unavailable with `status` and `reason`. */
static void meminfo_field(struct facts *f, const char *mi, const char *field, const char *key,
			  enum facts_status status, const char *reason)
{
	const char *p = strstr(mi, field);
	unsigned long long kb;

	if (p && sscanf(p + strlen(field), ": %llu kB", &kb) == 1)
		facts_set_int(f, key, (long long)(kb * 1024), "procfs");
	else
		facts_set_unavailable(f, key, status, "%s", reason);
}

static void probe_memory(struct facts *f)
{
	char *mi = path_read_string("/proc/meminfo");

	if (!mi) {
		int err = errno;

		probe_unavailable_errno(f, "host.mem_total_bytes", err, "/proc/meminfo");
		probe_unavailable_errno(f, "host.mem_available_bytes", err, "/proc/meminfo");
		return;
	}
	meminfo_field(f, mi, "MemTotal", "host.mem_total_bytes", FACTS_FAILED,
		      "/proc/meminfo has no MemTotal line");
	/* MemAvailable (Linux 3.14+) is the kernel's estimate of memory available without swapping:
	 * the closest figure user space gets to the "dirtyable" memory the dirty ratios apply to. */
	meminfo_field(f, mi, "MemAvailable", "host.mem_available_bytes", FACTS_NOT_FOUND,
		      "/proc/meminfo has no MemAvailable line (kernel before 3.14)");
	free(mi);
}

/* Counts the CPUs of a cpulist ("0-7,16-23"); -1 when malformed. */
static long count_cpulist(const char *s)
{
	long total = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		total += b - a + 1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return total;
}

static void probe_cpus(struct facts *f, const char *cpuinfo)
{
	char *online = path_read_string("/sys/devices/system/cpu/online");
	long n = online ? count_cpulist(online) : -1;

	free(online);
	if (n > 0) {
		facts_set_int(f, "host.cpus", n, "sysfs");
		return;
	}
	n = 0;
	for (const char *l = cpuinfo; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (strncmp(l, "processor", 9) == 0)
			n++;
	if (n > 0)
		facts_set_int(f, "host.cpus", n, "procfs");
	else if (!path_is_sysroot() && (n = sysconf(_SC_NPROCESSORS_ONLN)) > 0)
		facts_set_int(f, "host.cpus", n, "sysconf");
	else
		facts_set_unavailable(f, "host.cpus", FACTS_NOT_FOUND,
				      "no /sys/devices/system/cpu/online and no processor in /proc/cpuinfo");
}

static void host_collect(const struct probe_target *t, struct facts *f)
{
	char *cpuinfo = path_read_table("/proc/cpuinfo");
	long page;

	probe_kernel(f);
	probe_os(f);
	facts_set_string(f, "host.target_os", "linux", "default");
	probe_virtualization(f, cpuinfo);
	probe_container(f);
	probe_memory(f);
	if (path_is_sysroot())
		facts_set_unavailable(f, "host.page_size_bytes", FACTS_NOT_FOUND,
				      "a captured /sys and /proc do not record the page size");
	else if ((page = sysconf(_SC_PAGESIZE)) > 0)
		facts_set_int(f, "host.page_size_bytes", page, "sysconf");
	else
		probe_unavailable_errno(f, "host.page_size_bytes", errno, "sysconf(_SC_PAGESIZE)");
	probe_cpus(f, cpuinfo);
	free(cpuinfo);
}

const struct probe_ops probe_host = {
	.name = "host",
	.needs_root = false,
	.collect = host_collect,
};
