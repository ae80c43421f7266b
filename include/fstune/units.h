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

/* The unit of a fact's value. The facts schema (lib/facts_schema.c) gives every key one, and every
 * renderer formats a value by it; UNITS_UNSET is never a schema row's unit (a test checks). */
enum units_kind {
	UNITS_UNSET = 0,
	UNITS_PLAIN,       /* a number on its own scale (swappiness, an average queue depth) */
	UNITS_COUNT,       /* how many of something: files, inodes, CPUs, runs */
	UNITS_TEXT,        /* a string, or a list of strings, shown as it is */
	UNITS_BOOL,        /* yes or no */
	UNITS_TREE,        /* a subtree: each key below has its own unit */
	UNITS_BYTES,
	UNITS_KIB,         /* KiB, as /proc and sysfs give *_kb and *_kbytes */
	UNITS_US,
	UNITS_SECONDS,
	UNITS_CENTISECS,   /* /proc/sys/vm's *_centisecs */
	UNITS_BYTES_PER_S,
	UNITS_PER_S,       /* operations per second: IOPS, transactions, files */
	UNITS_PERCENT,     /* 0..100 */
	UNITS_SHARE,       /* a fraction 0..1 */
	UNITS_PPM,         /* parts per million of a whole: the bdi's *_ratio_fine */
};
/* One number as people read it, in `kind`'s unit: units_size, units_duration_us, "3000 (30 s)" for
 * centiseconds, "20%", "31.1%" for a share, "12.3k/s"; a plain real with 4 significant digits. */
char *units_value(char *buf, size_t len, enum units_kind kind, double v, bool is_int);
/* The unit's name as documentation writes it ("bytes", "µs", "fraction 0..1"); "" for UNITS_UNSET. */
const char *units_name(enum units_kind kind);

/* Parses "4096", "4k", "4K", "4KiB", "1.5M", "2G", "1T" (binary multiples). false on garbage or
 * overflow. */
bool units_parse_size(const char *s, uint64_t *out);
/* Parses a whole non-negative number of seconds or a duration such as "500ms", "2s", "1m". */
bool units_parse_seconds(const char *s, double *out);

#endif
