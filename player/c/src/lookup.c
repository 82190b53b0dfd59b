/* Answers: next_guess (FORMAT.md §4, player/tree.py's _follow), path, candidates, the text forms
 * and what a tree says of itself. */
#include <string.h>
#include "internal.h"

/* ints as Python's repr of a tuple: (0, 27, 1) */
static void ints_text(const int *values, unsigned count, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "(");
    for (unsigned p = 0; p < count && n < size; p++) n += (size_t)snprintf(out + n, size - n, p ? ", %d" : "%d", values[p]);
    if (n < size) snprintf(out + n, size - n, ")");
}

/* a code for a message: as the game writes it, or as ints where it cannot (player/tree.py's _code) */
static void code_text(const gt_tree *t, const int *code, char *out, size_t size)
{
    const game *g = &t->g;
    if (g->kind == GT_DIGITS || g->kind == GT_BULLS_COWS || g->kind == GT_TWOD || gti_game_is_code(g, code))
        gti_game_format_code(g, code, out, size);
    else
        ints_text(code, g->length, out, size);
}

static void feedback_text(const gt_tree *t, const int *f, char *out, size_t size)
{
    const game *g = &t->g;
    uint32_t key;
    int writable = g->kind != GT_TWOD || gti_game_feedback_key(g, f, &key);
    for (unsigned p = 0; g->kind == GT_WORDS && !g->rule && p < g->length; p++) writable &= f[p] >= 0 && f[p] <= 2;
    if (writable) gti_game_format_feedback(g, f, out, size);
    else ints_text(f, g->feedback_length, out, size);
}

static int plays(const gt_tree *t, const piece *p, uint64_t node, const int *guess)
{
    const uint8_t *played = p->guess + (node - p->base) * t->g.length;
    for (unsigned k = 0; k < t->g.length; k++)
        if (guess[k] != played[k]) return 0;
    return 1;
}

static void guess_of(const gt_tree *t, const piece *p, uint64_t node, int *guess)
{
    const uint8_t *played = p->guess + (node - p->base) * t->g.length;
    for (unsigned k = 0; k < t->g.length; k++) guess[k] = played[k];
}

/* where a feedback leads from node: GT_WON for the win, else the child or -1 */
static int64_t child_for(const gt_tree *t, const piece *p, uint64_t node, const int *feedback, int *won)
{
    uint32_t key;
    int known = gti_game_feedback_key(&t->g, feedback, &key);
    *won = known && key == t->win_key;
    if (!known || *won || !t->key_index[key]) return -1;
    return gti_child_of(t, p, node, t->key_index[key] - 1u);
}

/* feedback given as ints that the game cannot give, refused as its text is */
static gt_status cannot_occur(const gt_tree *t, const int *feedback, size_t step, gt_error *e)
{
    char shown[96];
    ints_text(feedback, t->g.feedback_length, shown, sizeof shown);
    return gti_fail(e, GT_E_ARGUMENT, "step %zu: %s is feedback that cannot occur in %s", step, shown, t->g.name);
}

static void played_text(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, char *out, size_t size)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t k = 0; k < steps && n < size; k++) {
        char code[96], feedback[96];
        code_text(t, guesses + k * t->g.length, code, sizeof code);
        feedback_text(t, feedbacks + k * t->g.feedback_length, feedback, sizeof feedback);
        n += (size_t)snprintf(out + n, size - n, "%s%s %s", k ? ", " : "", code, feedback);
    }
}

/* does secret give every answer of the history's first steps */
int gti_consistent(const game *g, const int *guesses, const int *feedbacks, size_t steps, const int *secret)
{
    int f[GT_MAX_FEEDBACK];
    for (size_t k = 0; k < steps; k++) {
        gti_game_score(g, guesses + k * g->length, secret, f);
        if (memcmp(f, feedbacks + k * g->feedback_length, g->feedback_length * sizeof *f)) return 0;
    }
    return 1;
}

/* Can the last guess of the history, answered with the win, be the secret: one of the game's secrets
 * that gives every earlier answer? (The win answers the secret alone: gt_candidates' question, for a
 * score a step.) */
