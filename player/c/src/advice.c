/* Help off the tree, gt_suggest, as the Python player's Tree.suggest and the
 * JavaScript player's suggest: the openings after a first guess of one's own (player/book.py: the
 * book's tree, the tree itself by a peg game's symmetry), and the guess player/advice.py's rule
 * gives. The constants, the sample, the ties and the look-ahead's budget are Python's, so that both
 * answer the same guess for every history (tests/test_c_player.py holds it so).
 *
 * Codes are pointers to length ints in one store (the secrets, or the guesses); a set of secrets
 * is a list of them in canonical order, which is lexicographic in every built-in game, so that
 * membership is a bisection. Working memory comes from the tree's allocator and is given back,
 * last taken first (a gt_arena takes back its last block only), before gt_suggest returns. */
#include <string.h>
#include "internal.h"

#define GT_SYMBOLS 26 /* the most symbols of a peg game (Mastermind's 26 colours) */

#define SAMPLE 32            /* at least this many secrets each guess is ranked on ... */
#define FEEDBACKS 400000     /* ... and as many as make this many feedbacks over the pool */
#define SHORTLIST 60         /* the best guesses by the sample, ranked again on every candidate */
#define TRIES 6              /* guesses, best first, the look-ahead tries on each set */
#define BUDGET 20000         /* what the look-ahead may spend on one suggestion, counted as ... */
#define OVERHEAD 16          /* ... (secrets + OVERHEAD) per guess it scores on a set */
#define HARD_BUDGET 3000000  /* where the game narrows the guesses (hard mode) */

typedef const int *code;

typedef struct advisor {
    gt_tree *t;
    const game *g;
    unsigned length;
    int hard;                /* words' hard mode: the one game whose guesses narrow (its hint rule) */
    long long budget;
    uint32_t *mark;          /* a feedback key's stamp: the parts counted, or the part it names */
    uint32_t *part;
    uint32_t stamp;
    int no_memory;
    const int *secret_codes; /* where the secrets left are: a secret's weight is weight[its index there] */
    const gt_text *weight;   /* NULL: every secret weighs 1 */
} advisor;

static void *take(advisor *a, size_t count, size_t size)
{
    void *block = count && count <= SIZE_MAX / size ? gti_tree_alloc(a->t, count * size) : NULL;
    if (count && !block) a->no_memory = 1;
    return block;
}

static void give(advisor *a, void *block) { gti_tree_free(a->t, block, 0); }

static int compare(const advisor *a, code x, code y)
{
    for (unsigned p = 0; p < a->length; p++)
        if (x[p] != y[p]) return x[p] < y[p] ? -1 : 1;
    return 0;
}

/* is c one of set (in canonical order)? */
static int member(const advisor *a, code c, code const *set, size_t n)
{
    size_t low = 0, high = n;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = compare(a, set[middle], c);
        if (order == 0) return 1;
        if (order < 0) low = middle + 1;
        else high = middle;
    }
    return 0;
}

static uint32_t key_of(const advisor *a, code guess, code secret)
{
    int f[GT_MAX_FEEDBACK];
    uint32_t key = 0;
    gti_game_score(a->g, guess, secret, f);
    gti_game_feedback_key(a->g, f, &key);
    return key;
}

static uint32_t next_stamp(advisor *a)
{
    if (++a->stamp == 0) { /* after 2^32 counts: every mark forgotten */
        memset(a->mark, 0, a->t->key_space * sizeof *a->mark);
        a->stamp = 1;
    }
    return a->stamp;
}

/* the parts guess splits secrets into: how many distinct feedbacks it gives them */
static size_t parts_count(advisor *a, code guess, code const *secrets, size_t n)
{
    uint32_t stamp = next_stamp(a);
    size_t parts = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t key = key_of(a, guess, secrets[k]);
        if (a->mark[key] != stamp) a->mark[key] = stamp, parts++;
    }
    return parts;
}

/* Hard mode's hint rule for one step (player/words.py's allows with one step): the step's exact
 * letters stay in place, and each letter it revealed is reused as often as it revealed it. Ultra-hard
 * mode's: the guess could be the answer, the step's guess giving it the step's feedback. */
