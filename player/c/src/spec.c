/* A header's game spec rebuilt as player/tree.py's _game and player/games.py's make_game rebuild it:
 * the built-in games only, every parameter checked and reported back as written. */
#include <string.h>
#include "internal.h"

typedef enum param_kind { P_INT, P_BOOL, P_TEXT } param_kind;
typedef struct param { const char *name; param_kind kind; int64_t low, high, fallback; } param;
typedef struct rules { const char *name; gt_game_kind kind; const param *params; size_t count; } rules;

static const param MASTERMIND[] = {{"colours", P_INT, 1, 26, 6}, {"holes", P_INT, 1, 12, 4},
                                   {"secret_repeats", P_BOOL, 0, 1, 1}, {"guess_repeats", P_BOOL, 0, 1, 1},
                                   {"feedback", P_TEXT, 0, 0, 0}};
static const param DIGITS[] = {{"length", P_INT, 1, 10, 4}};
static const param BULLS_COWS[] = {{"digits", P_INT, 1, 10, 10}, {"length", P_INT, 1, 10, 4}};
static const param TWOD[] = {{"size", P_INT, 1, 256, 5}};
static const param WORDS[] = {{"hard", P_BOOL, 0, 1, 0}, {"length", P_INT, 1, 10, 5},
                              {"answers_sha256", P_TEXT, 0, 0, 0}, {"guesses_sha256", P_TEXT, 0, 0, 0},
                              {"answer_words", P_TEXT, 0, 0, 0}, {"guess_words", P_TEXT, 0, 0, 0},
                              {"alphabet", P_TEXT, 0, 0, 0}, {"capitals", P_TEXT, 0, 0, 0},
                              {"answer_weights", P_TEXT, 0, 0, 0}, {"feedback", P_TEXT, 0, 0, 0},
                              {"ultra_hard", P_TEXT, 0, 0, 0}};
#define MOST_PARAMS 11 /* WORDS' */
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

