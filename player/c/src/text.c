/* The games' text forms, as player/pegs.py, twod.py and words.py parse and write them (ASCII: the
 * Python player's Unicode digits and spaces are not taken, the coloured squares of words are). */
#include <string.h>
#include "internal.h"

#define BIG 1000000000 /* a number typed larger than any count: it is only ever refused */

static const char *const PEG_NAMES[3][2] = {{"black", "white"}, {"strikes", "balls"}, {"bulls", "cows"}};

static void put(char *out, size_t size, size_t *n, const char *text);

static int is_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 32) : c; }

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* text without its leading and trailing spaces: [*start, *start + *length) */
static void strip(const char *text, const char **start, size_t *length)
{
    size_t n = strlen(text);
    while (n && is_space(*text)) { text++; n--; }
    while (n && is_space(text[n - 1])) n--;
    *start = text;
    *length = n;
}

/* text without any space or comma, in upper case, cut at size - 1 bytes (counted in *full) */
static void squeeze(const char *text, char *out, size_t size, size_t *full)
{
    size_t n = 0;
    for (; *text; text++) {
        if (is_space(*text) || *text == ',') continue;
        if (n + 1 < size) out[n] = upper(*text);
        n++;
    }
    out[n + 1 < size ? n : size - 1] = 0;
    *full = n;
}

static gt_status check_code(const game *g, const char *text, const int *code, size_t n, char *why, size_t size)
{
    if (n != g->length) {
        if (g->kind == GT_TWOD)  /* a point x,y: as player/twod.py's check_code says it */
            snprintf(why, size, "'%s' is not a point x,y: two numbers, x and y from 0 to %u", text, g->symbols - 1);
        else
            snprintf(why, size, "'%s' has %zu symbols; this game's codes have %u", text, n, g->length);
        return GT_E_PARSE;
    }
    for (size_t p = 0; p < n; p++)
        if (code[p] < 0 || code[p] >= (int)g->symbols) {
            if (g->kind == GT_TWOD)
                snprintf(why, size, "'%s' is off the grid: x and y from 0 to %u", text, g->symbols - 1);
            else
                snprintf(why, size, "'%s' has an unknown symbol %d", text, code[p]);
            return GT_E_PARSE;
        }
    return GT_OK;
}

static gt_status parse_mastermind(const game *g, const char *text, int *code, char *why, size_t size)
{
    char cleaned[64];
    size_t n, letters = 0, digits = 0;
    squeeze(text, cleaned, sizeof cleaned, &n);
    for (size_t k = 0; k < n && k < sizeof cleaned - 1; k++) {
        digits += is_digit(cleaned[k]);
        letters += cleaned[k] >= 'A' && cleaned[k] <= 'Z';
    }
    int as_digits = n && digits == n && g->colours <= 9;
    if (n >= sizeof cleaned || !(as_digits || (n && letters == n))) {
        char more[32] = "";
        if (g->colours <= 9) snprintf(more, sizeof more, " or digits 1-%d", g->colours);
        snprintf(why, size, "'%s' is not a code: write %d letters A-%c%s", text, g->holes, 'A' + g->colours - 1, more);
        return GT_E_PARSE;
    }
    if (n != g->length) {
        snprintf(why, size, "'%s' has %zu colours; this game has %d holes", text, n, g->holes);
        return GT_E_PARSE;
    }
    for (size_t p = 0; p < n; p++) {
        code[p] = as_digits ? cleaned[p] - '1' : cleaned[p] - 'A';
        if (code[p] < 0 || code[p] >= g->colours) {
            snprintf(why, size, "'%s' uses a colour outside A-%c", text, 'A' + g->colours - 1);
            return GT_E_PARSE;
        }
    }
    return GT_OK;
}

