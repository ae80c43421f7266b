/* Units and formatting in one place: binary sizes, durations, rates, and parsing of sizes given on
 * the command line. Formatters write into a caller buffer and return it, for use inside printf. */
#ifndef FSTUNE_UNITS_H
#define FSTUNE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITS_BUFSZ 64

/* "512 B", "4 KiB", "1.5 MiB", "931.5 GiB": exact integers stay integral. */
char *units_bytes(char *buf, size_t len, uint64_t bytes);
/* "512 B", "4 KiB", or a rounded figure with the exact count beside it, "252.0 GiB (270553174016 B)":
 * alignment checks need every byte. The form every fact and setting value of a size takes. */
char *units_size(char *buf, size_t len, uint64_t bytes);
/* "850 ns", "12.3 µs" (ASCII "us" when `ascii`), "4.20 ms", "1.25 s", "30 s"; a minute or more keeps
 * the exact seconds, what a sysctl takes, and says how long that is: "43200 s (12 h)". */
char *units_duration_us(char *buf, size_t len, double us, bool ascii);
/* "12.3k IOPS" style compact count: "950", "12.3k", "1.20M". */
char *units_count(char *buf, size_t len, double n);
/* Bytes per second as "812 MB/s" (decimal, as storage vendors and fio's MB/s). */
char *units_rate(char *buf, size_t len, double bytes_per_s);

/* The unit of a value, from its key by DESIGN.md's naming contract (sizes in bytes: `_bytes`, `_size`;
 * `_kb`; times `_us`, `_s`, `_seconds`, `_centisecs`; rates `_per_s`; `_ratio`/`_pct` percentages;
 * `_share` fractions 0..1). This is the one place that reads units from key names. */
enum units_kind {
	UNITS_PLAIN,
	UNITS_BYTES,
	UNITS_KIB,
	UNITS_US,
	UNITS_SECONDS,
	UNITS_CENTISECS,
	UNITS_BYTES_PER_S,
	UNITS_PER_S,
	UNITS_PERCENT,
	UNITS_SHARE,
};
enum units_kind units_of_key(const char *key);
/* One number as people read it, in `kind`'s unit: units_size, units_duration_us, "3000 (30 s)" for
 * centiseconds, "20%", "31.1%" for a share, "12.3k/s"; a plain real with 4 significant digits. */
char *units_value(char *buf, size_t len, enum units_kind kind, double v, bool is_int);

/* Parses "4096", "4k", "4K", "4KiB", "1.5M", "2G", "1T" (binary multiples). false on garbage or
 * overflow. */
bool units_parse_size(const char *s, uint64_t *out);
/* Parses a whole non-negative number of seconds or a duration such as "500ms", "2s", "1m". */
bool units_parse_seconds(const char *s, double *out);

#endif
