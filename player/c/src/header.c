/* The header's game, strategy, statistics, producer, notice and allowed_guesses, checked as
 * player/tree.py and player/stats.py check them. */
#include <math.h>
#include <string.h>
#include "internal.h"

static const char *const STAT_COUNTS[5] = {"secrets", "total", "worst", "determined_total", "determined_worst"};
static const char *const STAT_AVERAGES[2] = {"average", "determined_average"};
static const char *const STAT_HISTOGRAMS[2] = {"histogram", "determined_histogram"};
static const char *const STAT_WEIGHTED[3] = {"weighted_total", "weighted_mean", "total_weight"}; /* a weighted game's (1.3) */

static gt_status read_strategy(gt_tree *t, mp_item document, gt_error *e)
{
    static const char *const texts[] = {"name", "candidates"}, *const ints[] = {"seed", "guess_sample", "secret_sample"};
    mp_item s, name;
    int ok = gti_mp_get(document, "strategy", &s) && s.type == MP_MAP && gti_mp_get(s, "name", &name) && name.type == MP_STR;
    const uint8_t *at = ok ? s.at : NULL;
    for (uint64_t k = 0; ok && k < s.u; k++) {
        mp_item key, value;
        gti_mp_read(&at, s.end, &key);
        gti_mp_read(&at, s.end, &value); /* a scalar is one item: anything else fails below */
        ok = key.type == MP_STR && gti_mp_is_scalar(&value);
        for (size_t j = 0; ok && j < 2; j++) ok = !gti_mp_is_str(&key, texts[j]) || value.type == MP_STR;
        for (size_t j = 0; ok && j < 3; j++) ok = !gti_mp_is_str(&key, ints[j]) || gti_mp_is_int(&value);
    }
    if (!ok) return gti_fail_file(e, t, GT_E_HEADER, "the header's strategy is not a map of names to plain values");
    t->strategy_name.text = (const char *)name.at;
    t->strategy_name.length = (size_t)name.u;
    return GT_OK;
}

static int histogram_ok(mp_item pairs)
{
    const uint8_t *at = pairs.at;
    uint64_t previous = 0;
    if (pairs.type != MP_ARRAY) return 0;
    for (uint64_t k = 0; k < pairs.u; k++) {
        mp_item pair, guesses, secrets;
        if (!gti_mp_read(&at, pairs.end, &pair) || pair.type != MP_ARRAY || pair.u != 2) return 0;
        if (!gti_mp_read(&at, pairs.end, &guesses) || !gti_mp_read(&at, pairs.end, &secrets)) return 0;
        if (guesses.type != MP_UINT || secrets.type != MP_UINT) return 0;
        if (k && guesses.u <= previous) return -1;
        previous = guesses.u;
    }
    return 1;
}

