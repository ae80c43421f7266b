/* Units and formatting in one place: binary sizes, durations, rates, and parsing of sizes given on
 * the command line. Formatters write into a caller buffer and return it, for use inside printf. */
#ifndef FSTUNE_UNITS_H
#define FSTUNE_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITS_BUFSZ 32

/* "512 B", "4 KiB", "1.5 MiB", "931.5 GiB": exact integers stay integral. */
char *units_bytes(char *buf, size_t len, uint64_t bytes);
/* "850 ns", "12.3 µs" (ASCII "us" when `ascii`), "4.2 ms", "1.25 s", "3 min 20 s". */
char *units_duration_us(char *buf, size_t len, double us, bool ascii);
/* "12.3k IOPS" style compact count: "950", "12.3k", "1.20M". */
char *units_count(char *buf, size_t len, double n);
/* Bytes per second as "812 MB/s" (decimal, as storage vendors and fio's MB/s). */
char *units_rate(char *buf, size_t len, double bytes_per_s);

/* Parses "4096", "4k", "4K", "4KiB", "1.5M", "2G", "1T" (binary multiples). false on garbage or
 * overflow. */
bool units_parse_size(const char *s, uint64_t *out);
/* Parses a whole non-negative number of seconds or a duration such as "500ms", "2s", "1m". */
bool units_parse_seconds(const char *s, double *out);

#endif
