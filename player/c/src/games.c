/* The built-in games' rules: codes, feedback, score, canonical secrets (player/pegs.py, twod.py,
 * words.py). Text forms are in text.c; the game spec of a header in spec.c. */
#include <string.h>
#include "internal.h"

static int is_peg(const game *g)
{
    return g->kind == GT_MASTERMIND || g->kind == GT_DIGITS || g->kind == GT_BULLS_COWS;
}

uint32_t gti_game_feedback_keys(const game *g)
{
    uint32_t space = 1;
    if (g->rule == GT_RULE_BLACK) return g->length + 1;
    if (g->rule == GT_RULE_COMMON) return 2 * (g->length + 1);
    if (is_peg(g) || g->rule == GT_RULE_COUNTS) return (g->length + 1) * (g->length + 1);
    if (g->kind == GT_TWOD) return 8;
    for (unsigned k = 0; k < g->length; k++) space *= 3;
    return space;
}

int gti_game_feedback_key(const game *g, const int *f, uint32_t *key)
{
    int n = (int)g->length;
    if (g->rule == GT_RULE_BLACK) {
        *key = (uint32_t)f[0];
        return f[0] >= 0 && f[0] <= n;
    }
    if (g->rule == GT_RULE_COMMON) { /* (common, 0), or (length, 1): the word */
        *key = (uint32_t)(f[0] * 2 + f[1]);
        return f[0] >= 0 && f[0] <= n && (f[1] == 0 || (f[1] == 1 && f[0] == n));
    }
    if (is_peg(g) || g->rule == GT_RULE_COUNTS) { /* (black, white), or (in place, elsewhere) */
        if (f[0] < 0 || f[1] < 0 || f[0] + f[1] > n || (f[0] == n - 1 && f[1] == 1)) return 0;
        *key = (uint32_t)(f[0] * (n + 1) + f[1]);
        return 1;
    }
    if (g->kind == GT_TWOD) {
        static const int valid[4][3] = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 1}};
        for (int k = 0; k < 4; k++)
            if (memcmp(f, valid[k], sizeof valid[k]) == 0) {
                *key = (uint32_t)(f[0] * 4 + f[1] * 2 + f[2]);
                return 1;
            }
        return 0;
    }
    uint32_t value = 0, scale = 1;
    int exact = 0, present = 0;
    for (int p = 0; p < n; p++) {
        if (f[p] < 0 || f[p] > 2) return 0;
        exact += f[p] == 2;
        present += f[p] == 1;
        value += (uint32_t)f[p] * scale;
        scale *= 3;
    }
    if (exact == n - 1 && present == 1) return 0; /* the present letter would have to be elsewhere */
    *key = value;
    return 1;
}

void gti_game_win(const game *g, int *f)
{
    if (g->rule) { f[0] = (int)g->length; f[1] = g->rule == GT_RULE_COMMON; return; }
    if (is_peg(g)) { f[0] = (int)g->length; f[1] = 0; return; }
    for (unsigned k = 0; k < g->feedback_length; k++) f[k] = g->kind == GT_TWOD ? 1 : 2;
}

static void score_pegs(const game *g, const int *guess, const int *secret, int *f)
{
    int in_guess[26] = {0}, in_secret[26] = {0}, black = 0, common = 0;
    for (unsigned p = 0; p < g->length; p++) {
        black += guess[p] == secret[p];
        in_guess[guess[p]]++;
        in_secret[secret[p]]++;
    }
    for (unsigned s = 0; s < g->symbols; s++) common += in_guess[s] < in_secret[s] ? in_guess[s] : in_secret[s];
    f[0] = black;
    f[1] = common - black;
}

/* Wordle's marks: a letter is present at most as often as the secret holds it unmatched. The
 * counts are indexed by letter (up to GT_MAX_LETTERS): only the guess's and the secret's are set. */
static void score_words(const game *g, const int *guess, const int *secret, int *f)
{
    int unmatched[GT_MAX_LETTERS];
    for (unsigned p = 0; p < g->length; p++) unmatched[guess[p]] = unmatched[secret[p]] = 0;
    for (unsigned p = 0; p < g->length; p++)
        if (guess[p] != secret[p]) unmatched[secret[p]]++;
    for (unsigned p = 0; p < g->length; p++) {
        if (guess[p] == secret[p]) f[p] = 2;
        else if (unmatched[guess[p]] > 0) { f[p] = 1; unmatched[guess[p]]--; }
        else f[p] = 0;
    }
}