static gt_status read_stats(gt_tree *t, mp_item document, gt_error *e)
{
    mp_item stats, v;
    int complete = gti_mp_get(document, "stats", &stats) && stats.type == MP_MAP;
    for (size_t k = 0; complete && k < 9; k++)
        complete = gti_mp_get(stats, k < 5 ? STAT_COUNTS[k] : k < 7 ? STAT_AVERAGES[k - 5] : STAT_HISTOGRAMS[k - 7], &v);
    if (!complete) return gti_fail_file(e, t, GT_E_HEADER, "the header's statistics are missing or incomplete");
    for (size_t k = 0; k < 5; k++) {
        gti_mp_get(stats, STAT_COUNTS[k], &v);
        if (v.type != MP_UINT) return gti_fail_file(e, t, GT_E_HEADER, "the statistic '%s' is not a whole number", STAT_COUNTS[k]);
        t->stat[k] = v.u;
    }
    for (size_t k = 0; k < 2; k++) {
        gti_mp_get(stats, STAT_AVERAGES[k], &v);
        double value = v.type == MP_UINT ? (double)v.u : v.type == MP_FLOAT ? v.f : -1.0;
        if (!(isfinite(value) && value >= 0)) return gti_fail_file(e, t, GT_E_HEADER, "the statistic '%s' is not a number", STAT_AVERAGES[k]);
        t->average[k] = value;
    }
    for (size_t k = 0; k < 3; k++) { /* all three, or none */
        int present = gti_mp_get(stats, STAT_WEIGHTED[k], &v);
        double value = !present ? 0.0 : v.type == MP_UINT ? (double)v.u : v.type == MP_FLOAT ? v.f : -1.0;
        if (k && present != t->has_weighted)
            return gti_fail_file(e, t, GT_E_HEADER, "the header's statistics have some of %s, %s and %s, not all",
                                 STAT_WEIGHTED[0], STAT_WEIGHTED[1], STAT_WEIGHTED[2]);
        if (present && !(isfinite(value) && value > 0))
            return gti_fail_file(e, t, GT_E_HEADER, "the statistic '%s' is not a positive number", STAT_WEIGHTED[k]);
        t->has_weighted = present;
        t->weighted[k] = value;
    }
    for (size_t k = 0; k < 2; k++) {
        gti_mp_get(stats, STAT_HISTOGRAMS[k], &t->histogram[k]);
        int ok = histogram_ok(t->histogram[k]);
        if (ok <= 0)
            return gti_fail_file(e, t, GT_E_HEADER, ok ? "the statistic '%s' is not in increasing order of guesses"
                                                   : "the statistic '%s' is not a list of [guesses, secrets] pairs", STAT_HISTOGRAMS[k]);
    }
    return GT_OK;
}

/* Python's str.isspace() for one code point */
static int unicode_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

/* a valid UTF-8 text that is not all spaces */
static int blank(const uint8_t *s, uint64_t n)
{
    for (uint64_t k = 0; k < n;) {
        uint32_t c = s[k];
        unsigned more = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
        if (more) c &= 0x3F >> more;
        for (unsigned j = 1; j <= more && k + j < n; j++) c = c << 6 | (s[k + j] & 0x3F);
        if (!unicode_space(c)) return 0;
        k += more + 1;
    }
    return 1;
}

static gt_status read_extras(gt_tree *t, mp_item document, gt_error *e)
{
    mp_item v;
    if (!gti_mp_get(document, "producer", &v) || v.type != MP_STR)
        return gti_fail_file(e, t, GT_E_HEADER, "the header's producer is not a string");
    t->producer.text = (const char *)v.at;
    t->producer.length = (size_t)v.u;
    if (gti_mp_get(document, "notice", &v) && v.type != MP_NIL) {
        if (v.type != MP_STR || blank(v.at, v.u) || v.u > GT_MAX_NOTICE_BYTES)
            return gti_fail_file(e, t, GT_E_HEADER, "the header's notice is not a text of at most %u bytes", GT_MAX_NOTICE_BYTES);
        t->notice.text = (const char *)v.at;
        t->notice.length = (size_t)v.u;
    }
    if (gti_mp_get(document, "allowed_guesses", &v) && v.type != MP_NIL) {
        if (v.type != MP_UINT || v.u < 1 || v.u > 0xFFFFFFFFu)
            return gti_fail_file(e, t, GT_E_HEADER, "the header's allowed_guesses is not a count of guesses");
        t->allowed_guesses = v.u;
    }
    return GT_OK;
}

gt_status gti_header_read(gt_tree *t, mp_item document, gt_error *e)
{
    mp_item spec;
    char why[300];
    if (!gti_mp_get(document, "game", &spec)) spec.type = MP_NIL;
    gt_status status = gti_game_from_spec(&t->g, spec, why, sizeof why);
    if (status != GT_OK) return gti_fail_file(e, t, status, "%s", why);
    if ((status = read_strategy(t, document, e)) != GT_OK) return status;
    if ((status = read_stats(t, document, e)) != GT_OK) return status;
    return read_extras(t, document, e);
}
