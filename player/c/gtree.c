/* gtree: the C player's command line, a thin shell over guesstree.h.
 *   gtree info TREE                                 the game, notice, strategy and statistics
 *   gtree path TREE SECRET                          the tree's guesses against SECRET, one per line
 *   gtree next TREE [GUESS FEEDBACK]... [--any-guess] [--json]
 *                                                   the next guess: the tree's, or off it as guesstree's
 *                                                   (the opening book in book/ beside the shipped trees)
 *   gtree trees                                     the shipped trees' names
 * TREE is an artifact, or where no such file exists and the name has no folder, a shipped tree's
 * name (gtree info mastermind-c6-h4-entropy): the file NAME.msgpack.zst in $GUESSTREE_TREES, else
 * in the folder the build installs the shipped trees into (GT_TREES_DIR).
 * Exit status as guesstree's: 0 answered, 2 any error (usage, an unusable file, text that is no
 * code or feedback, a history no secret gives), with one line "error: ..." on standard error. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* stat, opendir */
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "guesstree.h"

#define MAX_STEPS 64
#define SUFFIX ".msgpack.zst"
#define EXIT_ERROR 2

static const char USAGE[] =
    "usage: gtree info TREE\n"
    "       gtree path TREE SECRET\n"
    "       gtree next TREE [GUESS FEEDBACK]... [--any-guess] [--json]\n"
    "       gtree trees\n"
    "       gtree --help | --version\n"
    "TREE: an artifact (.msgpack.zst), or a shipped tree's name (gtree trees lists them)\n"
    "next: the tree's guess while the history follows it; off the tree, guesstree's: the opening book's\n"
    "      tree (the shipped trees' book/), the tree by symmetry, else player/advice.py's rule\n"
    "example: gtree next mastermind-c6-h4-entropy ABCD 1B1W\n";

static int usage_error(const char *why)
{
    fprintf(stderr, "error: %s (gtree --help says what it takes)\n", why);
    return EXIT_ERROR;
}

static int failed(const gt_error *error)
{
    fprintf(stderr, "error: %s\n", error->message);
    return EXIT_ERROR;
}

/* -- the shipped trees -------------------------------------------------------------------------- */
static const char *trees_folder(void)
{
    const char *folder = getenv("GUESSTREE_TREES");
    if (folder && *folder) return folder;
#ifdef GT_TREES_DIR
    return GT_TREES_DIR;
#else
    return NULL;
#endif
}

static int is_file(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 && S_ISREG(s.st_mode);
}

static int exists(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0;
}

static size_t stem_length(const char *name)
{
    size_t n = strlen(name), suffix = strlen(SUFFIX);
    return n > suffix && strcmp(name + n - suffix, SUFFIX) == 0 ? n - suffix : n;
}

/* TREE as guesstree reads it: the path, or where no such file exists and the name has no folder,
 * the shipped tree of that name (into path); 0 when it is neither (the path is then TREE) */
static int find_tree(const char *given, char *path, size_t size)
{
    const char *folder = trees_folder();
    snprintf(path, size, "%s", given);
    if (exists(given) || strchr(given, '/') || !folder) return exists(given);
    int n = snprintf(path, size, "%s/%.*s%s", folder, (int)stem_length(given), given, SUFFIX);
    if (n > 0 && (size_t)n < size && is_file(path)) return 1;
    snprintf(path, size, "%s", given);
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

#define MAX_TREES 1024

/* the names of a folder's trees (their files without .msgpack.zst), sorted: how many, or -1 */
static int tree_names(const char *folder, char **names)
{
    int count = 0;
    DIR *dir = folder ? opendir(folder) : NULL;
    if (!dir) return -1;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL && count < MAX_TREES;) {
        char path[4096];
        size_t stem = stem_length(entry->d_name);
        int n = snprintf(path, sizeof path, "%s/%s", folder, entry->d_name);
        if (stem == strlen(entry->d_name) || n < 0 || (size_t)n >= sizeof path || !is_file(path)) continue;
        if (!(names[count] = malloc(stem + 1))) break;
        memcpy(names[count], entry->d_name, stem);
        names[count++][stem] = 0;
    }
    closedir(dir);
    qsort(names, (size_t)count, sizeof *names, by_name);
    return count;
}

static int trees(void)
{
    const char *folder = trees_folder();
    char *names[MAX_TREES];
    int count = tree_names(folder, names);
    if (count < 0) {
        fprintf(stderr, "error: %s: %s\n", folder ? folder : "no folder of shipped trees",
                folder ? "cannot read the folder of shipped trees (set GUESSTREE_TREES)" : "set GUESSTREE_TREES");
        return EXIT_ERROR;
    }
    for (int k = 0; k < count; k++) {
        printf("%s\n", names[k]);
        free(names[k]);
    }
    printf("%d tree%s in %s\n", count, count == 1 ? "" : "s", folder);
    return 0;
}

