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

char *units_duration_us(char *buf, size_t len, double us, bool ascii)
{
	if (us < 1.0)
		snprintf(buf, len, "%.0f ns", us * 1000.0);
	else if (us < 1000.0)
		snprintf(buf, len, us < 10.0 ? "%.2f %s" : us < 100.0 ? "%.1f %s" : "%.0f %s", us,
			 ascii ? "us" : "\xc2\xb5s");
	else if (us < 1e6)
		snprintf(buf, len, us < 1e4 ? "%.2f ms" : us < 1e5 ? "%.1f ms" : "%.0f ms", us / 1e3);
	else if (us < 60e6)
		snprintf(buf, len, "%.2f s", us / 1e6);
	else
		snprintf(buf, len, "%.0f min %.0f s", floor(us / 60e6), fmod(us / 1e6, 60.0));
	return buf;
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