static int allows_step(const advisor *a, code guess, code played, const int *feedback)
{
    if (a->g->hard == 2) {
        int got[GT_MAX_FEEDBACK];
        gti_game_score(a->g, played, guess, got);
        return !memcmp(got, feedback, a->length * sizeof *got);
    }
    for (unsigned p = 0; p < a->length; p++)
        if (feedback[p] == 2 && guess[p] != played[p]) return 0;
    for (unsigned p = 0; p < a->length; p++) { /* each revealed letter, counted in both words (no array by letter) */
        int revealed = 0, have = 0;
        if (!feedback[p]) continue;
        for (unsigned q = 0; q < a->length; q++) {
            revealed += played[q] == played[p] && feedback[q];
            have += guess[q] == played[p];
        }
        if (have < revealed) return 0;
    }
    return 1;
}

static int allows_all(const advisor *a, code guess, const int *guesses, const int *feedbacks, size_t steps)
{
    for (size_t k = 0; k < steps; k++)
        if (!allows_step(a, guess, guesses + k * a->length, feedbacks + k * a->g->feedback_length)) return 0;
    return 1;
}

/* -- weighted answers: ties to the heavier secret ---------------------------------------------------- */
static int heavier(const advisor *a, code x, code y)
{
    return gti_weight_compare(a->weight[(size_t)(x - a->secret_codes) / a->length],
                              a->weight[(size_t)(y - a->secret_codes) / a->length]) > 0;
}

/* secrets left (n of them, in canonical order) put heaviest first, ties kept in their order: a merge
 * sort, bottom up, through a spare list */
static void heaviest_first(advisor *a, code *secrets, size_t n)
{
    code *spare = n > 1 ? take(a, n, sizeof *spare) : NULL, *from = secrets, *to = spare;
    if (!spare) return;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t low = 0; low < n; low += 2 * width) {
            size_t middle = low + width < n ? low + width : n, high = low + 2 * width < n ? low + 2 * width : n;
            size_t i = low, j = middle, k = low;
            while (i < middle || j < high)
                to[k++] = j < high && (i == middle || heavier(a, from[j], from[i])) ? from[j++] : from[i++];
        }
        code *swap = from;
        from = to, to = swap;
    }
    if (from != secrets) memcpy(secrets, from, n * sizeof *secrets);
    give(a, spare);
}

/* the indices of the most parts, at most most of them, best first: ties to the lower index
 * (heapq.nlargest's order) */
static size_t best_of(const size_t *counts, size_t n, size_t most, size_t *top)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept == most && counts[i] <= counts[top[kept - 1]]) continue;
        size_t at = kept < most ? kept++ : most - 1;
        while (at > 0 && counts[top[at - 1]] < counts[i]) top[at] = top[at - 1], at--;
        top[at] = i;
    }
    return kept;
}

static int within(advisor *a, code const *secrets, size_t n, long long depth, code const *pool, size_t pool_n);

/* After guess, can every part of secrets be won within left more guesses? pool: the shortlist's
 * guesses the game allows here. The parts come in the order of their first secret, but for the
 * one the guess wins. */