static gt_status parse_digits(const game *g, const char *text, int *code, char *why, size_t size)
{
    char cleaned[64];
    size_t n, digits = 0;
    squeeze(text, cleaned, sizeof cleaned, &n);
    for (size_t k = 0; k < n && k < sizeof cleaned - 1; k++) digits += is_digit(cleaned[k]);
    if (!n || n >= sizeof cleaned || digits != n) {
        snprintf(why, size, "'%s' is not a code: write %u digits", text, g->length);
        return GT_E_PARSE;
    }
    int values[64];
    for (size_t p = 0; p < n; p++) values[p] = cleaned[p] - '0';
    gt_status status = check_code(g, text, values, n, why, size);
    if (status != GT_OK) return status;
    memcpy(code, values, n * sizeof *code);
    if (g->kind == GT_BULLS_COWS && !gti_game_is_guess(g, code)) {
        snprintf(why, size, "'%s' repeats a digit; bulls-and-cows codes have distinct digits", text);
        return GT_E_PARSE;
    }
    return GT_OK;
}

/* an int as Python's int() reads a token: a sign, then digits (at most BIG) */
static int token_int(const char *t, size_t n, int *value)
{
    int sign = 1;
    long long v = 0;
    if (n && (*t == '+' || *t == '-')) { sign = *t == '-' ? -1 : 1; t++; n--; }
    if (!n) return 0;
    for (size_t k = 0; k < n; k++) {
        if (!is_digit(t[k])) return 0;
        v = v * 10 + (t[k] - '0');
        if (v > BIG) v = BIG;
    }
    *value = (int)(sign * v);
    return 1;
}

/* Game.parse_code (twod): numbers split by spaces or commas, or one digit a number */
static gt_status parse_numbers(const game *g, const char *text, int *code, char *why, size_t size)
{
    const char *s;
    size_t n, count = 0;
    int values[64], split = 0;
    strip(text, &s, &n);
    for (size_t k = 0; k < n; k++) split |= is_space(s[k]) || s[k] == ',';
    for (size_t k = 0; k < n;) {
        size_t end = k + 1;
        if (split) {
            end = k;
            while (end < n && !is_space(s[end]) && s[end] != ',') end++;
        }
        if (end > k && (count >= 64 || !token_int(s + k, end - k, &values[count++]))) {
            snprintf(why, size, "'%s' is not a code: expected %u numbers", text, g->length);
            return GT_E_PARSE;
        }
        k = end + (split ? 1 : 0);
    }
    gt_status status = check_code(g, text, values, count, why, size);
    if (status == GT_OK) memcpy(code, values, count * sizeof *code);
    return status;
}

static void repr(const char *text, char *out, size_t size);

/* a words game of the letters a-z, whose messages are the players' of before alphabets */
static int a_to_z(const game *g)
{
    return g->symbols == 26 && g->alphabet.length == 26 && !memcmp(g->alphabet.text, "abcdefghijklmnopqrstuvwxyz", 26);
}

/* Python's repr() escapes these (str.isprintable() is false): the C1 controls, and the spaces and
 * format characters of Latin-1 and General Punctuation */
static int unprintable(uint32_t c)
{
    return (c >= 0x80 && c <= 0xa0) || c == 0xad || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f)
        || (c >= 0x205f && c <= 0x206f) || c == 0x3000 || c == 0xfeff;
}

/* a character as player/letters.py's named() shows it: '-' (U+002D HYPHEN-MINUS). The C player
 * knows the names of ASCII alone (it carries no Unicode tables): another character is shown by its
 * code point alone, 'ы' (U+044B) */
static void named(uint32_t c, const char *bytes, size_t n, char *out, size_t size)
{
    static const char PUNCTUATION[] = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
    static const char *const NAMES[] = {"SPACE", "EXCLAMATION MARK", "QUOTATION MARK", "NUMBER SIGN", "DOLLAR SIGN",
        "PERCENT SIGN", "AMPERSAND", "APOSTROPHE", "LEFT PARENTHESIS", "RIGHT PARENTHESIS", "ASTERISK", "PLUS SIGN",
        "COMMA", "HYPHEN-MINUS", "FULL STOP", "SOLIDUS", "COLON", "SEMICOLON", "LESS-THAN SIGN", "EQUALS SIGN",
        "GREATER-THAN SIGN", "QUESTION MARK", "COMMERCIAL AT", "LEFT SQUARE BRACKET", "REVERSE SOLIDUS",
        "RIGHT SQUARE BRACKET", "CIRCUMFLEX ACCENT", "LOW LINE", "GRAVE ACCENT", "LEFT CURLY BRACKET", "VERTICAL LINE",
        "RIGHT CURLY BRACKET", "TILDE"};
    static const char *const DIGITS[] = {"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"};
    char one[8], shown[16], name[40] = "";
    const char *punctuation = c && c < 0x80 ? strchr(PUNCTUATION, (int)c) : NULL;
    memcpy(one, bytes, n);
    one[n] = 0;
    repr(one, shown, sizeof shown);
    if (c >= '0' && c <= '9') snprintf(name, sizeof name, " DIGIT %s", DIGITS[c - '0']);
    else if (c >= 'A' && c <= 'Z') snprintf(name, sizeof name, " LATIN CAPITAL LETTER %c", (char)c);
    else if (c >= 'a' && c <= 'z') snprintf(name, sizeof name, " LATIN SMALL LETTER %c", (char)(c - 32));
    else if (punctuation) snprintf(name, sizeof name, " %s", NAMES[punctuation - PUNCTUATION]);
    else if (c < 0x20 || c == 0x7f) snprintf(name, sizeof name, " unnamed");
    snprintf(out, size, "%s (U+%04X%s)", shown, (unsigned)c, name);
}