int gti_wins(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps)
{
    const int *secret = guesses + (steps - 1) * t->g.length;
    return gti_game_is_secret(&t->g, secret) && gti_consistent(&t->g, guesses, feedbacks, steps - 1, secret);
}

gt_status gti_no_secret(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, gt_error *e)
{
    char played[GT_MESSAGE_SIZE];
    played_text(t, guesses, feedbacks, steps, played, sizeof played);
    return gti_fail(e, GT_E_NO_SECRET, "no secret gives all these answers: %s", played);
}

gt_status gt_next_guess(gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int *guess, gt_error *e)
{
    char shown[3][96];
    uint64_t node = 0;
    const unsigned h = t ? t->g.length : 0, w = t ? t->g.feedback_length : 0;
    if (!t || !guess || (steps && (!guesses || !feedbacks))) return gti_fail(e, GT_E_ARGUMENT, "gt_next_guess: a NULL argument");
    for (size_t step = 1; step <= steps; step++) {
        const int *played = guesses + (step - 1) * h, *feedback = feedbacks + (step - 1) * w;
        const piece *p;
        gt_status status = gti_piece_of(t, node, &p, e);
        if (status != GT_OK) return status;
        if (!plays(t, p, node, played)) {
            int expected[GT_MAX_CODE];
            guess_of(t, p, node, expected);
            code_text(t, expected, shown[0], sizeof shown[0]);
            code_text(t, played, shown[1], sizeof shown[1]);
            return gti_fail(e, GT_E_OFF_TREE, "step %zu: the tree plays %s here, not %s", step, shown[0], shown[1]);
        }
        int won;
        int64_t child = child_for(t, p, node, feedback, &won);
        if (won && step == steps) /* the tree's guess here may be no secret, or not one the answers allow */
            return gti_wins(t, guesses, feedbacks, steps) ? GT_WON : gti_no_secret(t, guesses, feedbacks, steps, e);
        if (won) return gti_fail(e, GT_E_ALREADY_WON, "step %zu: the game was won at step %zu, yet the history goes on",
                                step + 1, step);
        if (child < 0) {
            uint32_t key;
            if (!gti_game_feedback_key(&t->g, feedback, &key)) return cannot_occur(t, feedback, step, e);
            feedback_text(t, feedback, shown[2], sizeof shown[2]);
            code_text(t, played, shown[1], sizeof shown[1]);
            return gti_fail(e, GT_E_NO_SECRET, "step %zu: no secret left gives %s to %s", step, shown[2], shown[1]);
        }
        node = (uint64_t)child;
    }
    const piece *p;
    gt_status status = gti_piece_of(t, node, &p, e);
    if (status != GT_OK) return status;
    guess_of(t, p, node, guess);
    return GT_OK;
}

/* the text of a history as the game's ints, each refused as player/tree.py's _steps refuses it */
gt_status gti_parse_steps(const gt_tree *t, const char *const *history, size_t steps, int *guesses, int *feedbacks, gt_error *e)
{
    char why[400];
    for (size_t k = 0; k < steps; k++) {
        gt_status s = history[2 * k] && history[2 * k + 1] ? GT_OK : GT_E_ARGUMENT;
        if (s == GT_OK) s = gti_game_parse_code(&t->g, history[2 * k], guesses + k * t->g.length, why, sizeof why);
        if (s == GT_OK) s = gti_game_parse_feedback(&t->g, history[2 * k + 1], feedbacks + k * t->g.feedback_length, why, sizeof why);
        if (s == GT_E_ARGUMENT) return gti_fail(e, s, "step %zu: a NULL guess or feedback", k + 1);
        if (s != GT_OK) return gti_fail(e, s, "step %zu: %s", k + 1, why);
    }
    return GT_OK;
}

