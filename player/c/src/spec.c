/* A header's game spec rebuilt as player/tree.py's _game and player/games.py's make_game rebuild it:
 * the built-in games only, every parameter checked and reported back as written. */
#include <string.h>
#include "internal.h"

typedef enum param_kind { P_INT, P_BOOL, P_TEXT } param_kind;
typedef struct param { const char *name; param_kind kind; int64_t low, high, fallback; } param;
typedef struct rules { const char *name; gt_game_kind kind; const param *params; size_t count; } rules;

static const param MASTERMIND[] = {{"colours", P_INT, 1, 26, 6}, {"holes", P_INT, 1, 12, 4},
                                   {"secret_repeats", P_BOOL, 0, 1, 1}, {"guess_repeats", P_BOOL, 0, 1, 1}};
static const param DIGITS[] = {{"length", P_INT, 1, 10, 4}};
static const param BULLS_COWS[] = {{"digits", P_INT, 1, 10, 10}, {"length", P_INT, 1, 10, 4}};
static const param TWOD[] = {{"size", P_INT, 1, 256, 5}};
static const param WORDS[] = {{"hard", P_BOOL, 0, 1, 0}, {"length", P_INT, 1, 10, 5},
                              {"answers_sha256", P_TEXT, 0, 0, 0}, {"guesses_sha256", P_TEXT, 0, 0, 0},
                              {"answer_words", P_TEXT, 0, 0, 0}, {"guess_words", P_TEXT, 0, 0, 0}};
#define RULES(name, kind, params) {name, kind, params, sizeof params / sizeof *params}
static const rules GAMES[] = {RULES("mastermind", GT_MASTERMIND, MASTERMIND), RULES("digits", GT_DIGITS, DIGITS),
                              RULES("bulls-cows", GT_BULLS_COWS, BULLS_COWS), RULES("twod", GT_TWOD, TWOD),
                              RULES("words", GT_WORDS, WORDS)};

/* a value Python's bool() makes and then reports equal to what was written: a bool, 0, 1, 0.0, 1.0 */
static int as_bool(const mp_item *v, int64_t *truth)
{
    if (v->type == MP_BOOL || v->type == MP_UINT) *truth = (int64_t)v->u;
    else if (v->type == MP_FLOAT && (v->f == 0.0 || v->f == 1.0)) *truth = v->f == 1.0;
    else return 0;
    return *truth <= 1;
}

static const rules *rules_of(mp_item name)
{
    for (size_t k = 0; k < sizeof GAMES / sizeof *GAMES; k++)
        if (gti_mp_is_str(&name, GAMES[k].name)) return &GAMES[k];
    return NULL;
}

/* every key one the game takes; each value of the right kind (the last of a repeated key) */
static gt_status read_params(const rules *r, mp_item params, int64_t *values, mp_item *texts, char *why, size_t size)
{
    const uint8_t *at = params.at;
    for (uint64_t k = 0; k < params.u; k++) {
        mp_item key;
        size_t known = 0;
        gti_mp_read(&at, params.end, &key);
        gti_mp_skip(&at, params.end);
        while (known < r->count && !gti_mp_is_str(&key, r->params[known].name)) known++;
        if (known == r->count) {
            snprintf(why, size, "cannot rebuild the game '%s': bad parameters for %s: %.*s", r->name, r->name,
                     (int)(key.u > 40 ? 40 : key.u), (const char *)key.at);
            return GT_E_GAME;
        }
    }
    for (size_t k = 0; k < r->count; k++) {
        const param *p = &r->params[k];
        mp_item v;
        int present = gti_mp_get(params, p->name, &v), ok = 1;
        values[k] = p->fallback;
        texts[k].type = MP_NIL;
        if (!present) continue;
        if (p->kind == P_INT) ok = gti_mp_int_in(&v, p->low, p->high, &values[k]);
        if (p->kind == P_BOOL) ok = as_bool(&v, &values[k]);
        if (p->kind == P_TEXT) texts[k] = v;
        if (!ok) {
            snprintf(why, size, "the game '%s' does not take %s as written (%s)", r->name, p->name,
                     p->kind == P_INT ? "a whole number in range" : "a bool");
            return GT_E_GAME;
        }
    }
    return GT_OK;
}

/* a carried list: words of length letters a-z, one space apart, sorted and distinct */
static int carried(const mp_item *text, unsigned length, int empty, uint64_t *count)
{
    uint64_t stride = length + 1;
    *count = 0;
    if (text->u == 0) return empty;
    if ((text->u + 1) % stride) return 0;
    *count = (text->u + 1) / stride;
    for (uint64_t w = 0; w < *count; w++) {
        const uint8_t *word = text->at + w * stride;
        for (unsigned p = 0; p < length; p++)
            if (word[p] < 'a' || word[p] > 'z') return 0;
        if (w + 1 < *count && word[length] != ' ') return 0;
        if (w && memcmp(word - stride, word, length) >= 0) return 0;
    }
    return 1;
}

/* the sha256 of the canonical list: each word and a newline */
static int list_matches(const mp_item *words, unsigned length, uint64_t count, const mp_item *digest)
{
    gti_sha256_state s;
    uint8_t d[32];
    gti_sha256_init(&s);
    for (uint64_t w = 0; w < count; w++) {
        gti_sha256_update(&s, words->at + w * (length + 1), length);
        gti_sha256_update(&s, (const uint8_t *)"\n", 1);
    }
    gti_sha256_final(&s, d);
    return gti_sha256_is(d, digest->at, digest->u);
}