/* The opening book: every tree of the shipped trees' book/ folder (trees/book/, as guesstree's
 * shipped_book), opened when a history leaves the tree. A book tree that cannot be opened is left
 * out, so that it breaks no other game's suggestions: the book has no opening there. */
typedef struct book {
    gt_tree *trees[MAX_TREES];
    size_t count;
} book;

static void open_book(book *b)
{
    char folder[4096], path[4096], *names[MAX_TREES];
    int n = trees_folder() ? snprintf(folder, sizeof folder, "%s/book", trees_folder()) : -1;
    int count = n > 0 && (size_t)n < sizeof folder ? tree_names(folder, names) : -1;
    for (int k = 0; k < count; k++) {
        int written = snprintf(path, sizeof path, "%s/%s%s", folder, names[k], SUFFIX);
        if (written >= 0 && (size_t)written < sizeof path && gt_open_file(&b->trees[b->count], path, NULL, NULL) == GT_OK)
            b->count++;
        free(names[k]);
    }
}

static void close_book(book *b)
{
    while (b->count) gt_close(b->trees[--b->count]);
}

/* -- info ------------------------------------------------------------------------------------- */
static void print_histogram(gt_tree *tree, int determined)
{
    uint64_t guesses = 0, secrets = 0;
    printf("%s:", determined ? "guesses to determine" : "guesses to win");
    for (size_t i = 0; gt_histogram(tree, determined, i, &guesses, &secrets) == GT_OK; i++)
        printf(" %llu:%llu", (unsigned long long)guesses, (unsigned long long)secrets);
    printf("\n");
}

static const char *plural(uint64_t n, const char *one, const char *more) { return n == 1 ? one : more; }

/* the game as people write it, as guesstree info writes it (str(game): player/pegs.py's, twod.py's
 * and words.py's label) */
static void print_game(const gt_info *i)
{
    unsigned long long answers = (unsigned long long)i->answers;
    const char *rule = i->feedback ? "black pegs only, " : ""; /* mastermind's: player/rules.py's said */
    const char *said = !i->feedback ? "" : !strcmp(i->feedback, "counts") ? ", counts only" : ", letters in common";
    printf("game       ");
    switch (i->kind) {
    case GT_MASTERMIND:
        printf("Mastermind %dx%d", i->colours, i->holes);
        if (!i->secret_repeats && !i->guess_repeats) printf(" (%sdistinct colours, guesses distinct)", rule);
        else if (!i->secret_repeats) printf(" (%sdistinct colours, guesses may repeat)", rule);
        else if (!i->guess_repeats) printf(" (%sguesses distinct)", rule);
        else if (i->feedback) printf(" (black pegs only)");
        printf("\n");
        break;
    case GT_DIGITS: printf("Digits, %d digits\n", i->holes); break;
    case GT_BULLS_COWS: printf("Bulls and cows, %d of %d digits\n", i->holes, i->digits); break;
    case GT_TWOD: printf("Twod, %dx%d grid\n", i->size, i->size); break;
    case GT_WORDS:
        printf("Words of %u %s (%llu %s%s%s)\n", i->code_length, plural(i->code_length, "letter", "letters"), answers,
               plural(i->answers, "answer", "answers"), i->hard == 2 ? ", ultra-hard mode" : i->hard ? ", hard mode" : "", said);
        break;
    }
}