gt_status gt_next_guess_text(gt_tree *t, const char *const *history, size_t steps, char *out, size_t size, gt_error *e)
{
    int guesses[TEXT_STEPS * GT_MAX_CODE], feedbacks[TEXT_STEPS * GT_MAX_FEEDBACK], guess[GT_MAX_CODE];
    if (!t || !out || !size || (steps && !history)) return gti_fail(e, GT_E_ARGUMENT, "gt_next_guess_text: a NULL argument");
    out[0] = 0;
    if (steps > TEXT_STEPS) return gti_fail(e, GT_E_ARGUMENT, "a history of %zu steps: at most %d are read", steps, TEXT_STEPS);
    gt_status status = gti_parse_steps(t, history, steps, guesses, feedbacks, e);
    if (status == GT_OK) status = gt_next_guess(t, guesses, feedbacks, steps, guess, e);
    if (status != GT_OK) return status;
    if (gti_game_format_code(&t->g, guess, out, size) >= size) return gti_fail(e, GT_E_SPACE, "the guess does not fit in %zu bytes", size);
    return GT_OK;
}

gt_status gt_path(gt_tree *t, const int *secret, int *guesses, int *feedbacks, size_t max_steps, size_t *steps, gt_error *e)
{
    uint64_t node = 0;
    char code[96], played[300];
    if (!t || !secret || !guesses || !feedbacks || !steps) return gti_fail(e, GT_E_ARGUMENT, "gt_path: a NULL argument");
    const unsigned h = t->g.length, w = t->g.feedback_length;
    *steps = 0;
    if (!gti_game_is_code(&t->g, secret)) {
        code_text(t, secret, code, sizeof code);
        return gti_fail(e, GT_E_ARGUMENT, "%s is not a code of the game", code);
    }
    for (;;) {
        const piece *p;
        gt_status status = gti_piece_of(t, node, &p, e);
        if (status != GT_OK) return status;
        if (*steps == max_steps) return gti_fail(e, GT_E_SPACE, "the path is longer than %zu steps", max_steps);
        int *guess = guesses + *steps * h, *feedback = feedbacks + *steps * w;
        guess_of(t, p, node, guess);
        gti_game_score(&t->g, guess, secret, feedback);
        ++*steps;
        int won;
        int64_t child = child_for(t, p, node, feedback, &won);
        if (won) return GT_OK;
        if (child < 0) {
            code_text(t, secret, code, sizeof code);
            played_text(t, guesses, feedbacks, *steps, played, sizeof played);
            return gti_fail(e, GT_E_NOT_PLAYABLE, "the tree cannot play %s: it has no answer after %s", code, played);
        }
        node = (uint64_t)child;
    }
}

gt_status gti_check_steps(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int any_guess, gt_error *e)
{
    char code[96], shown[96];
    uint32_t key;
    for (size_t k = 0; k < steps; k++) {
        const int *guess = guesses + k * t->g.length, *feedback = feedbacks + k * t->g.feedback_length;
        for (unsigned p = 0; p < t->g.length; p++)
            if (guess[p] < 0 || guess[p] >= (int)t->g.symbols) { /* as player/game.py's check_code says it */
                ints_text(guess, t->g.length, shown, sizeof shown);
                if (t->g.kind == GT_TWOD)
                    return gti_fail(e, GT_E_ARGUMENT, "step %zu: %s is off the grid: x and y from 0 to %u", k + 1, shown,
                                    t->g.symbols - 1);
                return gti_fail(e, GT_E_ARGUMENT, "step %zu: %s has an unknown symbol %d", k + 1, shown, guess[p]);
            }
        code_text(t, guess, code, sizeof code);
        if (!gti_game_feedback_key(&t->g, feedback, &key)) return cannot_occur(t, feedback, k + 1, e);
        if (!any_guess && !t->allowed_guesses && !gti_game_is_guess(&t->g, guess))
            return gti_fail(e, GT_E_NOT_ALLOWED, "step %zu: %s is not one of the game's %llu allowed guesses",
                            k + 1, code, (unsigned long long)gti_game_guesses(&t->g, NULL, 0));
    }
    return GT_OK;
}

