/* Reads artifacts named on stdin (one path a line) and prints, for each, the C reader's decision:
 * "FILE<TAB>loaded" or "FILE<TAB>refused<TAB>STATUS<TAB>MESSAGE". A loaded tree has every chunk read
 * (gt_check) and a few lookups made, so that the sanitizers see them. tests/test_c_player.py runs it
 * on scripts/fuzz.py's hostile corpus, built with AddressSanitizer and UndefinedBehaviorSanitizer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../guesstree.h"
#include "suggest_play.h"

static unsigned char *read_all(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    unsigned char *bytes = NULL;
    size_t held = 0, got;
    if (!file) return NULL;
    do {
        unsigned char *more = realloc(bytes, held + 65536);
        if (!more) break;
        bytes = more;
        got = fread(bytes + held, 1, 65536, file);
        held += got;
    } while (got == 65536);
    fclose(file);
    *size = held;
    return bytes;
}

static void play(gt_tree *tree)
{
    int guess[GT_MAX_CODE], guesses[64 * GT_MAX_CODE], feedbacks[64 * GT_MAX_FEEDBACK];
    size_t steps;
    gt_error error;
    if (gt_next_guess(tree, NULL, NULL, 0, guess, &error) == GT_OK
        && gt_path(tree, guess, guesses, feedbacks, 64, &steps, &error) == GT_OK)
        suggest_off_the_tree(tree, guesses, feedbacks, steps);
}

int main(void)
{
    char path[4096];
    while (fgets(path, sizeof path, stdin)) {
        path[strcspn(path, "\n")] = 0;
        const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        size_t size = 0;
        unsigned char *bytes = read_all(path, &size);
        gt_tree *tree = NULL;
        gt_error error;
        gt_status status = gt_open_memory(&tree, bytes ? bytes : (unsigned char *)"", size, name, NULL, &error);
        if (status == GT_OK) status = gt_check(tree, &error);
        if (status == GT_OK) play(tree);
        gt_close(tree);
        gt_error file_error;
        gt_status from_file = gt_open_file(&tree, path, NULL, &file_error) == GT_OK ? gt_check(tree, &file_error) : file_error.status;
        gt_close(tree);
        if ((from_file == GT_OK) != (status == GT_OK)) printf("%s\tfile and bytes differ\n", name);
        if (status == GT_OK) printf("%s\tloaded\n", name);
        else printf("%s\trefused\t%s\t%s\n", name, gt_status_name(status), error.message);
        free(bytes);
    }
    return 0;
}
