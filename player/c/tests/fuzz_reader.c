/* libFuzzer's target: any bytes opened as an artifact, and, if they open, every chunk read and a
 * path played. Built by make fuzz (clang -fsanitize=fuzzer,address,undefined). */
#include <stddef.h>
#include <stdint.h>
#include "../guesstree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gt_tree *tree;
    gt_error error;
    int guess[GT_MAX_CODE], guesses[64 * GT_MAX_CODE], feedbacks[64 * GT_MAX_FEEDBACK];
    size_t steps;
    gt_options options = {NULL, 2};
    if (gt_open_memory(&tree, data, size, "fuzz", &options, &error) != GT_OK) return 0;
    if (gt_check(tree, &error) == GT_OK && gt_next_guess(tree, NULL, NULL, 0, guess, &error) == GT_OK)
        gt_path(tree, guess, guesses, feedbacks, 64, &steps, &error);
    gt_close(tree);
    return 0;
}