gt_status gt_candidates(const gt_tree *t, const int *guesses, const int *feedbacks, size_t steps, int any_guess, int *codes,
                        size_t max, uint64_t *count, gt_error *e)
{
    int secret[GT_MAX_CODE];
    uint64_t index = 0;
    if (!t || !count || (steps && (!guesses || !feedbacks)) || (max && !codes)) return gti_fail(e, GT_E_ARGUMENT, "gt_candidates: a NULL argument");
    *count = 0;
    gt_status status = gti_check_steps(t, guesses, feedbacks, steps, any_guess, e);
    if (status != GT_OK) return status;
    for (int more = gti_game_first_secret(&t->g, secret); more; more = gti_game_next_secret(&t->g, secret, &index)) {
        if (!gti_consistent(&t->g, guesses, feedbacks, steps, secret)) continue;
        if (*count < max) memcpy(codes + *count * t->g.length, secret, t->g.length * sizeof *secret);
        ++*count;
    }
    return GT_OK;
}

gt_status gt_parse_code(const gt_tree *t, const char *text, int *code, gt_error *e)
{
    char why[400];
    if (!t || !text || !code) return gti_fail(e, GT_E_ARGUMENT, "gt_parse_code: a NULL argument");
    gt_status status = gti_game_parse_code(&t->g, text, code, why, sizeof why);
    return status == GT_OK ? GT_OK : gti_fail(e, status, "%s", why);
}

gt_status gt_parse_feedback(const gt_tree *t, const char *text, int *feedback, gt_error *e)
{
    char why[400];
    if (!t || !text || !feedback) return gti_fail(e, GT_E_ARGUMENT, "gt_parse_feedback: a NULL argument");
    gt_status status = gti_game_parse_feedback(&t->g, text, feedback, why, sizeof why);
    return status == GT_OK ? GT_OK : gti_fail(e, status, "%s", why);
}

gt_status gt_format_code(const gt_tree *t, const int *code, char *text, size_t size, gt_error *e)
{
    if (!t || !code || !text) return gti_fail(e, GT_E_ARGUMENT, "gt_format_code: a NULL argument");
    if (gti_game_format_code(&t->g, code, text, size) >= size) return gti_fail(e, GT_E_SPACE, "the code does not fit in %zu bytes", size);
    return GT_OK;
}

gt_status gt_format_feedback(const gt_tree *t, const int *feedback, char *text, size_t size, gt_error *e)
{
    if (!t || !feedback || !text) return gti_fail(e, GT_E_ARGUMENT, "gt_format_feedback: a NULL argument");
    if (gti_game_format_feedback(&t->g, feedback, text, size) >= size)
        return gti_fail(e, GT_E_SPACE, "the feedback does not fit in %zu bytes", size);
    return GT_OK;
}

gt_status gt_get_info(const gt_tree *t, gt_info *info)
{
    if (!t || !info) return GT_E_ARGUMENT;
    const game *g = &t->g;
    memset(info, 0, sizeof *info);
    info->kind = g->kind;
    info->game = g->name;
    info->colours = g->colours;
    info->holes = g->holes;
    info->secret_repeats = g->secret_repeats;
    info->guess_repeats = g->guess_repeats;
    info->digits = g->kind == GT_BULLS_COWS ? g->digits : 0;
    info->size = g->size;
    info->hard = g->hard;
    info->code_length = g->length;
    info->symbols = g->symbols;
    info->feedback_length = g->feedback_length;
    info->feedback = g->rule == GT_RULE_BLACK ? "black" : g->rule == GT_RULE_COUNTS ? "counts" : g->rule == GT_RULE_COMMON ? "common" : NULL;
    info->feedbacks = t->feedbacks;
    info->answers = g->answer_count;
    info->extra_guesses = g->extra_count;
    info->strategy = t->strategy_name;
    info->producer = t->producer;
    info->notice = t->notice;
    info->allowed_guesses = t->allowed_guesses;
    info->version_major = (int)t->version[0];
    info->version_minor = t->version[1] > 1000000 ? 1000000 : (int)t->version[1];
    info->nodes = t->nodes;
    info->chunks = t->chunked ? t->chunks : 0;
    info->chunk_nodes = t->chunked ? t->chunk_nodes : 0;
    info->secrets = t->stat[0];
    info->total = t->stat[1];
    info->worst = t->stat[2];
    info->determined_total = t->stat[3];
    info->determined_worst = t->stat[4];
    info->average = t->average[0];
    info->determined_average = t->average[1];
    info->memory = t->memory;
    info->peak_memory = t->peak;
    return GT_OK;
}

