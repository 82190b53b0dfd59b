/* A words game's letters (player/words.py's alphabet, trees/FORMAT.md §2.1): UTF-8 read and
 * written, a letter's code (its index in the alphabet, which is in code point order), the carried
 * lists' words as codes, and the answers' weights as the decimal text the artifact holds.
 *
 * A carried list is its words' UTF-8 one space apart, sorted by code point: for valid UTF-8 that
 * is the order of their bytes, so that a word is found by bisecting the bytes and the lists are
 * read in place, with no copy (an a-z word is one byte a letter, as before alphabets). */
#include <string.h>
#include "internal.h"

/* The code point at s (n bytes left, n > 0) in strict UTF-8, as Python decodes it (no overlong
 * form, no surrogate, nothing past U+10FFFF): its bytes, or 0 where s holds none. */
size_t gti_utf8_next(const uint8_t *s, size_t n, uint32_t *c)
{
    uint8_t first = s[0], low = 0x80, high = 0xBF;
    size_t more;
    if (first < 0x80) { *c = first; return 1; }
    if (first >= 0xC2 && first <= 0xDF) more = 1;
    else if (first >= 0xE0 && first <= 0xEF) more = 2;
    else if (first >= 0xF0 && first <= 0xF4) more = 3;
    else return 0;
    if (n <= more) return 0;
    if (first == 0xE0) low = 0xA0;
    if (first == 0xED) high = 0x9F;
    if (first == 0xF0) low = 0x90;
    if (first == 0xF4) high = 0x8F;
    if (s[1] < low || s[1] > high) return 0;
    *c = first & (0x3Fu >> more);
    for (size_t k = 1; k <= more; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        *c = *c << 6 | (s[k] & 0x3Fu);
    }
    return more + 1;
}

/* c as UTF-8 into out (4 bytes at most): how many bytes */
size_t gti_utf8_put(uint32_t c, uint8_t *out)
{
    if (c < 0x80) { out[0] = (uint8_t)c; return 1; }
    if (c < 0x800) { out[0] = (uint8_t)(0xC0 | c >> 6); out[1] = (uint8_t)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | c >> 12);
        out[1] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | c >> 18);
    out[1] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
    out[2] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
    out[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* the letter c's code (the alphabet is in code point order: a bisection), or -1 */
int gti_letter_code(const game *g, uint32_t c)
{
    unsigned low = 0, high = g->symbols;
    while (low < high) {
        unsigned middle = low + (high - low) / 2;
        if (g->letter[middle] == c) return (int)middle;
        if (g->letter[middle] < c) low = middle + 1;
        else high = middle;
    }
    return -1;
}

/* the code of the letter c is the capital of, or of the letter c itself (a capital is never
 * another letter, so that a typed character names one letter at most), or -1 */
int gti_typed_code(const game *g, uint32_t c)
{
    int code = gti_letter_code(g, c);
    for (unsigned k = 0; code < 0 && k < g->symbols; k++)
        if (g->capital[k] == c) code = (int)k;
    return code;
}

/* the word at text (a carried list's, checked when the tree was opened) as codes: its bytes */
size_t gti_word_code(const game *g, const char *text, int *code)
{
    const uint8_t *at = (const uint8_t *)text;
    uint32_t c = 0;
    for (unsigned p = 0; p < g->length; p++) {
        at += gti_utf8_next(at, 4, &c); /* a checked list: every letter is whole */
        code[p] = gti_letter_code(g, c);
    }
    return (size_t)(at - (const uint8_t *)text);
}

/* the bytes of the word whose codes are code (every one a letter): at most GT_MAX_CODE * 4 */
size_t gti_word_bytes(const game *g, const int *code, uint8_t *out)
{
    size_t n = 0;
    for (unsigned p = 0; p < g->length; p++) n += gti_utf8_put(g->letter[code[p]], out + n);
    return n;
}

/* -- the answers' weights ------------------------------------------------------------------------ */
/* A weight is a positive decimal number as the artifact writes it (player/weights.py's
 * format_weight): digits, then optionally a point and digits (no sign, no exponent), in the fewest
 * digits that say it (no leading zero but the one before a point, no trailing zero after one: 3,
 * 0.25, never 03, 1.0 or 0.250). Its text is compared as the number it is, exactly: by its whole
 * part, then its fraction's digits. */

/* the length of the weight at text (up to a space or end): 0 if it is none */
size_t gti_weight_length(const char *text, size_t n)
{
    size_t k = 0, point = 0, nonzero = 0;
    for (; k < n && text[k] != ' '; k++) {
        if (text[k] == '.' && !point && k) { point = k; continue; }
        if (text[k] < '0' || text[k] > '9') return 0;
        nonzero |= text[k] != '0';
    }
    size_t whole = point ? point : k;
    if (!k || !nonzero || (whole > 1 && text[0] == '0')) return 0; /* none, zero, or a leading zero */
    if (point && (point + 1 == k || text[k - 1] == '0')) return 0;  /* no digit after the point, or a trailing zero */
    return k;
}

static void weight_parts(gt_text w, const char **whole, size_t *whole_n, const char **fraction, size_t *fraction_n)
{
    const char *point = memchr(w.text, '.', w.length);
    size_t end = point ? (size_t)(point - w.text) : w.length, start = 0;
    while (start < end && w.text[start] == '0') start++;
    *whole = w.text + start;
    *whole_n = end - start;
    *fraction = point ? point + 1 : w.text + w.length;
    *fraction_n = point ? w.length - end - 1 : 0;
    while (*fraction_n && (*fraction)[*fraction_n - 1] == '0') --*fraction_n;
}

/* <0, 0, >0 as the weight a is less than, equal to, more than b */
int gti_weight_compare(gt_text a, gt_text b)
{
    const char *aw, *af, *bw, *bf;
    size_t awn, afn, bwn, bfn;
    weight_parts(a, &aw, &awn, &af, &afn);
    weight_parts(b, &bw, &bwn, &bf, &bfn);
    if (awn != bwn) return awn < bwn ? -1 : 1;
    int order = memcmp(aw, bw, awn);
    if (order) return order;
    order = memcmp(af, bf, afn < bfn ? afn : bfn);
    if (order) return order;
    return afn < bfn ? -1 : afn > bfn;
}