static int keeps(advisor *a, code guess, code const *secrets, size_t n, long long left, code const *pool, size_t pool_n)
{
    code *grouped = take(a, n, sizeof *grouped);
    size_t *start = take(a, n + 1, sizeof *start);
    uint32_t *keys = take(a, n, sizeof *keys);
    code *allowed = a->hard ? take(a, pool_n, sizeof *allowed) : NULL;
    int kept = !a->no_memory;
    size_t parts = 0;
    if (kept) { /* each key's part, numbered in the order of their first secrets; then a counting sort */
        uint32_t stamp = next_stamp(a);
        start[0] = 0;
        for (size_t k = 0; k < n; k++) {
            uint32_t key = keys[k] = key_of(a, guess, secrets[k]);
            if (a->mark[key] != stamp) a->mark[key] = stamp, a->part[key] = (uint32_t)parts, start[++parts] = 0;
            start[a->part[key] + 1]++; /* start[p + 1]: part p's size, then where it ends */
        }
        for (size_t p = 0; p < parts; p++) start[p + 1] += start[p];
        for (size_t k = 0; k < n; k++) grouped[start[a->part[keys[k]]]++] = secrets[k]; /* start[p]: its end */
        for (size_t p = parts; p > 0; p--) start[p] = start[p - 1];
        start[0] = 0;
    }
    for (size_t p = 0; kept && p < parts; p++) {
        code const *part = grouped + start[p];
        size_t size = start[p + 1] - start[p], allowed_n = pool_n;
        if (key_of(a, guess, part[0]) == a->t->win_key) continue;
        if (a->hard) { /* the hint rule holds step by step: only this step to check */
            int feedback[GT_MAX_FEEDBACK];
            gti_game_score(a->g, guess, part[0], feedback);
            allowed_n = 0;
            for (size_t k = 0; a->budget > 0 && k < pool_n; k++)
                if (allows_step(a, pool[k], guess, feedback)) allowed[allowed_n++] = pool[k];
            a->budget -= (long long)pool_n * OVERHEAD; /* checking the rule costs as much as a row */
        }
        kept = within(a, part, size, left, a->hard ? allowed : pool, allowed_n);
    }
    give(a, allowed);
    give(a, keys);
    give(a, start);
    give(a, grouped);
    return kept && !a->no_memory;
}

/* Can secrets be won within depth guesses? At most depth secrets, each a guess: in turn; else one
 * of the TRIES guesses that split them into the most parts leaves parts each won within depth - 1. */
static int within(advisor *a, code const *secrets, size_t n, long long depth, code const *pool, size_t pool_n)
{
    size_t playable = 0, count = 0, top[TRIES];
    for (size_t k = 0; k < n; k++) playable += gti_game_is_guess(a->g, secrets[k]) != 0;
    if ((long long)n <= depth && playable == n) return 1;
    if (depth < 2 || a->budget <= 0) return 0;
    code *guesses = take(a, playable + pool_n, sizeof *guesses);
    size_t *counts = take(a, playable + pool_n, sizeof *counts);
    int won = 0;
    if (!a->no_memory) {
        for (size_t k = 0; k < n; k++)
            if (gti_game_is_guess(a->g, secrets[k])) guesses[count++] = secrets[k];
        if (count > SHORTLIST) { /* SHORTLIST of them, evenly spaced */
            for (size_t i = 0; i < SHORTLIST; i++) guesses[i] = guesses[i * count / SHORTLIST];
            count = SHORTLIST;
        }
        for (size_t k = 0; k < pool_n; k++)
            if (!member(a, pool[k], secrets, n)) guesses[count++] = pool[k];
        a->budget -= (long long)count * (long long)(n + OVERHEAD);
        for (size_t i = 0; i < count; i++) counts[i] = parts_count(a, guesses[i], secrets, n);
        size_t tries = best_of(counts, count, TRIES, top);
        for (size_t k = 0; k < tries && !won && !a->no_memory; k++) {
            if (depth == 2 && counts[top[k]] < n) break; /* two guesses left: only one that tells every secret apart */
            won = keeps(a, guesses[top[k]], secrets, n, depth - 1, pool, pool_n);
        }
    }
    give(a, counts);
    give(a, guesses);
    return won && !a->no_memory;
}

/* The best SHORTLIST guesses of pool by the parts they split remaining into, best first, into
 * shortlist: how many. The secrets that are allowed guesses come first (the heaviest first, in a
 * weighted game), then the others: ties in parts go to the first. */
