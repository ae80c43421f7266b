/* Units and formatting in one place (units.h). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fstune/units.h"

static const char *const binary_suffix[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

char *units_bytes(char *buf, size_t len, uint64_t bytes)
{
	unsigned i = 0;
	double v = (double)bytes;

	while (v >= 1024.0 && i < 6) {
		v /= 1024.0;
		i++;
	}
	if (i == 0 || (bytes % (1ULL << (10 * i)) == 0 && v < 10000))
		snprintf(buf, len, "%.0f %s", v, binary_suffix[i]);
	else
		snprintf(buf, len, "%.1f %s", v, binary_suffix[i]);
	return buf;
}

/* "12 h", "1 h 30 min", "2 min 5 s", "3 d 4 h": the two largest non-zero parts. */
static void human_seconds(char *buf, size_t len, double s)
{
	static const struct {
		const char *name;
		double secs;
	} parts[] = {{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}};
	unsigned long long left = (unsigned long long)llround(s);
	size_t used = 0;
	int shown = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && shown < 2; i++) {
		unsigned long long n = left / (unsigned long long)parts[i].secs;

		if (n == 0 && !(shown == 0 && i + 1 == sizeof(parts) / sizeof(parts[0])))
			continue;
		if (shown && n == 0)
			break;
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%llu %s", shown ? " " : "",
					 n, parts[i].name);
		left -= n * (unsigned long long)parts[i].secs;
		shown++;
		if (used >= len)
			break;
	}
}

char *units_duration_us(char *buf, size_t len, double us, bool ascii)
{
	double s = us / 1e6;

	if (us < 1.0)
		snprintf(buf, len, "%.0f ns", us * 1000.0);
	else if (us < 1000.0)
		snprintf(buf, len, us < 10.0 ? "%.2f %s" : us < 100.0 ? "%.1f %s" : "%.0f %s", us,
			 ascii ? "us" : "\xc2\xb5s");
	else if (us < 1e6)
		snprintf(buf, len, us < 1e4 ? "%.2f ms" : us < 1e5 ? "%.1f ms" : "%.0f ms", us / 1e3);
	else if (us < 60e6 && fabs(s - round(s)) >= 0.005)
		snprintf(buf, len, "%.2f s", s);
	else if (us < 60e6)
		snprintf(buf, len, "%.0f s", s);
	else {
		/* the seconds stay exact (what a sysctl takes); the parts say how long that is */
		char human[UNITS_BUFSZ];

		human_seconds(human, sizeof(human), s);
		snprintf(buf, len, "%.0f s (%s)", s, human);
	}
	return buf;
}

char *units_size(char *buf, size_t len, uint64_t bytes)
{
	char human[UNITS_BUFSZ];

	units_bytes(human, sizeof(human), bytes);
	if (strchr(human, '.'))
		snprintf(buf, len, "%s (%llu B)", human, (unsigned long long)bytes);
	else
		snprintf(buf, len, "%s", human);
	return buf;
}

char *units_value(char *buf, size_t len, enum units_kind kind, double v, bool is_int)
{
	char t[UNITS_BUFSZ];

	switch (kind) {
	case UNITS_BYTES:
		if (is_int && v >= 0)
			return units_size(buf, len, (uint64_t)v);
		break;
	case UNITS_KIB:
		if (is_int && v >= 0)
			return units_size(buf, len, (uint64_t)v * 1024);
		break;
	case UNITS_US:
		return units_duration_us(buf, len, v, false);
	case UNITS_SECONDS:
		return units_duration_us(buf, len, v * 1e6, false);
	case UNITS_CENTISECS:
		if (is_int) {
			snprintf(buf, len, "%.0f (%s)", v, units_duration_us(t, sizeof(t), v * 1e4, false));
			return buf;
		}
		break;
	case UNITS_BYTES_PER_S:
		return units_rate(buf, len, v);
	case UNITS_PER_S:
		snprintf(buf, len, "%s/s", units_count(t, sizeof(t), v));
		return buf;
	case UNITS_PERCENT:
		if (is_int) {
			snprintf(buf, len, "%.0f%%", v);
			return buf;
		}
		snprintf(buf, len, "%.4g%%", v);
		return buf;
	case UNITS_SHARE:
		if (v >= 0 && v <= 1) {
			snprintf(buf, len, "%.1f%%", v * 100);
			return buf;
		}
		break;
	case UNITS_PPM:
		if (is_int) {
			snprintf(buf, len, "%.0f (%.4g%%)", v, v / 1e4);
			return buf;
		}
		break;
	case UNITS_UNSET:
	case UNITS_PLAIN:
	case UNITS_COUNT:
	case UNITS_TEXT:
	case UNITS_BOOL:
	case UNITS_TREE:
		break;
	}
	if (is_int)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

const char *units_name(enum units_kind kind)
{
	switch (kind) {
	case UNITS_UNSET: return "";
	case UNITS_PLAIN: return "number";
	case UNITS_COUNT: return "count";
	case UNITS_TEXT: return "text";
	case UNITS_BOOL: return "yes/no";
	case UNITS_TREE: return "subtree";
	case UNITS_BYTES: return "bytes";
	case UNITS_KIB: return "KiB";
	case UNITS_US: return "\xc2\xb5s";
	case UNITS_SECONDS: return "s";
	case UNITS_CENTISECS: return "1/100 s";
	case UNITS_BYTES_PER_S: return "bytes/s";
	case UNITS_PER_S: return "per s";
	case UNITS_PERCENT: return "%";
	case UNITS_SHARE: return "fraction 0..1";
	case UNITS_PPM: return "parts per million";
	}
	return "";
}

char *units_count(char *buf, size_t len, double n)
{
	if (n < 1000.0)
		snprintf(buf, len, "%.0f", n);
	else if (n < 1e6)
		snprintf(buf, len, n < 1e4 ? "%.2fk" : n < 1e5 ? "%.1fk" : "%.0fk", n / 1e3);
	else
		snprintf(buf, len, n < 1e7 ? "%.2fM" : n < 1e8 ? "%.1fM" : "%.0fM", n / 1e6);
	return buf;
}

char *units_rate(char *buf, size_t len, double bytes_per_s)
{
	double mb = bytes_per_s / 1e6;

	if (mb < 10.0)
		snprintf(buf, len, "%.2f MB/s", mb);
	else if (mb < 100.0)
		snprintf(buf, len, "%.1f MB/s", mb);
	else
		snprintf(buf, len, "%.0f MB/s", mb);
	return buf;
}

bool units_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	unsigned shift = 0;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return false;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case 'B': shift = 0; end++; break;
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	case 'T': shift = 40; end++; break;
	case 'P': shift = 50; end++; break;
	default: return false;
	}
	if (shift && (strcmp(end, "iB") == 0 || strcmp(end, "B") == 0 || strcmp(end, "ib") == 0))
		end += strlen(end);
	if (*end)
		return false;
	v *= (double)(1ULL << shift);
	if (v >= 18446744073709551615.0 || v != floor(v))
		return false;
	*out = (uint64_t)v;
	return true;
}

bool units_parse_seconds(const char *s, double *out)
{
	char *end;
	double v, scale = 1.0;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return false;
	if (strcmp(end, "ms") == 0)
		scale = 1e-3;
	else if (strcmp(end, "s") == 0 || *end == '\0')
		scale = 1.0;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		scale = 60.0;
	else
		return false;
	*out = v * scale;
	return true;
}
