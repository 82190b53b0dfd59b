/* libFuzzer's target on the reader: any bytes opened as an artifact (fuzz_play.h). Built by make
 * fuzz (clang -fsanitize=fuzzer,address,undefined) as build/fuzz/fuzz-reader. */
#include "fuzz_play.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_play(data, size);
    return 0;
}