static size_t ranked(advisor *a, code const *pool, size_t pool_n, const int *guesses, const int *feedbacks, size_t steps,
                     code const *remaining, size_t n, code *shortlist)
{
    code *order = take(a, n + pool_n, sizeof *order);
    size_t *counts = take(a, n + pool_n, sizeof *counts), top[SHORTLIST], again[SHORTLIST];
    code *sample = NULL;
    size_t m = 0, counted = 0, kept = 0;
    if (!a->no_memory) {
        for (size_t k = 0; k < n; k++)
            if (gti_game_is_guess(a->g, remaining[k]) && (!a->hard || allows_all(a, remaining[k], guesses, feedbacks, steps)))
                order[m++] = remaining[k];
        if (a->weight) heaviest_first(a, order, m);
        for (size_t k = 0; k < pool_n; k++)
            if (!member(a, pool[k], remaining, n)) order[m++] = pool[k];
    }
    size_t size = m ? FEEDBACKS / m : 0;
    if (size < SAMPLE) size = SAMPLE;
    int exact = n <= size;
    if (!exact) sample = take(a, size, sizeof *sample);
    if (m && !a->no_memory) {
        for (size_t i = 0; !exact && i < size; i++) sample[i] = remaining[(uint64_t)i * n / size];
        for (counted = 0; counted < m;) {
            size_t parts = counts[counted] = parts_count(a, order[counted], exact ? remaining : sample, exact ? n : size);
            counted++;
            if (exact && parts == n) break; /* one that splits them into single secrets: none does better */
        }
        kept = best_of(counts, counted, SHORTLIST, top);
        for (size_t k = 0; !exact && k < kept; k++) { /* ranked again on every candidate: ties to the lower index */
            size_t i = top[k], parts = parts_count(a, order[i], remaining, n), at = k;
            while (at > 0 && (again[at - 1] < parts || (again[at - 1] == parts && top[at - 1] > i)))
                again[at] = again[at - 1], top[at] = top[at - 1], at--;
            again[at] = parts, top[at] = i;
        }
        for (size_t k = 0; k < kept; k++) shortlist[k] = order[top[k]];
    }
    give(a, sample);
    give(a, counts);
    give(a, order);
    return kept;
}

/* the game's guesses (the store) and the candidates after the history (their store, and in a
 * weighted game their weights) */
typedef struct stores {
    int *guess_codes, *secret_codes;
    code *pool, *remaining;
    gt_text *weights;
    size_t guesses, secrets, pool_n;
} stores;

static void fill_stores(advisor *a, stores *s, const int *guesses, const int *feedbacks, size_t steps)
{
    int secret[GT_MAX_CODE];
    uint64_t index = 0, all = gti_game_guesses(a->g, NULL, 0), count = 0;
    for (int more = gti_game_first_secret(a->g, secret); more; more = gti_game_next_secret(a->g, secret, &index))
        count += gti_consistent(a->g, guesses, feedbacks, steps, secret);
    if (all > SIZE_MAX / GT_MAX_CODE || count > SIZE_MAX / GT_MAX_CODE) { a->no_memory = 1; return; }
    s->guess_codes = take(a, (size_t)all * a->length, sizeof *s->guess_codes);
    s->pool = take(a, (size_t)all, sizeof *s->pool);
    s->secret_codes = take(a, (size_t)count * a->length, sizeof *s->secret_codes);
    s->remaining = take(a, (size_t)count, sizeof *s->remaining);
    s->weights = a->g->weights.length ? take(a, (size_t)count, sizeof *s->weights) : NULL;
    if (a->no_memory) return;
    s->guesses = (size_t)gti_game_guesses(a->g, s->guess_codes, all);
    for (size_t k = 0; k < s->guesses; k++) {
        code guess = s->guess_codes + k * a->length;
        if (!a->hard || allows_all(a, guess, guesses, feedbacks, steps)) s->pool[s->pool_n++] = guess;
    }
    index = 0;
    size_t at = 0; /* the next secret's weight in answer_weights (one a secret, in their order) */
    for (int more = gti_game_first_secret(a->g, secret); more; more = gti_game_next_secret(a->g, secret, &index)) {
        gt_text weight = {NULL, 0};
        if (s->weights) {
            weight.text = a->g->weights.text + at;
            weight.length = gti_weight_length(weight.text, a->g->weights.length - at);
            at += weight.length + (at + weight.length < a->g->weights.length); /* and the space after it */
        }
        if (!gti_consistent(a->g, guesses, feedbacks, steps, secret)) continue;
        memcpy(s->secret_codes + s->secrets * a->length, secret, a->length * sizeof *secret);
        s->remaining[s->secrets] = s->secret_codes + s->secrets * a->length;
        if (s->weights) s->weights[s->secrets] = weight;
        s->secrets++;
    }
    a->secret_codes = s->secret_codes;
    a->weight = s->weights;
}

