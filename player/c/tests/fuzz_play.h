/* What both libFuzzer targets do with bytes: open them as an artifact, and if they open, read every
 * chunk, play the path of the first guess, and in a small game ask for a suggestion off the tree
 * (tests/check_corpus.c does the same with the hostile corpus). */
#ifndef GT_FUZZ_PLAY_H
#define GT_FUZZ_PLAY_H

#include <stddef.h>
#include <stdint.h>
#include "../guesstree.h"
#include "suggest_play.h"

static void fuzz_play(const uint8_t *bytes, size_t size)
{
    gt_tree *tree;
    gt_error error;
    int guess[GT_MAX_CODE], guesses[64 * GT_MAX_CODE], feedbacks[64 * GT_MAX_FEEDBACK];
    size_t steps;
    gt_options options = {NULL, 2};
    if (gt_open_memory(&tree, bytes, size, "fuzz", &options, &error) != GT_OK) return;
    if (gt_check(tree, &error) == GT_OK && gt_next_guess(tree, NULL, NULL, 0, guess, &error) == GT_OK
        && gt_path(tree, guess, guesses, feedbacks, 64, &steps, &error) == GT_OK)
        suggest_off_the_tree(tree, guesses, feedbacks, steps);
    gt_close(tree);
}

#endif
