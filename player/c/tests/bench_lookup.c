/* bench-lookup TREE HISTORIES SLOTS: opens TREE (timed), then answers next_guess for each history of
 * the file HISTORIES (a line each: the steps, then their guesses' ints, then their feedbacks'), once
 * cold and then 20 times warm (the best of them), and prints JSON. scripts/bench_c_player.py writes the histories and runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "../guesstree.h"

#define MAX_HISTORIES 100000
#define STEPS 32

typedef struct history { size_t steps; int guesses[STEPS * GT_MAX_CODE], feedbacks[STEPS * GT_MAX_FEEDBACK]; } history;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t read_histories(const char *path, history *all, unsigned h, unsigned w)
{
    FILE *file = fopen(path, "r");
    size_t n = 0;
    while (file && n < MAX_HISTORIES && fscanf(file, "%zu", &all[n].steps) == 1 && all[n].steps <= STEPS) {
        for (size_t k = 0; k < all[n].steps * h; k++) if (fscanf(file, "%d", &all[n].guesses[k]) != 1) return n;
        for (size_t k = 0; k < all[n].steps * w; k++) if (fscanf(file, "%d", &all[n].feedbacks[k]) != 1) return n;
        n++;
    }
    if (file) fclose(file);
    return n;
}

static double pass(gt_tree *tree, const history *all, size_t n, int *failures)
{
    int guess[GT_MAX_CODE];
    gt_error error;
    double started = now();
    for (size_t k = 0; k < n; k++)
        *failures += gt_next_guess(tree, all[k].guesses, all[k].feedbacks, all[k].steps, guess, &error) > GT_WON;
    return now() - started;
}

int main(int argc, char **argv)
{
    gt_tree *tree;
    gt_error error;
    gt_info info;
    struct rusage usage;
    int failures = 0, rounds = 20;
    if (argc != 4) return 2;
    gt_options options = {NULL, (unsigned)atoi(argv[3])};
    double started = now();
    if (gt_open_file(&tree, argv[1], &options, &error) != GT_OK) {
        fprintf(stderr, "%s\n", error.message);
        return 1;
    }
    double opened = now() - started;
    gt_get_info(tree, &info);
    history *all = malloc(MAX_HISTORIES * sizeof *all);
    size_t n = all ? read_histories(argv[2], all, info.code_length, info.feedback_length) : 0;
    double steps = 0, cold = pass(tree, all, n, &failures), warm = 0;
    for (size_t k = 0; k < n; k++) steps += (double)all[k].steps;
    for (int r = 0; r < rounds; r++) { /* the best round: the least disturbed by other work on the machine */
        double round = pass(tree, all, n, &failures);
        warm = r == 0 || round < warm ? round : warm;
    }
    gt_get_info(tree, &info);
    getrusage(RUSAGE_SELF, &usage);
    printf("{\"open_ms\": %.3f, \"histories\": %zu, \"mean_steps\": %.2f, \"cold_next_guess_ns\": %.1f, "
           "\"warm_next_guess_ns\": %.1f, \"failures\": %d, \"tree_memory_bytes\": %zu, \"tree_peak_memory_bytes\": %zu, "
           "\"process_max_rss_kib\": %ld, \"nodes\": %llu, \"chunks\": %u, \"chunk_nodes\": %u}\n",
           opened * 1e3, n, n ? steps / (double)n : 0, n ? cold / (double)n * 1e9 : 0, n ? warm / (double)n * 1e9 : 0,
           failures, info.memory, info.peak_memory, usage.ru_maxrss, (unsigned long long)info.nodes, info.chunks, info.chunk_nodes);
    free(all);
    gt_close(tree);
    return failures != 0;
}
