#ifndef LIBFUZZER_DRIVER_H
#define LIBFUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program that has its own `main`. SwiftPM links every
/// executable with `main` aliased to the module's top-level code, so the targets call this
/// from there instead of relying on libFuzzer's `main` (built with -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
