/* A suggestion off the tree after a path, for the fuzz targets (fuzz_play.h) and the hostile corpus's
 * checker (check_corpus.c): what the sanitizers see of gt_suggest. */
#ifndef GT_SUGGEST_PLAY_H
#define GT_SUGGEST_PLAY_H

#include <stdint.h>
#include "../guesstree.h"

/* a game whose every code can be scored in a moment (a suggestion scores them all) */
static int small_game(const gt_info *info)
{
    uint64_t codes = 1;
    if (info->kind == GT_WORDS) return info->answers + info->extra_guesses <= 20000;
    for (unsigned k = 0; k < info->code_length && codes <= 20000; k++) codes *= info->symbols;
    return codes <= 20000;
}

/* gt_suggest after the path's history, on the tree; then with its first guess reversed, most often
 * off it (the rule, a symmetry), or a history no secret gives */
static void suggest_off_the_tree(gt_tree *tree, int *guesses, const int *feedbacks, size_t steps)
{
    gt_info info;
    gt_error error;
    gt_source by;
    int guess[GT_MAX_CODE];
    if (gt_get_info(tree, &info) != GT_OK || !small_game(&info) || !steps) return;
    gt_suggest(tree, guesses, feedbacks, steps, 1, guess, &by, &error);
    for (unsigned p = 0; p < info.code_length / 2; p++) {
        int kept = guesses[p];
        guesses[p] = guesses[info.code_length - 1 - p];
        guesses[info.code_length - 1 - p] = kept;
    }
    gt_suggest(tree, guesses, feedbacks, steps > 1 ? 1 : steps, 1, guess, &by, &error);
}

#endif