/* the message for a character of a typed word (c, its bytes at at) that is no letter of the game,
 * as player/letters.py's Alphabet.read says it: the game's letters, one space apart */
static void not_a_letter(const game *g, const char *text, uint32_t c, const char *at, size_t bytes, char *why, size_t size)
{
    char shown[80];
    size_t n;
    named(c, at, bytes, shown, sizeof shown);
    n = (size_t)snprintf(why, size, "'%s' is not a word: %s is not one of this game's letters (", text, shown);
    for (unsigned k = 0; k < g->symbols && n < size; k++) {
        char letter[8];
        letter[gti_utf8_put(g->letter[k], (uint8_t *)letter)] = 0;
        if (n + 1 + strlen(letter) + sizeof " ...)" > size) { /* too many to say in full: the first ones */
            snprintf(why + n, size - n, " ...");
            n += 4;
            break;
        }
        n += (size_t)snprintf(why + n, size - n, k ? " %s" : "%s", letter);
    }
    if (n < size) snprintf(why + n, size - n, ")");
}

/* Game.parse_code (words): the text without its spaces around, each character a letter of the
 * alphabet or its capital. The text is taken as UTF-8 as given: NFC, as every common keyboard
 * types it (the C player has no Unicode tables to normalise it; the Python and JavaScript players do) */
static gt_status parse_word(const game *g, const char *text, int *code, char *why, size_t size)
{
    const char *s;
    size_t n, count = 0;
    int values[64];
    strip(text, &s, &n);
    for (size_t k = 0; k < n; count++) {
        uint32_t c = 0;
        size_t bytes = gti_utf8_next((const uint8_t *)s + k, n - k, &c);
        int letter = bytes ? gti_typed_code(g, c) : -1;
        if (letter < 0) {
            if (a_to_z(g)) snprintf(why, size, "'%s' is not a word: use the letters a-z", text); /* as ever */
            else if (!bytes) snprintf(why, size, "'%s' is not a word: it is not UTF-8 text", text);
            else not_a_letter(g, text, c, s + k, bytes, why, size);
            return GT_E_PARSE;
        }
        if (count < 64) values[count] = letter;
        k += bytes;
    }
    if (!n) {
        snprintf(why, size, a_to_z(g) ? "'%s' is not a word: use the letters a-z" : "'%s' is not a word: no letters", text);
        return GT_E_PARSE;
    }
    gt_status status = check_code(g, text, values, count, why, size); /* count > 64 is no code's length */
    if (status == GT_OK) memcpy(code, values, count * sizeof *code);
    return status;
}

/* text as Python's repr() writes a str: quoted (in double quotes if it holds a ' and no "), with
 * backslashes, the quote, ASCII's control characters and the unprintable characters above escaped;
 * other characters as they are. A byte that is not UTF-8 (which a Python str never holds) is
 * written \xNN too, so that a message is always UTF-8. */
