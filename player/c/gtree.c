/* gtree: the C player's command line, a thin shell over guesstree.h.
 *   gtree info TREE                      the game, strategy and statistics
 *   gtree path TREE SECRET               the tree's guesses against SECRET, one per line
 *   gtree next TREE [GUESS FEEDBACK]...  the tree's next guess ("won" once won)
 * Exit status as guesstree's: 0 answered, 1 the question has no answer (a history off the tree, a
 * secret the tree cannot play, text that is no code or feedback), 2 a usage error or an unusable file. */
#include <stdio.h>
#include <string.h>
#include "guesstree.h"

#define MAX_STEPS 64

static int usage(void)
{
    fprintf(stderr, "usage: gtree info TREE | gtree path TREE SECRET | gtree next TREE [GUESS FEEDBACK]...\n"
                    "example: gtree next trees/mastermind-c6-h4-entropy.msgpack.zst AABB 1B1W\n");
    return 2;
}

static int failed(const gt_error *error)
{
    fprintf(stderr, "error: %s\n", error->message);
    return error->status >= GT_E_ARGUMENT ? 1 : 2;
}

static void print_histogram(gt_tree *tree, int determined)
{
    uint64_t guesses = 0, secrets = 0;
    size_t pairs = gt_histogram(tree, determined, 0, &guesses, &secrets);
    printf("%s:", determined ? "guesses to determine" : "guesses to win");
    for (size_t i = 0; i < pairs; i++) {
        gt_histogram(tree, determined, i, &guesses, &secrets);
        printf(" %llu:%llu", (unsigned long long)guesses, (unsigned long long)secrets);
    }
    printf("\n");
}

/* the game as Python writes it (repr(tree.game)) */
static void print_game(const gt_info *i)
{
    static const char *const truth[2] = {"False", "True"};
    uint64_t guesses = i->answers + i->extra_guesses;
    printf("game       ");
    switch (i->kind) {
    case GT_MASTERMIND:
        printf("Mastermind(colours=%d, holes=%d, secret_repeats=%s, guess_repeats=%s)\n", i->colours, i->holes,
               truth[i->secret_repeats], truth[i->guess_repeats]);
        break;
    case GT_DIGITS: printf("Digits(length=%d)\n", i->holes); break;
    case GT_BULLS_COWS: printf("BullsCows(digits=%d, length=%d)\n", i->digits, i->holes); break;
    case GT_TWOD: printf("TwoD(size=%d)\n", i->size); break;
    case GT_WORDS:
        printf("Words(%llu answer%s, %llu guess%s%s)\n", (unsigned long long)i->answers, i->answers == 1 ? "" : "s",
               (unsigned long long)guesses, guesses == 1 ? "" : "es", i->hard ? ", hard=True" : "");
        break;
    }
}

static int info(gt_tree *tree)
{
    gt_info i;
    gt_error error;
    int first[GT_MAX_CODE];
    char text[128];
    gt_get_info(tree, &i);
    if (gt_next_guess(tree, NULL, NULL, 0, first, &error) != GT_OK) return failed(&error);
    gt_format_code(tree, first, text, sizeof text);
    print_game(&i);
    printf("strategy   %.*s\n", (int)i.strategy.length, i.strategy.text);
    printf("producer   %.*s, format %d.%d\n", (int)i.producer.length, i.producer.text, i.version_major, i.version_minor);
    if (i.notice.text) { /* its first line: the text is not NUL-terminated */
        const char *end = memchr(i.notice.text, '\n', i.notice.length);
        printf("notice     %.*s\n", (int)(end ? (size_t)(end - i.notice.text) : i.notice.length), i.notice.text);
    }
    printf("nodes      %llu", (unsigned long long)i.nodes);
    if (i.chunks) printf(", in %u chunks of %u nodes", i.chunks, i.chunk_nodes);
    printf("\nfirst      %s\n", text);
    printf("secrets    %llu\n", (unsigned long long)i.secrets);
    printf("to win     total %llu, average %.4f, worst %llu\n", (unsigned long long)i.total, i.average, (unsigned long long)i.worst);
    printf("to determine total %llu, average %.4f, worst %llu\n", (unsigned long long)i.determined_total, i.determined_average,
           (unsigned long long)i.determined_worst);
    print_histogram(tree, 0);
    print_histogram(tree, 1);
    return 0;
}

static int path(gt_tree *tree, const char *secret)
{
    int code[GT_MAX_CODE], guesses[MAX_STEPS * GT_MAX_CODE], feedbacks[MAX_STEPS * GT_MAX_FEEDBACK];
    size_t steps;
    gt_error error;
    gt_info i;
    char text[128];
    gt_get_info(tree, &i);
    if (gt_parse_code(tree, secret, code, &error) != GT_OK) return failed(&error);
    if (gt_path(tree, code, guesses, feedbacks, MAX_STEPS, &steps, &error) != GT_OK) return failed(&error);
    for (size_t k = 0; k < steps; k++) {
        gt_format_code(tree, guesses + k * i.code_length, text, sizeof text);
        printf("%s\n", text);
    }
    return 0;
}

static int next(gt_tree *tree, char **history, int count)
{
    char guess[128];
    gt_error error;
    if (count % 2) return usage();
    gt_status status = gt_next_guess_text(tree, (const char *const *)history, (size_t)count / 2, guess, sizeof guess, &error);
    if (status == GT_WON) printf("won\n");
    else if (status == GT_OK) printf("%s\n", guess);
    else return failed(&error);
    return 0;
}

int main(int argc, char **argv)
{
    gt_tree *tree;
    gt_error error;
    if (argc < 3 || (strcmp(argv[1], "info") && strcmp(argv[1], "path") && strcmp(argv[1], "next"))) return usage();
    if ((strcmp(argv[1], "info") == 0 && argc != 3) || (strcmp(argv[1], "path") == 0 && argc != 4)) return usage();
    if (gt_open_file(&tree, argv[2], NULL, &error) != GT_OK) {
        fprintf(stderr, "error: %s\n", error.message);
        return 2;
    }
    int status = strcmp(argv[1], "info") == 0 ? info(tree) : strcmp(argv[1], "path") == 0 ? path(tree, argv[3])
                                                                                        : next(tree, argv + 3, argc - 3);
    gt_close(tree);
    return status;
}