gt_status gt_histogram(const gt_tree *t, int determined, size_t i, uint64_t *guesses, uint64_t *secrets)
{
    mp_item pair, count, value;
    if (!t || !guesses || !secrets) return GT_E_ARGUMENT;
    mp_item h = t->histogram[determined ? 1 : 0];
    if (i >= h.u || !gti_mp_index(h, i, &pair) || !gti_mp_index(pair, 0, &value) || !gti_mp_index(pair, 1, &count))
        return GT_E_ARGUMENT;
    *guesses = value.u;
    *secrets = count.u;
    return GT_OK;
}

gt_status gt_get_weighted_stats(const gt_tree *t, double *total_weight, double *weighted_total, double *weighted_mean)
{
    if (!t || !total_weight || !weighted_total || !weighted_mean || !t->has_weighted) return GT_E_ARGUMENT;
    *weighted_total = t->weighted[0];
    *weighted_mean = t->weighted[1];
    *total_weight = t->weighted[2];
    return GT_OK;
}

gt_status gt_get_alphabet(const gt_tree *t, gt_text *letters, gt_text *capitals)
{
    if (!t || !letters || !capitals || t->g.kind != GT_WORDS) return GT_E_ARGUMENT;
    *letters = t->g.alphabet;
    *capitals = t->g.capitals;
    return GT_OK;
}

gt_status gt_get_weight(const gt_tree *t, const int *secret, gt_text *weight)
{
    static const char ONE[] = "1";
    int code[GT_MAX_CODE];
    uint64_t index = 0;
    size_t at = 0; /* the weight of the secret in hand, in answer_weights */
    if (!t || !secret || !weight || !gti_game_is_secret(&t->g, secret)) return GT_E_ARGUMENT;
    weight->text = ONE, weight->length = 1;
    if (!t->g.weights.length) return GT_OK;
    for (int more = gti_game_first_secret(&t->g, code); more; more = gti_game_next_secret(&t->g, code, &index)) {
        size_t n = gti_weight_length(t->g.weights.text + at, t->g.weights.length - at);
        if (!memcmp(code, secret, t->g.length * sizeof *code)) {
            weight->text = t->g.weights.text + at, weight->length = n;
            break;
        }
        at += n + 1; /* and its space: a secret follows */
    }
    return GT_OK;
}

const char *gt_status_name(gt_status status)
{
    static const char *const opening[] = {"GT_E_IO", "GT_E_EMPTY", "GT_E_TOO_LARGE", "GT_E_FRAME", "GT_E_ZSTD_DAMAGED",
                                          "GT_E_MSGPACK", "GT_E_NOT_GUESSTREE", "GT_E_VERSION", "GT_E_BODY", "GT_E_GAME",
                                          "GT_E_PLUGIN", "GT_E_HEADER", "GT_E_TABLE", "GT_E_NODES", "GT_E_CHUNKS",
                                          "GT_E_CHUNK", "GT_E_NO_MEMORY"};
    static const char *const asking[] = {"GT_E_ARGUMENT", "GT_E_PARSE", "GT_E_OFF_TREE", "GT_E_NO_SECRET",
                                         "GT_E_ALREADY_WON", "GT_E_NOT_PLAYABLE", "GT_E_NOT_ALLOWED", "GT_E_SPACE"};
    if (status == GT_OK) return "GT_OK";
    if (status == GT_WON) return "GT_WON";
    if (status >= GT_E_IO && status <= GT_E_NO_MEMORY) return opening[status - GT_E_IO];
    if (status >= GT_E_ARGUMENT && status <= GT_E_SPACE) return asking[status - GT_E_ARGUMENT];
    return "GT_UNKNOWN";
}

gt_status gt_set_book(gt_tree *t, gt_tree *const *book, size_t count)
{
    if (!t || (count && !book)) return GT_E_ARGUMENT;
    for (size_t k = 0; k < count; k++)
        if (!book[k]) return GT_E_ARGUMENT;
    t->book = count ? book : NULL;
    t->book_count = count;
    return GT_OK;
}

const char *gt_version(void) { return GT_VERSION_STRING; }