static void repr(const char *text, char *out, size_t size)
{
    char quote = strchr(text, '\'') && !strchr(text, '"') ? '"' : '\'';
    size_t n = 0;
    char one[8];
    snprintf(one, sizeof one, "%c", quote);
    put(out, size, &n, one);
    const unsigned char *end = (const unsigned char *)text + strlen(text);
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        uint32_t code = 0;
        size_t bytes = *c < 0x80 ? 1 : gti_utf8_next(c, (size_t)(end - c), &code);
        if (*c == '\\' || *c == (unsigned char)quote) snprintf(one, sizeof one, "\\%c", *c);
        else if (*c == '\t' || *c == '\n' || *c == '\r') snprintf(one, sizeof one, "\\%c", *c == '\t' ? 't' : *c == '\n' ? 'n' : 'r');
        else if (*c < 0x20 || *c == 0x7f || !bytes) snprintf(one, sizeof one, "\\x%02x", *c);
        else if (*c >= 0x80 && unprintable(code)) snprintf(one, sizeof one, code < 0x100 ? "\\x%02x" : "\\u%04x", (unsigned)code);
        else memcpy(one, c, bytes), one[bytes] = 0;
        if (bytes > 1) c += bytes - 1;
        put(out, size, &n, one);
    }
    snprintf(one, sizeof one, "%c", quote);
    put(out, size, &n, one);
}

/* the message's text, written first as '%s', as repr() writes it */
static gt_status shown_as_python(gt_status status, const char *text, char *why, size_t size)
{
    char rest[400], shown[200];
    size_t n = strlen(text);
    if (status == GT_OK || strncmp(why, "'", 1) || strncmp(why + 1, text, n) || why[n + 1] != '\'') return status;
    snprintf(rest, sizeof rest, "%s", why + n + 2);
    repr(text, shown, sizeof shown);
    snprintf(why, size, "%s%s", shown, rest);
    return status;
}

gt_status gti_game_parse_code(const game *g, const char *text, int *code, char *why, size_t size)
{
    gt_status status;
    switch (g->kind) {
    case GT_MASTERMIND: status = parse_mastermind(g, text, code, why, size); break;
    case GT_DIGITS: case GT_BULLS_COWS: status = parse_digits(g, text, code, why, size); break;
    case GT_TWOD: status = parse_numbers(g, text, code, why, size); break;
    default: status = parse_word(g, text, code, why, size); break;
    }
    return shown_as_python(status, text, why, size);
}

/* digits at *at: their value (at most BIG); 0 if none */
static int read_count(const char *s, size_t n, size_t *at, int *value)
{
    long long v = 0;
    size_t start = *at;
    while (*at < n && is_digit(s[*at])) {
        v = v * 10 + (s[*at] - '0');
        if (v > BIG) v = BIG;
        ++*at;
    }
    *value = (int)v;
    return *at > start;
}

static void skip_spaces(const char *s, size_t n, size_t *at)
{
    while (*at < n && is_space(s[*at])) ++*at;
}

/* (\d+)\s*[\s,/-]\s*(\d+) or (\d)(\d) */
static int peg_numbers(const char *s, size_t n, int *f)
{
    size_t at = 0, marks = 0;
    if (n == 2 && is_digit(s[0]) && is_digit(s[1])) { f[0] = s[0] - '0'; f[1] = s[1] - '0'; return 1; }
    if (!read_count(s, n, &at, &f[0])) return 0;
    size_t middle = at;
    while (at < n && (is_space(s[at]) || s[at] == ',' || s[at] == '/' || s[at] == '-')) marks += !is_space(s[at++]);
    if (at == middle || marks > 1) return 0;
    return read_count(s, n, &at, &f[1]) && at == n;
}

/* (?:(\d+)\s*F)?\s*(?:(\d+)\s*S)?, F and S the game's letters */
static int peg_counted(const char *s, size_t n, const char *letters, int *f)
{
    size_t at = 0, back;
    f[0] = f[1] = 0;
    for (int part = 0; part < 2; part++) {
        back = at;
        int value;
        if (read_count(s, n, &at, &value)) {
            skip_spaces(s, n, &at);
            if (at < n && s[at] == letters[part]) { f[part] = value; at++; }
            else at = back;
        }
        if (part == 0) skip_spaces(s, n, &at);
    }
    return n && at == n;
}