static gt_status words_lists(game *g, const mp_item *texts, char *why, size_t size)
{
    const mp_item *answers_sha = &texts[2], *guesses_sha = &texts[3], *answers = &texts[4], *guesses = &texts[5];
    const char *problem = NULL;
    if (answers->type == MP_NIL)
        problem = guesses->type != MP_NIL ? "guess_words needs answer_words"
                                          : "the tree names its word list files (format 1.0): this player reads trees that carry their words";
    else if (answers_sha->type != MP_STR || guesses_sha->type != MP_STR || answers->type != MP_STR || guesses->type != MP_STR)
        problem = "embedded word lists need answer_words, guess_words and both sha256 as text";
    else if (!carried(answers, g->length, 0, &g->answer_count))
        problem = answers->u ? "answer_words is not a sorted list of distinct words a-z of the game's length" : "answer_words is empty";
    else if (!list_matches(answers, g->length, g->answer_count, answers_sha))
        problem = "the answer words it carries do not match their sha256";
    else if (!carried(guesses, g->length, 1, &g->extra_count))
        problem = "guess_words is not a sorted list of distinct words a-z of the game's length";
    else if (guesses_sha->u == 0)
        problem = "the game 'words' does not take guesses_sha256='' as written";
    if (problem) {
        snprintf(why, size, "cannot rebuild the game 'words': %s", problem);
        return GT_E_GAME;
    }
    g->answers = (const char *)answers->at;
    g->extra = (const char *)guesses->at;
    g->answers_sha256.text = (const char *)answers_sha->at, g->answers_sha256.length = (size_t)answers_sha->u;
    g->guesses_sha256.text = (const char *)guesses_sha->at, g->guesses_sha256.length = (size_t)guesses_sha->u;
    return GT_OK;
}

static gt_status build(game *g, const rules *r, const int64_t *v, const mp_item *texts, char *why, size_t size)
{
    const char *problem = NULL;
    memset(g, 0, sizeof *g);
    g->kind = r->kind;
    g->name = r->name;
    g->colours = g->digits = 10;
    g->secret_repeats = g->guess_repeats = 1;
    g->feedback_length = 2;
    memcpy(g->letters, "BW", 2);
    switch (r->kind) {
    case GT_MASTERMIND:
        g->colours = (int)v[0]; g->holes = (int)v[1]; g->secret_repeats = (int)v[2]; g->guess_repeats = (int)v[3];
        if (!g->secret_repeats && g->colours < g->holes) problem = "--no-secret-repeats needs at least as many colours as holes";
        if (g->secret_repeats && !g->guess_repeats) problem = "--no-guess-repeats needs --no-secret-repeats";
        break;
    case GT_DIGITS:
        g->holes = (int)v[0];
        memcpy(g->letters, "SB", 2);
        break;
    case GT_BULLS_COWS:
        g->colours = g->digits = (int)v[0]; g->holes = (int)v[1]; g->secret_repeats = g->guess_repeats = 0;
        memcpy(g->letters, "AB", 2);
        if (g->holes > g->digits) problem = "--length must be a whole number from 1 to the digits";
        break;
    case GT_TWOD:
        g->size = g->colours = (int)v[0]; g->holes = 2; g->feedback_length = 3;
        break;
    case GT_WORDS:
        g->hard = (int)v[0]; g->holes = (int)v[1]; g->colours = 26; g->feedback_length = (unsigned)v[1];
        break;
    }
    g->length = (unsigned)g->holes;
    g->symbols = (unsigned)g->colours;
    if (problem) {
        snprintf(why, size, "cannot rebuild the game '%s': %s", r->name, problem);
        return GT_E_GAME;
    }
    return r->kind == GT_WORDS ? words_lists(g, texts, why, size) : GT_OK;
}

static int plain_params(mp_item params)
{
    const uint8_t *at = params.at;
    if (params.type != MP_MAP) return 0;
    for (uint64_t k = 0; k < params.u; k++) {
        mp_item key, value;
        if (!gti_mp_read(&at, params.end, &key) || key.type != MP_STR) return 0;
        const uint8_t *value_at = at;
        if (!gti_mp_read(&value_at, params.end, &value) || !gti_mp_is_scalar(&value)) return 0;
        gti_mp_skip(&at, params.end);
    }
    return 1;
}

gt_status gti_game_from_spec(game *g, mp_item spec, char *why, size_t size)
{
    mp_item name, params;
    int64_t values[8];
    mp_item texts[8];
    if (spec.type != MP_MAP || !gti_mp_get(spec, "name", &name) || name.type != MP_STR) {
        snprintf(why, size, "the header has no usable game spec");
        return GT_E_GAME;
    }
    if (!gti_mp_get(spec, "params", &params)) params.type = MP_MAP, params.u = 0, params.at = params.end = NULL;
    if (!plain_params(params)) {
        snprintf(why, size, "the game's parameters are not a map of names to plain values");
        return GT_E_GAME;
    }
    const rules *r = rules_of(name);
    if (!r) {
        int plugin = memchr(name.at, ':', name.u) != NULL;
        snprintf(why, size, plugin ? "the game is the plugin '%.*s', which only the Python player runs" : "unknown game '%.*s'",
                 (int)(name.u > 100 ? 100 : name.u), (const char *)name.at);
        return plugin ? GT_E_PLUGIN : GT_E_GAME;
    }
    gt_status status = read_params(r, params, values, texts, why, size);
    return status != GT_OK ? status : build(g, r, values, texts, why, size);
}