/* what the host tells of the full score under the game's rule (player/rules.py) */
static void reduce(const game *g, const int *full, int *f)
{
    int exact = 0, present = 0;
    if (g->rule == GT_RULE_BLACK) { f[0] = full[0]; return; }
    for (unsigned p = 0; p < g->length; p++) {
        exact += full[p] == 2;
        present += full[p] == 1;
    }
    f[0] = g->rule == GT_RULE_COUNTS ? exact : exact + present;
    f[1] = g->rule == GT_RULE_COUNTS ? present : exact == (int)g->length;
}

/* the caller checks both codes (gti_game_is_code) */
void gti_game_score(const game *g, const int *guess, const int *secret, int *f)
{
    int full[GT_MAX_CODE];
    if (g->rule) {
        if (is_peg(g)) score_pegs(g, guess, secret, full);
        else score_words(g, guess, secret, full);
        reduce(g, full, f);
    } else if (is_peg(g)) score_pegs(g, guess, secret, f);
    else if (g->kind == GT_WORDS) score_words(g, guess, secret, f);
    else {
        f[0] = secret[0] <= guess[0] && secret[1] <= guess[1];
        f[1] = secret[0] >= guess[0] && secret[1] >= guess[1];
        f[2] = secret[0] == guess[0] && secret[1] == guess[1];
    }
}

int gti_game_is_code(const game *g, const int *code)
{
    for (unsigned p = 0; p < g->length; p++)
        if (code[p] < 0 || code[p] >= (int)g->symbols) return 0;
    return 1;
}

static int distinct(const game *g, const int *code)
{
    for (unsigned p = 0; p < g->length; p++)
        for (unsigned q = 0; q < p; q++)
            if (code[p] == code[q]) return 0;
    return 1;
}

/* the word of a carried list at byte start, up to the space after it or the list's end: its end */
static uint64_t word_end(const char *list, uint64_t bytes, uint64_t start)
{
    const char *space = memchr(list + start, ' ', (size_t)(bytes - start));
    return space ? (uint64_t)(space - list) : bytes;
}

/* is the word whose codes are code in a carried list (bytes long)? A bisection of the bytes: the
 * word about the middle byte, found by going back to the space before it (the list is in code
 * point order, which for UTF-8 is the order of the bytes) */
static int listed(const game *g, const char *list, uint64_t bytes, const int *code)
{
    uint8_t word[GT_MAX_WORD_BYTES];
    size_t n = gti_word_bytes(g, code, word);
    uint64_t low = 0, high = bytes; /* low: a word's first byte; the word sought starts in [low, high) */
    while (low < high) {
        uint64_t middle = low + (high - low) / 2;
        while (middle > low && list[middle - 1] != ' ') middle--;
        uint64_t end = word_end(list, bytes, middle), length = end - middle;
        int order = memcmp(list + middle, word, length < n ? (size_t)length : n);
        if (order == 0) order = length < n ? -1 : length > n;
        if (order == 0) return 1;
        if (order < 0) low = end + 1;
        else high = middle;
    }
    return 0;
}

static int secrets_distinct(const game *g)
{
    return g->kind == GT_BULLS_COWS || (g->kind == GT_MASTERMIND && !g->secret_repeats);
}

/* one of the secrets (player/game.py's is_secret): a words game's answers, else by the rule of repeats */
int gti_game_is_secret(const game *g, const int *code)
{
    if (!gti_game_is_code(g, code)) return 0;
    if (g->kind == GT_WORDS) return listed(g, g->answers, g->answer_bytes, code);
    return !secrets_distinct(g) || distinct(g, code);
}

int gti_game_is_guess(const game *g, const int *code)
{
    if (!gti_game_is_code(g, code)) return 0;
    switch (g->kind) {
    case GT_MASTERMIND: return g->guess_repeats || distinct(g, code);
    case GT_BULLS_COWS: return distinct(g, code);
    case GT_WORDS: return listed(g, g->answers, g->answer_bytes, code) || listed(g, g->extra, g->extra_bytes, code);
    default: return 1;
    }
}


static int unused(const int *code, unsigned before, int symbol)
{
    for (unsigned q = 0; q < before; q++)
        if (code[q] == symbol) return 0;
    return 1;
}