static gt_status parse_pegs(const game *g, const char *text, int *f, char *why, size_t size)
{
    char s[64];
    size_t n;
    const char *start;
    strip(text, &start, &n);
    int kind = g->kind == GT_MASTERMIND ? 0 : g->kind == GT_DIGITS ? 1 : 2;
    int ok = n < sizeof s;
    if (ok) {
        for (size_t k = 0; k < n; k++) s[k] = upper(start[k]);
        s[n] = 0;
    }
    size_t letters = 0;
    for (size_t k = 0; ok && k < n; k++) letters += s[k] == g->letters[0] || s[k] == g->letters[1];
    if (ok && (peg_numbers(s, n, f) || peg_counted(s, n, g->letters, f))) ok = 1;
    else if (ok && n && letters == n) {
        f[0] = f[1] = 0;
        for (size_t k = 0; k < n; k++) f[s[k] == g->letters[1]]++;
    } else if (ok && (strcmp(s, "-") == 0 || strcmp(s, "0") == 0 || strcmp(s, "NONE") == 0)) f[0] = f[1] = 0;
    else ok = 0;
    if (!ok) {
        snprintf(why, size, "'%s' is not feedback for %s: write e.g. '2%c1%c' or '2 1'", text, g->name,
                 g->letters[0], g->letters[1]);
        return GT_E_PARSE;
    }
    int length = (int)g->length;
    if (f[0] + f[1] > length) {
        snprintf(why, size, "'%s' is impossible: %d %s + %d %s exceed %d positions", text, f[0], PEG_NAMES[kind][0],
                 f[1], PEG_NAMES[kind][1], length);
        return GT_E_PARSE;
    }
    if (f[0] == length - 1 && f[1] == 1) {
        snprintf(why, size, "'%s' is impossible: with %d %s the last symbol cannot be misplaced", text, length - 1,
                 PEG_NAMES[kind][0]);
        return GT_E_PARSE;
    }
    return GT_OK;
}

static gt_status cannot_occur(const game *g, const char *text, const int *f, char *why, size_t size);

/* player/rules.py's _counts: size (1 or 2) counts as numbers (2 1, 21), counted letters (2G1Y), the
 * letters themselves (GGY) or none (-, 0, NONE), in the game's letters */
static int rule_counts(const char *text, const char *letters, int size, int *f)
{
    char s[64];
    size_t n, at = 0, lettered = 0;
    const char *start;
    strip(text, &start, &n);
    if (n >= sizeof s) return 0;
    for (size_t k = 0; k < n; k++) s[k] = upper(start[k]);
    s[n] = 0;
    f[0] = f[1] = 0;
    if (size == 2 && (peg_numbers(s, n, f) || peg_counted(s, n, letters, f))) return 1;
    if (size == 1 && read_count(s, n, &at, &f[0])) {
        if (at == n) return 1;
        skip_spaces(s, n, &at);
        if (at + 1 == n && s[at] == letters[0]) return 1;
    }
    for (size_t k = 0; k < n; k++) lettered += s[k] == letters[0] || (size == 2 && s[k] == letters[1]);
    if (n && lettered == n) {
        f[0] = f[1] = 0;
        for (size_t k = 0; k < n; k++) f[s[k] == letters[1] && size == 2]++;
        return 1;
    }
    f[0] = f[1] = 0;
    return strcmp(s, "-") == 0 || strcmp(s, "0") == 0 || strcmp(s, "NONE") == 0;
}

/* feedback under a rule (player/rules.py's Rule.parse), then checked as Game.check_feedback does */
static gt_status parse_rule(const game *g, const char *text, int *f, char *why, size_t size)
{
    const char *s;
    size_t n, digits = 0;
    strip(text, &s, &n);
    if (g->rule == GT_RULE_COMMON) {
        char word[4] = {0};
        for (size_t k = 0; k < n && k < 3; k++) word[k] = upper(s[k]);
        for (size_t k = 0; k < n; k++) digits += is_digit(s[k]);
        if (n <= 3 && (!strcmp(word, "WIN") || !strcmp(word, "WON") || !strcmp(word, "="))) { f[0] = (int)g->length; f[1] = 1; }
        else if (n && digits == n) { size_t at = 0; read_count(s, n, &at, &f[0]); f[1] = 0; }
        else {
            snprintf(why, size, "'%s' is not feedback of letters in common: write how many letters the guess shares with "
                     "the word, e.g. '2', or 'WIN' when it is the word", text);
            return GT_E_PARSE;
        }
    } else if (!rule_counts(text, g->letters, g->rule == GT_RULE_BLACK ? 1 : 2, f)) {
        if (g->rule == GT_RULE_BLACK)
            snprintf(why, size, "'%s' is not feedback with black pegs only: write the pegs right in place, e.g. '2%c' or '2'",
                     text, g->letters[0]);
        else
            snprintf(why, size, "'%s' is not counts-only feedback: write the letters in place and those elsewhere, e.g. "
                     "'1%c2%c' or '1 2'", text, g->letters[0], g->letters[1]);
        return GT_E_PARSE;
    }
    return cannot_occur(g, text, f, why, size);
}