static void free_stores(advisor *a, stores *s)
{
    give(a, s->weights);
    give(a, s->remaining);
    give(a, s->secret_codes);
    give(a, s->pool);
    give(a, s->guess_codes);
}

/* player/advice.py's best_guess: one or two candidates, the first (the heavier, in a weighted game);
 * else the shortlist's first guess after which every part can be won within the tree's worst case,
 * then within one more; else the best-ranked guess */
static void best_guess(advisor *a, const stores *s, const int *guesses, const int *feedbacks, size_t steps, int *guess)
{
    code shortlist[SHORTLIST], chosen = s->remaining[0];
    if (s->secrets == 2 && a->weight && heavier(a, s->remaining[1], s->remaining[0])) chosen = s->remaining[1];
    if (s->secrets > 2) {
        size_t kept = ranked(a, s->pool, s->pool_n, guesses, feedbacks, steps, s->remaining, s->secrets, shortlist);
        /* the file's worst case may be any uint64: no tree plays more than TEXT_STEPS guesses */
        long long worst = a->t->stat[2] < TEXT_STEPS ? (long long)a->t->stat[2] : TEXT_STEPS;
        chosen = kept ? shortlist[0] : chosen;
        for (long long depth = worst, found = 0; depth <= worst + 1 && !found && !a->no_memory; depth++)
            for (size_t k = 0; k < kept && !found; k++)
                if (keeps(a, shortlist[k], s->remaining, s->secrets, depth - (long long)steps - 1, shortlist, kept))
                    chosen = shortlist[k], found = 1;
    }
    memcpy(guess, chosen, a->length * sizeof *guess);
}