/* positions from..length-1 filled with the least symbols the rule allows; 0 if none can be */
static int fill_least(const game *g, int *code, unsigned from, int repeats)
{
    for (unsigned p = from; p < g->length; p++) {
        int s = 0;
        while (!repeats && s < (int)g->symbols && !unused(code, p, s)) s++;
        if (s >= (int)g->symbols) return 0;
        code[p] = s;
    }
    return 1;
}

int gti_game_first_secret(const game *g, int *code)
{
    if (g->kind == GT_WORDS) {
        if (g->answer_count) gti_word_code(g, g->answers, code);
        return g->answer_count > 0;
    }
    return fill_least(g, code, 0, !secrets_distinct(g));
}

/* the next code after code in canonical order (itertools.product's, or .permutations's without
 * repeats): 0 after the last */
static int next_code(const game *g, int *code, int repeats)
{
    for (int p = (int)g->length - 1; p >= 0; p--) {
        for (int s = code[p] + 1; s < (int)g->symbols; s++) {
            if (!repeats && !unused(code, (unsigned)p, s)) continue;
            code[p] = s;
            if (fill_least(g, code, (unsigned)p + 1, repeats)) return 1;
        }
    }
    return 0;
}

/* the next secret in canonical order: 0 after the last */
int gti_game_next_secret(const game *g, int *code, uint64_t *index)
{
    if (g->kind == GT_WORDS) { /* *index: the current word's first byte */
        *index = word_end(g->answers, g->answer_bytes, *index) + 1;
        if (*index >= g->answer_bytes) return 0;
        gti_word_code(g, g->answers + *index, code);
        return 1;
    }
    ++*index;
    return next_code(g, code, !secrets_distinct(g));
}

static void put_code(const int *code, unsigned length, int *codes, uint64_t max, uint64_t at)
{
    if (at < max) memcpy(codes + at * length, code, length * sizeof *code);
}

/* a words game's guesses: its answers and its other guesses, both sorted, merged (player/words.py's
 * sorted(set(extra) | set(answers))) */
static uint64_t word_guesses(const game *g, int *codes, uint64_t max)
{
    uint64_t a = 0, x = 0, count = 0; /* the next answer's and the next other guess's first byte */
    while (a < g->answer_bytes || x < g->extra_bytes) {
        uint64_t a_end = a < g->answer_bytes ? word_end(g->answers, g->answer_bytes, a) : a;
        uint64_t x_end = x < g->extra_bytes ? word_end(g->extra, g->extra_bytes, x) : x;
        int order = a >= g->answer_bytes ? 1 : x >= g->extra_bytes ? -1 : 0;
        if (!order) {
            size_t an = (size_t)(a_end - a), xn = (size_t)(x_end - x);
            order = memcmp(g->answers + a, g->extra + x, an < xn ? an : xn);
            if (!order) order = an < xn ? -1 : an > xn;
        }
        int code[GT_MAX_CODE];
        gti_word_code(g, order <= 0 ? g->answers + a : g->extra + x, code);
        put_code(code, g->length, codes, max, count++);
        if (order <= 0) a = a_end + 1;
        if (order >= 0) x = x_end + 1;
    }
    return count;
}

uint64_t gti_game_guesses(const game *g, int *codes, uint64_t max)
{
    int code[GT_MAX_CODE];
    int repeats = !(g->kind == GT_BULLS_COWS || (g->kind == GT_MASTERMIND && !g->guess_repeats));
    uint64_t count = 0;
    if (g->kind == GT_WORDS) return word_guesses(g, codes, max);
    for (int more = fill_least(g, code, 0, repeats); more; more = next_code(g, code, repeats))
        put_code(code, g->length, codes, max, count++);
    return count;
}

static int same_text(gt_text a, gt_text b) { return a.length == b.length && (!a.length || !memcmp(a.text, b.text, a.length)); }

int gti_game_same(const game *a, const game *b)
{
    if (a->kind != b->kind || a->length != b->length || a->symbols != b->symbols) return 0;
    switch (a->kind) {
    case GT_MASTERMIND: return a->secret_repeats == b->secret_repeats && a->guess_repeats == b->guess_repeats && a->rule == b->rule;
    case GT_WORDS: /* the lists name the alphabet and capitals (both are made from the letters they use) */
        return a->hard == b->hard && a->rule == b->rule && same_text(a->answers_sha256, b->answers_sha256) && same_text(a->guesses_sha256, b->guesses_sha256)
            && same_text(a->weights, b->weights);
    default: return 1; /* digits, bulls and cows, twod: their length and symbols are their parameters */
    }
}