static gt_status cannot_occur(const game *g, const char *text, const int *f, char *why, size_t size)
{
    uint32_t key;
    if (gti_game_feedback_key(g, f, &key)) return GT_OK;
    snprintf(why, size, "'%s' is feedback that cannot occur in %s", text, g->name);
    return GT_E_PARSE;
}

static gt_status parse_pair(const game *g, const char *text, int *f, char *why, size_t size)
{
    static const char *const words[] = {"<=", ">=", "none", "==", "le", "ge", "no", "neither", "eq", "=", "win"};
    static const int values[][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {1, 1, 1}, {1, 0, 0}, {0, 1, 0},
                                    {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    const char *s;
    size_t n, digits = 0;
    char lower_text[16];
    strip(text, &s, &n);
    for (size_t k = 0; k < n && k < sizeof lower_text - 1; k++) lower_text[k] = lower(s[k]);
    lower_text[n < sizeof lower_text ? n : sizeof lower_text - 1] = 0;
    for (size_t w = 0; n < sizeof lower_text && w < sizeof words / sizeof *words; w++)
        if (strcmp(lower_text, words[w]) == 0) { memcpy(f, values[w], sizeof values[w]); return GT_OK; }
    for (size_t k = 0; k < n; k++) {
        if (is_space(s[k]) || s[k] == ',') continue;
        if ((s[k] != '0' && s[k] != '1') || digits == 3) { digits = 4; break; }
        f[digits++] = s[k] - '0';
    }
    if (digits == 3) return cannot_occur(g, text, f, why, size);
    snprintf(why, size, "'%s' is not twod feedback: write <=, >=, none or == (or 100, 010, 000, 111)", text);
    return GT_E_PARSE;
}

/* one mark of a word's feedback at s (its UTF-8 bytes: the coloured squares are a mark too) */
static int word_mark(const unsigned char *s, size_t *bytes)
{
    static const char *const squares[] = {"\xF0\x9F\x9F\xA9", "\xF0\x9F\x9F\xA8", "\xE2\xAC\x9B", "\xE2\xAC\x9C"};
    static const int square_marks[] = {2, 1, 0, 0};
    static const char letters[] = "gyb-.x012"; /* player/words.py's LETTERS, and the digits themselves; never W */
    static const int letter_marks[] = {2, 1, 0, 0, 0, 0, 0, 1, 2};
    for (int k = 0; k < 4; k++)
        if (strncmp((const char *)s, squares[k], strlen(squares[k])) == 0) {
            *bytes = strlen(squares[k]);
            return square_marks[k];
        }
    *bytes = 1;
    if (*s >= 0x80) { /* another character: one mark that is no mark */
        while ((s[*bytes] & 0xC0) == 0x80) ++*bytes;
        return -1;
    }
    char c = lower((char)*s);
    const char *found = c ? strchr(letters, c) : NULL;
    return found ? letter_marks[found - letters] : -1;
}

static gt_status parse_marks(const game *g, const char *text, int *f, char *why, size_t size)
{
    size_t count = 0, bytes;
    int ok = 1;
    for (const unsigned char *s = (const unsigned char *)text; *s; s += bytes) {
        bytes = 1;
        if (is_space((char)*s)) continue;
        int mark = word_mark(s, &bytes);
        if (mark < 0 || count >= g->length) ok = 0;
        else f[count] = mark;
        count++;
    }
    if (strchr(text, 'w') || strchr(text, 'W')) { /* W: present in Mastermind, no mark of word games */
        snprintf(why, size, "'%s': W is no mark of word games (in Mastermind it means present); write Y for present, "
                 "- for absent", text);
        return GT_E_PARSE;
    }
    if (ok && count == g->length) return cannot_occur(g, text, f, why, size);
    char example[16];
    memset(example, '-', sizeof example);
    example[g->length > 3 ? g->length - 3 : 0] = 0;
    snprintf(why, size, "'%s' is not feedback for %u-letter words: write %u marks, G (exact), Y (present) or - "
             "(absent; also B, X or .), e.g. 'GY-%s', or 2/1/0, or the coloured squares", text, g->length, g->length,
             example);
    return GT_E_PARSE;
}

gt_status gti_game_parse_feedback(const game *g, const char *text, int *f, char *why, size_t size)
{
    gt_status status;
    if (g->rule) return shown_as_python(parse_rule(g, text, f, why, size), text, why, size);
    switch (g->kind) {
    case GT_TWOD: status = parse_pair(g, text, f, why, size); break;
    case GT_WORDS: status = parse_marks(g, text, f, why, size); break;
    default: status = parse_pegs(g, text, f, why, size); break;
    }
    return shown_as_python(status, text, why, size);
}

/* append text to out (size bytes), counting all of it as snprintf does; cut short, out ends at a
 * whole character */
static void put(char *out, size_t size, size_t *n, const char *text)
{
    for (; *text; text++, ++*n)
        if (*n + 1 < size) out[*n] = *text;
    if (size) out[*n < size ? *n : size - 1] = 0;
    if (size && *n >= size) gti_whole_characters(out);
}

/* a word's letter as it is shown: its capital in UTF-8 (one has room for 5 bytes), or ? for no
 * letter of the game */
static void shown_letter(const game *g, int code, char *one)
{
    size_t n = code >= 0 && code < (int)g->symbols ? gti_utf8_put(g->capital[code], (uint8_t *)one) : 0;
    if (!n) one[n++] = '?';
    one[n] = 0;
}

size_t gti_game_format_code(const game *g, const int *code, char *text, size_t size)
{
    size_t n = 0;
    char one[16];
    if (size) text[0] = 0;
    for (unsigned p = 0; p < g->length; p++) {
        if (g->kind == GT_WORDS) shown_letter(g, code[p], one);
        else if (g->kind == GT_MASTERMIND)
            snprintf(one, sizeof one, "%c", code[p] >= 0 && code[p] < 26 ? 'A' + code[p] : '?');
        else if (g->kind == GT_TWOD || g->symbols > 10) snprintf(one, sizeof one, p ? ",%d" : "%d", code[p]);
        else snprintf(one, sizeof one, "%d", code[p]);
        put(text, size, &n, one);
    }
    return n;
}

size_t gti_game_format_feedback(const game *g, const int *f, char *text, size_t size)
{
    size_t n = 0;
    char one[48];
    if (size) text[0] = 0;
    if (g->rule) { /* player/rules.py's Rule.format */
        if (g->rule == GT_RULE_BLACK) snprintf(one, sizeof one, "%d%c", f[0], g->letters[0]);
        else if (g->rule == GT_RULE_COUNTS) snprintf(one, sizeof one, "%d%c%d%c", f[0], g->letters[0], f[1], g->letters[1]);
        else if (f[1]) snprintf(one, sizeof one, "WIN");
        else snprintf(one, sizeof one, "%d", f[0]);
        put(text, size, &n, one);
        return n;
    }
    if (g->kind == GT_TWOD) {
        static const char *const words[8] = {"none", "?", ">=", "?", "<=", "?", "?", "=="};
        uint32_t key;
        put(text, size, &n, gti_game_feedback_key(g, f, &key) ? words[key] : "?");
        return n;
    }
    if (g->kind == GT_WORDS) {
        for (unsigned p = 0; p < g->length; p++) put(text, size, &n, f[p] == 2 ? "G" : f[p] == 1 ? "Y" : "-");
        return n;
    }
    snprintf(one, sizeof one, "%d%c%d%c", f[0], g->letters[0], f[1], g->letters[1]);
    put(text, size, &n, one);
    return n;
}
