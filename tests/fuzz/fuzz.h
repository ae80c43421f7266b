/* The one entry point every fuzz target defines: libFuzzer calls it, and so does replay.c, which
 * make check runs over the committed corpora in the ordinary build. */
#ifndef FSTUNE_TESTS_FUZZ_H
#define FSTUNE_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