/* the letters of a game without the key alphabet, and their capitals */
static const char A_TO_Z[] = "abcdefghijklmnopqrstuvwxyz", CAPITAL_A_TO_Z[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* Can c be a letter of an alphabet (capital: or a letter's capital)? The C player has no Unicode
 * tables to check every letter's general category and lower form, as the Python and JavaScript
 * readers do: it refuses the characters of the blocks that hold no letter (Unicode's categories L
 * and M), or no lower-case one, that a list or a typed word could meet: ASCII but a-z (a capital:
 * and A-Z), Latin-1's controls, spaces, signs and (but for a capital) its capitals, General
 * Punctuation, the ideographic space, the private use areas, the specials, the emoji and symbols of
 * plane 1, the tags. */
static int may_be_letter(uint32_t c, int capital)
{
    if (c < 0x80) return (c >= 'a' && c <= 'z') || (capital && c >= 'A' && c <= 'Z');
    if (c == 0xAA || c == 0xB5 || c == 0xBA) return 1; /* ª, µ, º: Latin-1's letters below À */
    if (c < 0x100) return c >= 0xC0 && c != 0xD7 && c != 0xF7 && (capital || c >= 0xDF);
    return c != 0x1680 && !(c >= 0x2000 && c <= 0x206F) && c != 0x3000 && !(c >= 0xE000 && c <= 0xF8FF)
        && !(c >= 0xFFF0 && c <= 0xFFFF) && !(c >= 0x1F000 && c <= 0x1FAFF) && !(c >= 0xE0000 && c <= 0xE007F) && c < 0xF0000;
}

/* text as code points into to (at most GT_MAX_LETTERS of them): how many, or -1 where it is not
 * UTF-8 or holds more */
static int code_points(const mp_item *text, uint32_t *to)
{
    int count = 0;
    for (uint64_t k = 0; k < text->u; count++) {
        size_t bytes = gti_utf8_next(text->at + k, (size_t)(text->u - k), &to[count < GT_MAX_LETTERS ? count : 0]);
        if (!bytes || count == GT_MAX_LETTERS) return -1;
        k += bytes;
    }
    return count;
}

/* the alphabet and its capitals (FORMAT.md §2.1): letters in code point order, distinct, at most
 * GT_MAX_LETTERS; one capital a letter, distinct, none another letter. NULL, or what is wrong. */
static const char *alphabet(game *g, const mp_item *letters, const mp_item *capitals, char *why, size_t size)
{
    if (letters->type == MP_NIL && capitals->type == MP_NIL) { /* a-z: the letters of the trees before alphabets */
        for (unsigned k = 0; k < 26; k++) g->letter[k] = (uint32_t)A_TO_Z[k], g->capital[k] = (uint32_t)CAPITAL_A_TO_Z[k];
        g->symbols = 26;
        g->alphabet.text = A_TO_Z, g->alphabet.length = 26;
        g->capitals.text = CAPITAL_A_TO_Z, g->capitals.length = 26;
        return NULL;
    }
    if (letters->type == MP_NIL || capitals->type == MP_NIL)
        return letters->type == MP_NIL ? "capitals needs alphabet" : "alphabet needs capitals";
    if (letters->type != MP_STR || capitals->type != MP_STR) return "alphabet and capitals are not both text";
    if (gti_mp_is_str(letters, A_TO_Z)) { /* the game rebuilt would not write it: player/tree.py's rule for what is written */
        snprintf(why, size, "the game 'words' does not take alphabet='%s' as written (a-z is written as no alphabet)", A_TO_Z);
        return why;
    }
    int count = code_points(letters, g->letter);
    if (count < 1) return "alphabet is not 1 to 255 letters of UTF-8 text";
    for (int k = 0; k < count; k++) {
        if (!may_be_letter(g->letter[k], 0)) return "alphabet holds a character that is no letter";
        if (k && g->letter[k] <= g->letter[k - 1]) return "alphabet is not its letters in code point order, each once";
    }
    if (code_points(capitals, g->capital) != count) return "capitals is not one character for each letter of alphabet";
    g->symbols = (unsigned)count;
    for (int k = 0; k < count; k++) {
        if (!may_be_letter(g->capital[k], 1)) return "capitals holds a character that is no letter";
        for (int j = 0; j < k; j++)
            if (g->capital[j] == g->capital[k]) return "capitals shows two letters alike";
        int other = gti_letter_code(g, g->capital[k]);
        if (other >= 0 && other != k) return "capitals shows a letter as another letter of alphabet";
    }
    g->alphabet.text = (const char *)letters->at, g->alphabet.length = (size_t)letters->u;
    g->capitals.text = (const char *)capitals->at, g->capitals.length = (size_t)capitals->u;
    return NULL;
}

/* a carried list: words of length letters of the alphabet, one space apart, sorted by code point
 * and distinct (the order of their UTF-8 bytes); how many in *count */
static int carried(const game *g, const mp_item *text, int empty, uint64_t *count)
{
    const uint8_t *previous = NULL;
    size_t previous_n = 0;
    *count = 0;
    if (text->u == 0) return empty;
    for (uint64_t k = 0; k <= text->u; ++*count) {
        const uint8_t *word = text->at + k;
        for (unsigned p = 0; p < g->length; p++) {
            uint32_t c;
            size_t bytes = k < text->u ? gti_utf8_next(text->at + k, (size_t)(text->u - k), &c) : 0;
            if (!bytes || gti_letter_code(g, c) < 0) return 0;
            k += bytes;
        }
        if (k < text->u && text->at[k] != ' ') return 0; /* a longer word, or another character */
        size_t n = (size_t)(text->at + k - word);
        int order = previous ? memcmp(previous, word, n < previous_n ? n : previous_n) : -1;
        if (order > 0 || (order == 0 && previous_n >= n)) return 0;
        previous = word, previous_n = n;
        k++; /* past the space, or the end */
    }
    return 1;
}

/* the sha256 of the canonical list: each word and a newline */
static int list_matches(const mp_item *words, const mp_item *digest)
{
    gti_sha256_state s;
    uint8_t d[32];
    uint64_t start = 0;
    gti_sha256_init(&s);
    for (uint64_t k = 0; k <= words->u; k++) {
        if (k < words->u && words->at[k] != ' ') continue;
        gti_sha256_update(&s, words->at + start, (size_t)(k - start));
        gti_sha256_update(&s, (const uint8_t *)"\n", 1);
        start = k + 1;
    }
    gti_sha256_final(&s, d);
    return gti_sha256_is(d, digest->at, digest->u);
}

/* answer_weights: one positive decimal weight for each answer, as player/weights.py writes them,
 * one space apart; some weight not 1 (else the game would write none) */
static const char *weights(game *g, const mp_item *text, char *why, size_t size)
{
    uint64_t count = 0, k = 0;
    int all_one = 1;
    if (text->type == MP_NIL) return NULL;
    if (text->type != MP_STR) return "answer_weights is not text";
    while (k < text->u) {
        size_t n = gti_weight_length((const char *)text->at + k, (size_t)(text->u - k));
        if (!n) return "answer_weights holds a weight that is not a positive decimal number in its fewest digits";
        all_one &= n == 1 && text->at[k] == '1';
        count++;
        k += n;
        if (k < text->u && ++k == text->u) return "answer_weights ends with a space";
    }
    if (count != g->answer_count) return "answer_weights is not one weight for each word of answer_words";
    if (all_one) { /* the game rebuilt would not write them: player/tree.py's rule for what is written */
        snprintf(why, size, "the game 'words' does not take answer_weights as written (every weight is 1)");
        return why;
    }
    g->weights.text = (const char *)text->at, g->weights.length = (size_t)text->u;
    return NULL;
}

/* a words game's lists, letters and weights: GT_OK, or GT_E_GAME and why (a check that writes its
 * whole message into why, a parameter the game would not write as written, returns why itself) */
static gt_status words_lists(game *g, const mp_item *texts, char *why, size_t size)
{
    const mp_item *answers_sha = &texts[2], *guesses_sha = &texts[3], *answers = &texts[4], *guesses = &texts[5];
    const char *problem = NULL;
    if (answers->type == MP_NIL)
        problem = guesses->type != MP_NIL ? "guess_words needs answer_words"
                                          : "the tree names its word list files (format 1.0): this player reads trees that carry their words";
    else if (answers_sha->type != MP_STR || guesses_sha->type != MP_STR || answers->type != MP_STR || guesses->type != MP_STR)
        problem = "embedded word lists need answer_words, guess_words and both sha256 as text";
    else if ((problem = alphabet(g, &texts[6], &texts[7], why, size)) != NULL) {}
    else if (!carried(g, answers, 0, &g->answer_count))
        problem = answers->u ? "answer_words is not a sorted list of distinct words of the game's length and letters" : "answer_words is empty";
    else if (!list_matches(answers, answers_sha))
        problem = "the answer words it carries do not match their sha256";
    else if (!carried(g, guesses, 1, &g->extra_count))
        problem = "guess_words is not a sorted list of distinct words of the game's length and letters";
    else if (guesses_sha->u == 0)
        problem = "the game 'words' does not take guesses_sha256='' as written";
    else problem = weights(g, &texts[8], why, size);
    if (problem == why) return GT_E_GAME;
    if (problem) {
        snprintf(why, size, "cannot rebuild the game 'words': %s", problem);
        return GT_E_GAME;
    }
    g->answers = (const char *)answers->at, g->answer_bytes = answers->u;
    g->extra = (const char *)guesses->at, g->extra_bytes = guesses->u;
    g->answers_sha256.text = (const char *)answers_sha->at, g->answers_sha256.length = (size_t)answers_sha->u;
    g->guesses_sha256.text = (const char *)guesses_sha->at, g->guesses_sha256.length = (size_t)guesses_sha->u;
    return GT_OK;
}

/* short printable ASCII without a quote: text that Python's repr() shows as it is, between quotes */
static int plain_ascii(const mp_item *text)
{
    for (uint64_t k = 0; k < text->u; k++)
        if (text->at[k] < 0x20 || text->at[k] > 0x7E || text->at[k] == '\'' || text->at[k] == '\\') return 0;
    return text->u <= 40;
}

/* the feedback parameter (player/rules.py's rule_for): absent, or a rule of the game's family; a
 * written "full" is refused as any value the rebuilt game would not report back */
static const char *feedback_rule(game *g, const mp_item *text, char *why, size_t size)
{
    static const char *const names[] = {"", "black", "counts", "common"};
    int family = g->kind == GT_WORDS ? GT_RULE_COUNTS : GT_RULE_BLACK, last = g->kind == GT_WORDS ? GT_RULE_COMMON : GT_RULE_BLACK;
    if (text->type == MP_NIL) return NULL;
    for (int rule = family; text->type == MP_STR && rule <= last; rule++)
        if (gti_mp_is_str(text, names[rule])) {
            g->rule = rule;
            g->feedback_length = rule == GT_RULE_BLACK ? 1 : 2;
            if (!g->hard) return NULL;
            snprintf(why, size, "cannot rebuild the game '%s': %s keeps the hints of each letter's marks, which --feedback %s "
                     "does not give", g->name, g->hard == 2 ? "--ultra-hard" : "--hard", names[rule]);
            return why;
        }
    if (gti_mp_is_str(text, "full")) /* the rebuilt game would not report it */
        snprintf(why, size, "the game '%s' does not take feedback='full' as written", g->name);
    else {
        char value[64] = ""; /* the value as Python's repr() shows it, where that is simple */
        if (text->type == MP_STR && plain_ascii(text)) snprintf(value, sizeof value, ", not '%.*s'", (int)text->u, (const char *)text->at);
        if (text->type == MP_UINT) snprintf(value, sizeof value, ", not %llu", (unsigned long long)text->u);
        if (text->type == MP_NEGATIVE) snprintf(value, sizeof value, ", not %lld", (long long)text->i);
        if (text->type == MP_BOOL) snprintf(value, sizeof value, ", not %s", text->u ? "True" : "False");
        snprintf(why, size, "cannot rebuild the game '%s': --feedback must be full, %s for this game%s", g->name,
                 g->kind == GT_WORDS ? "counts, common" : "black", value);
    }
    return why;
}

/* ultra_hard (format 1.5): absent, or true beside hard true (g->hard becomes 2); as player/tree.py does, a
 * value the rebuilt game would not report back is refused as written (false is never written, nor hard false) */
static const char *ultra_hard(game *g, const mp_item *value, char *why, size_t size)
{
    int64_t truth = 0;
    if (value->type == MP_NIL) return NULL;
    if (!as_bool(value, &truth)) {
        snprintf(why, size, "the game 'words' does not take ultra_hard as written (a bool)");
        return why;
    }
    const char *stray = !truth ? "ultra_hard" : !g->hard ? "hard" : NULL; /* each written as a false value */
    if (stray) {
        snprintf(why, size, "the game 'words' does not take %s=%s as written", stray, value->type == MP_BOOL ? "False" : "0");
        return why;
    }
    g->hard = 2;
    return NULL;
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
        if (!problem) problem = feedback_rule(g, &texts[4], why, size);
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
        g->hard = (int)v[0]; g->holes = (int)v[1]; g->feedback_length = (unsigned)v[1];
        memcpy(g->letters, "GY", 2); /* counts-only feedback's */
        problem = ultra_hard(g, &texts[10], why, size);
        if (!problem) problem = feedback_rule(g, &texts[9], why, size);
        break;
    }
    g->length = (unsigned)g->holes;
    g->symbols = (unsigned)g->colours; /* words: its alphabet's letters (words_lists) */
    if (problem == why) return GT_E_GAME;
    if (problem) {
        snprintf(why, size, "cannot rebuild the game '%s': %s", r->name, problem);
        return GT_E_GAME;
    }
    if (r->kind != GT_WORDS) return GT_OK;
    gt_status status = words_lists(g, texts, why, size);
    g->colours = (int)g->symbols;
    return status;
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
    int64_t values[MOST_PARAMS];
    mp_item texts[MOST_PARAMS];
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