/* the notice whole, each line under the first (its text is not NUL-terminated) */
static void print_notice(gt_text notice)
{
    const char *at = notice.text, *end = notice.text + notice.length;
    while (at < end && (*at == '\n' || *at == ' ')) at++; /* as Python's strip() */
    while (end > at && (end[-1] == '\n' || end[-1] == ' ')) end--;
    for (int first = 1; at < end; first = 0) {
        const char *line = memchr(at, '\n', (size_t)(end - at));
        size_t length = line ? (size_t)(line - at) : (size_t)(end - at);
        printf("%s%.*s\n", first ? "notice     " : "           ", (int)length, at);
        at += length + 1;
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
    if (gt_format_code(tree, first, text, sizeof text, &error) != GT_OK) return failed(&error);
    print_game(&i);
    if (i.allowed_guesses)
        printf("           compiled with %llu allowed guesses; the tree carries the %llu %s it can play\n",
               (unsigned long long)i.allowed_guesses, (unsigned long long)(i.answers + i.extra_guesses),
               plural(i.answers + i.extra_guesses, "guess", "guesses"));
    if (i.notice.text) print_notice(i.notice);
    printf("strategy   %.*s\n", (int)i.strategy.length, i.strategy.text);
    printf("producer   %.*s, format %d.%d\n", (int)i.producer.length, i.producer.text, i.version_major, i.version_minor);
    printf("nodes      %llu", (unsigned long long)i.nodes);
    if (i.chunks) printf(", in %u chunks of %u nodes", i.chunks, i.chunk_nodes);
    printf("\nfirst      %s\n", text);
    printf("secrets    %llu\n", (unsigned long long)i.secrets);
    double weight, weighted_total, weighted_mean; /* weighted answers: the objective, then the plain figures */
    if (gt_get_weighted_stats(tree, &weight, &weighted_total, &weighted_mean) == GT_OK)
        printf("weighted   total %.6g, mean %.4f (guesses to win, each secret by its weight; weights %.6g in all)\n",
               weighted_total, weighted_mean, weight);
    printf("to win     total %llu, average %.4f, worst %llu\n", (unsigned long long)i.total, i.average, (unsigned long long)i.worst);
    printf("to determine total %llu, average %.4f, worst %llu\n", (unsigned long long)i.determined_total, i.determined_average,
           (unsigned long long)i.determined_worst);

    print_histogram(tree, 0);
    print_histogram(tree, 1);
    return 0;
}

/* -- path and next ------------------------------------------------------------------------------ */
static int path(gt_tree *tree, const char *secret)
{
    int code[GT_MAX_CODE];
    size_t steps = 0;
    gt_error error;
    gt_info i;
    char text[128];
    gt_get_info(tree, &i);
    if (gt_parse_code(tree, secret, code, &error) != GT_OK) return failed(&error);
    /* room for the tree's worst case (its header's; more than MAX_STEPS where a game of many letters
     * has few in common), or a path that is longer is refused as such */
    size_t most = i.worst > MAX_STEPS && i.worst < 65536 ? (size_t)i.worst : MAX_STEPS;
    int *guesses = malloc(most * GT_MAX_CODE * sizeof *guesses), *feedbacks = malloc(most * GT_MAX_FEEDBACK * sizeof *feedbacks);
    gt_status status = guesses && feedbacks ? gt_path(tree, code, guesses, feedbacks, most, &steps, &error) : GT_E_NO_MEMORY;
    if (status == GT_E_NO_MEMORY && (!guesses || !feedbacks)) snprintf(error.message, sizeof error.message, "no memory for the path");
    for (size_t k = 0; status == GT_OK && k < steps; k++) {
        status = gt_format_code(tree, guesses + k * i.code_length, text, sizeof text, &error);
        if (status == GT_OK) printf("%s\n", text);
    }
    free(guesses);
    free(feedbacks);
    return status == GT_OK ? 0 : failed(&error);
}

/* a guess's example for the message of a guess without feedback: the tree's first guess and the
 * feedback of no match (guesstree's: its first guess and the game's first feedback) */
static int missing_feedback(gt_tree *tree, const char *guess)
{
    int first[GT_MAX_CODE], none[GT_MAX_FEEDBACK] = {0};
    char code[128] = "", feedback[128] = "";
    if (gt_next_guess(tree, NULL, NULL, 0, first, NULL) != GT_OK || gt_format_code(tree, first, code, sizeof code, NULL) != GT_OK ||
        gt_format_feedback(tree, none, feedback, sizeof feedback, NULL) != GT_OK) /* no first guess to show: no example */
        fprintf(stderr, "error: give each guess with its feedback: '%s' has none\n", guess);
    else
        fprintf(stderr, "error: give each guess with its feedback (e.g. %s %s): '%s' has none\n", code, feedback, guess);
    return EXIT_ERROR;
}

static const char *const BY[] = {"rule", "tree", "symmetry", "book"};

/* how many secrets give every answer of the history (guesstree next --json's candidates) */
static gt_status candidates_left(gt_tree *tree, const char *const *history, size_t steps, int any_guess, uint64_t *count,
                                 gt_error *error)
{
    int guesses[MAX_STEPS * GT_MAX_CODE], feedbacks[MAX_STEPS * GT_MAX_FEEDBACK];
    gt_info i;
    gt_status status = gt_get_info(tree, &i);
    for (size_t k = 0; k < steps && status == GT_OK; k++) {
        status = gt_parse_code(tree, history[2 * k], guesses + k * i.code_length, error);
        if (status == GT_OK) status = gt_parse_feedback(tree, history[2 * k + 1], feedbacks + k * i.feedback_length, error);
    }
    return status == GT_OK ? gt_candidates(tree, guesses, feedbacks, steps, any_guess, NULL, 0, count, error) : status;
}

static int next(gt_tree *tree, char **args, int count)
{
    const char *history[2 * MAX_STEPS] = {NULL};
    char guess[128];
    gt_error error;
    size_t given = 0;
    int any_guess = 0, json = 0;
    gt_source by = GT_BY_RULE;
    for (int k = 0; k < count; k++) {
        if (strcmp(args[k], "--any-guess") == 0) any_guess = 1;
        else if (strcmp(args[k], "--json") == 0) json = 1;
        else if (given == 2 * MAX_STEPS) return usage_error("a history of more than 64 steps");
        else history[given++] = args[k];
    }
    if (given % 2) return missing_feedback(tree, history[given - 1]);
    static book openings; /* off the tree only: the book is read when a history leaves the tree */
    gt_status status = gt_next_guess_text(tree, history, given / 2, guess, sizeof guess, &error);
    if (status == GT_OK || status == GT_WON) {
        by = GT_BY_TREE;
    } else if (status != GT_E_PARSE) {
        open_book(&openings);
        gt_set_book(tree, openings.trees, openings.count);
        status = gt_suggest_text(tree, history, given / 2, any_guess, guess, sizeof guess, &by, &error);
        gt_set_book(tree, NULL, 0);
        close_book(&openings);
    }
    if (status == GT_E_NOT_ALLOWED) { /* the library names the guess; the command line says its option, as guesstree */
        fprintf(stderr, "error: %s (next --any-guess plays it anyway)\n", error.message);
        return EXIT_ERROR;
    }
    if (status != GT_OK && status != GT_WON) return failed(&error);
    uint64_t left = 0;
    if (json && candidates_left(tree, history, given / 2, any_guess, &left, &error) != GT_OK) return failed(&error);
    if (json) /* guesstree next --json's, and where the guess came from */
        printf("{\"guess\": %s%s%s, \"won\": %s, \"on_tree\": %s, \"candidates\": %llu, \"by\": \"%s\"}\n",
               status == GT_WON ? "null" : "\"", status == GT_WON ? "" : guess, status == GT_WON ? "" : "\"",
               status == GT_WON ? "true" : "false", by == GT_BY_TREE ? "true" : "false", (unsigned long long)left, BY[by]);
    else
        printf("%s\n", status == GT_WON ? "won" : guess);
    return 0;
}

/* -- the command ------------------------------------------------------------------------------- */
static gt_tree *open_tree(const char *given)
{
    char path[4096];
    gt_tree *tree = NULL;
    gt_error error;
    int found = find_tree(given, path, sizeof path);
    if (gt_open_file(&tree, path, NULL, &error) == GT_OK) return tree;
    if (!found && !strchr(given, '/'))
        fprintf(stderr, "error: %s; nor is it a shipped tree's name (gtree trees lists them)\n", error.message);
    else
        fprintf(stderr, "error: %s\n", error.message);
    return NULL;
}

int main(int argc, char **argv)
{
    const char *command = argc > 1 ? argv[1] : NULL;
    if (!command) return usage_error("name a command: info, path, next or trees");
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 || strcmp(command, "help") == 0) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0) {
        printf("gtree %s\n", gt_version());
        return 0;
    }
    if (strcmp(command, "trees") == 0) return argc == 2 ? trees() : usage_error("gtree trees takes no argument");
    if (strcmp(command, "info") && strcmp(command, "path") && strcmp(command, "next")) {
        fprintf(stderr, "error: no command '%s' (gtree --help lists them)\n", command);
        return EXIT_ERROR;
    }
    for (int k = 2; k < argc; k++)
        if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
            fputs(USAGE, stdout);
            return 0;
        }
    if (argc < 3) {
        int info_or_next = strcmp(command, "path") != 0;
        return usage_error(info_or_next ? (command[0] == 'i' ? "gtree info needs TREE" : "gtree next needs TREE")
                                        : "gtree path needs TREE and SECRET");
    }
    if (strcmp(command, "info") == 0 && argc != 3) return usage_error("gtree info takes TREE alone");
    if (strcmp(command, "path") == 0 && argc != 4) return usage_error("gtree path takes TREE and SECRET");
    gt_tree *tree = open_tree(argv[2]);
    if (!tree) return EXIT_ERROR;
    int status = strcmp(command, "info") == 0 ? info(tree) : strcmp(command, "path") == 0 ? path(tree, argv[3])
                                                                                          : next(tree, argv + 3, argc - 3);
    gt_close(tree);
    return status;
}