/* player/advice.py's guess after a history, and how many secrets it leaves (0: none, and no guess written) */
static gt_status advise(gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int *guess, uint64_t *candidates)
{
    advisor a = {t, &t->g, t->g.length, t->g.kind == GT_WORDS && t->g.hard, 0, NULL, NULL, 0, 0, NULL, NULL};
    stores s = {NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
    a.budget = a.hard ? HARD_BUDGET : BUDGET;
    a.mark = take(&a, t->key_space, sizeof *a.mark);
    a.part = take(&a, t->key_space, sizeof *a.part);
    if (a.mark) memset(a.mark, 0, t->key_space * sizeof *a.mark);
    if (!a.no_memory) fill_stores(&a, &s, guesses, feedbacks, steps);
    *candidates = s.secrets;
    if (!a.no_memory && s.secrets) best_guess(&a, &s, guesses, feedbacks, steps, guess);
    free_stores(&a, &s);
    give(&a, a.part);
    give(&a, a.mark);
    return a.no_memory ? GT_E_NO_MEMORY : GT_OK;
}

/* -- the tree carried by a symmetry (player/book.py's class_of and openings) -------------------- */
/* A peg game's codes may be renamed and reordered: a code's class is its first code (the symbol
 * held most often first, as 0 in the first places, then the next...), reached by order (the
 * positions) and names (the symbols). */
typedef struct symmetry {
    unsigned order[GT_MAX_CODE];
    int names[GT_SYMBOLS], unnames[GT_SYMBOLS];
} symmetry;

static void class_of(const game *g, const int *code, int *canonical, symmetry *s)
{
    int counts[GT_SYMBOLS] = {0}, first[GT_SYMBOLS];
    unsigned named = 0;
    for (unsigned p = g->length; p-- > 0;) counts[code[p]]++, first[code[p]] = (int)p;
    for (unsigned p = 0; p < g->length; p++) { /* by count (most first), then first place, then place */
        unsigned at = p;
        for (; at > 0; at--) {
            int before = code[s->order[at - 1]], here = code[p];
            if (counts[before] > counts[here] || (counts[before] == counts[here] && first[before] <= first[here])) break;
            s->order[at] = s->order[at - 1];
        }
        s->order[at] = p;
    }
    for (unsigned k = 0; k < g->symbols; k++) s->names[k] = -1;
    for (unsigned p = 0; p < g->length; p++)
        if (s->names[code[s->order[p]]] < 0) s->names[code[s->order[p]]] = (int)named++;
    for (unsigned k = 0; k < g->symbols; k++)
        if (s->names[k] < 0) s->names[k] = (int)named++;
    for (unsigned k = 0; k < g->symbols; k++) s->unnames[s->names[k]] = (int)k;
    for (unsigned p = 0; p < g->length; p++) canonical[p] = s->names[code[s->order[p]]];
}

static void forward(const game *g, const symmetry *s, const int *code, int *out)
{
    for (unsigned p = 0; p < g->length; p++) out[p] = s->names[code[s->order[p]]];
}

static void back(const game *g, const symmetry *s, const int *code, int *out)
{
    for (unsigned p = 0; p < g->length; p++) out[s->order[p]] = s->unnames[code[p]];
}

/* the tree of the book for t's game whose first guess is first, or NULL */
static gt_tree *opening(gt_tree *t, const int *first, gt_error *e, gt_status *status)
{
    int root[GT_MAX_CODE];
    for (size_t k = 0; k < t->book_count; k++) {
        gt_tree *b = t->book[k];
        if (!gti_game_same(&b->g, &t->g)) continue;
        *status = gt_next_guess(b, NULL, NULL, 0, root, e);
        if (*status != GT_OK) return NULL;
        if (!memcmp(root, first, t->g.length * sizeof *root)) return b;
    }
    return NULL;
}

/* follow a tree with the history carried to it by to (NULL: as it is); its guess carried back by back */
static gt_status follow(gt_tree *b, const int *guesses, const int *feedbacks, size_t steps, const symmetry *to_mine,
                        const symmetry *to_theirs, int *guess, gt_error *e)
{
    const game *g = &b->g;
    int carried[TEXT_STEPS * GT_MAX_CODE], middle[GT_MAX_CODE], answer[GT_MAX_CODE];
    gt_error ignored;
    for (size_t k = 0; k < steps * g->length; k += g->length) { /* to(code): theirs.back(mine.forward(code)) */
        memcpy(carried + k, guesses + k, g->length * sizeof *guesses);
        if (to_mine) forward(g, to_mine, guesses + k, carried + k);
        if (to_theirs) memcpy(middle, carried + k, g->length * sizeof *middle), back(g, to_theirs, middle, carried + k);
    }
    gt_status status = gt_next_guess(b, carried, feedbacks, steps, answer, &ignored);
    if (status == GT_E_CHUNK) return gti_fail(e, status, "%s", ignored.message);
    if (status != GT_OK) return GT_E_OFF_TREE;
    memcpy(guess, answer, g->length * sizeof *answer); /* back(code): mine.back(theirs.forward(code)) */
    if (to_theirs) forward(g, to_theirs, answer, guess);
    if (to_mine) memcpy(middle, guess, g->length * sizeof *middle), back(g, to_mine, middle, guess);
    return GT_OK;
}

/* the openings after the history's first guess (player/book.py's openings): the book's tree for it
 * (by GT_BY_BOOK), then in a peg game the tree itself after a first guess of its first guess's class,
 * carried by the symmetry between them (GT_BY_SYMMETRY): GT_OK and the guess, GT_E_OFF_TREE where
 * none follows */
static gt_status follow_openings(gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int *guess, gt_source *by,
                                 gt_error *e)
{
    const game *g = &t->g;
    int canonical[GT_MAX_CODE], own[GT_MAX_CODE], tree_first[GT_MAX_CODE];
    symmetry mine, theirs;
    gt_status status = GT_OK;
    int peg = g->kind == GT_MASTERMIND || g->kind == GT_DIGITS || g->kind == GT_BULLS_COWS;
    if (!steps || steps > TEXT_STEPS || (peg && g->symbols > GT_SYMBOLS)) return GT_E_OFF_TREE;
    if (peg) class_of(g, guesses, canonical, &mine);
    else memcpy(canonical, guesses, g->length * sizeof *guesses);
    gt_tree *b = opening(t, canonical, e, &status);
    if (status != GT_OK) return status;
    if (b) {
        status = follow(b, guesses, feedbacks, steps, peg ? &mine : NULL, NULL, guess, e);
        if (status != GT_E_OFF_TREE) {
            *by = GT_BY_BOOK;
            return status;
        }
    }
    if (!peg) return GT_E_OFF_TREE;
    status = gt_next_guess(t, NULL, NULL, 0, tree_first, e);
    if (status != GT_OK) return status;
    class_of(g, tree_first, own, &theirs);
    if (memcmp(canonical, own, g->length * sizeof *own) || !memcmp(tree_first, guesses, g->length * sizeof *guesses))
        return GT_E_OFF_TREE; /* another class, or the tree's own first guess: the tree itself or nothing */
    *by = GT_BY_SYMMETRY;
    return follow(t, guesses, feedbacks, steps, &mine, &theirs, guess, e);
}

/* -- the calls ------------------------------------------------------------------------------------ */
/* Tree.suggest (player/tree.py): the tree's guess while the history follows it; then the opening
 * book's tree for the history's first guess (gt_set_book); in a peg game, the tree carried by a
 * symmetry after a first guess of its first guess's class; else the guess of player/advice.py's rule */
gt_status gt_suggest(gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int any_guess, int *guess,
                     gt_source *by, gt_error *e)
{
    gt_error ignored;
    uint64_t left = 0;
    int win[GT_MAX_FEEDBACK];
    size_t won = 0;
    if (!t || !guess || (steps && (!guesses || !feedbacks))) return gti_fail(e, GT_E_ARGUMENT, "gt_suggest: a NULL argument");
    if (by) *by = GT_BY_RULE;
    gt_status status = gti_check_steps(t, guesses, feedbacks, steps, any_guess, e);
    if (status != GT_OK) return status;
    status = gt_next_guess(t, guesses, feedbacks, steps, guess, &ignored);
    if (status == GT_OK || status == GT_WON || status == GT_E_CHUNK) {
        if (by && status != GT_E_CHUNK) *by = GT_BY_TREE;
        return status == GT_E_CHUNK ? gti_fail(e, status, "%s", ignored.message) : status;
    }
    gti_game_win(&t->g, win);
    for (size_t k = 0; k < steps && !won; k++)
        if (!memcmp(feedbacks + k * t->g.feedback_length, win, t->g.feedback_length * sizeof *win)) won = k + 1;
    if (won && won != steps)
        return gti_fail(e, GT_E_ALREADY_WON, "step %zu: the game was won at step %zu, yet the history goes on", won + 1, won);
    if (won) return gti_wins(t, guesses, feedbacks, steps) ? GT_WON : gti_no_secret(t, guesses, feedbacks, steps, e);
    gt_source opening = GT_BY_RULE; /* a history that the tree follows by a symmetry is one some secret gives */
    status = follow_openings(t, guesses, feedbacks, steps, guess, &opening, e);
    if (status == GT_OK && by) *by = opening;
    if (status != GT_E_OFF_TREE) return status;
    status = advise(t, guesses, feedbacks, steps, guess, &left);
    if (status != GT_OK) return gti_fail(e, status, "no memory left to suggest a guess");
    return left ? GT_OK : gti_no_secret(t, guesses, feedbacks, steps, e);
}

gt_status gt_suggest_text(gt_tree *t, const char *const *history, size_t steps, int any_guess, char *out, size_t size,
                          gt_source *by, gt_error *e)
{
    int guesses[TEXT_STEPS * GT_MAX_CODE], feedbacks[TEXT_STEPS * GT_MAX_FEEDBACK], guess[GT_MAX_CODE];
    if (!t || !out || !size || (steps && !history)) return gti_fail(e, GT_E_ARGUMENT, "gt_suggest_text: a NULL argument");
    out[0] = 0;
    if (by) *by = GT_BY_RULE;
    if (steps > TEXT_STEPS) return gti_fail(e, GT_E_ARGUMENT, "a history of %zu steps: at most %d are read", steps, TEXT_STEPS);
    gt_status status = gti_parse_steps(t, history, steps, guesses, feedbacks, e);
    if (status == GT_OK) status = gt_suggest(t, guesses, feedbacks, steps, any_guess, guess, by, e);
    if (status != GT_OK) return status;
    if (gti_game_format_code(&t->g, guess, out, size) >= size) return gti_fail(e, GT_E_SPACE, "the guess does not fit in %zu bytes", size);
    return GT_OK;
}
