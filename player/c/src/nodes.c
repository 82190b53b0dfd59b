/* What a whole body (body.c) and a chunked one (chunks.c) share, as player/body.py has it: the
 * feedback table, and the checks of a piece of consecutive nodes and their edges. */
#include <string.h>
#include "internal.h"

uint32_t gti_le(const uint8_t *p, unsigned width)
{
    uint32_t v = 0;
    for (unsigned b = width; b-- > 0;) v = v << 8 | p[b];
    return v;
}

uint32_t gti_edge_feedback_at(const gt_tree *t, const piece *p, uint64_t edge)
{
    return t->width == 1 ? p->edge_feedback[edge] : gti_le(p->edge_feedback + 2 * edge, 2);
}

int64_t gti_child_of(const gt_tree *t, const piece *p, uint64_t node, uint32_t index)
{
    uint64_t local = node - p->base, shift = p->first[0];
    for (uint64_t e = p->first[local]; e < p->first[local + 1]; e++)
        if (gti_edge_feedback_at(t, p, e - shift) == index) return (int64_t)e + 1;
    return -1;
}

/* a feedback of the table: an array of the game's feedback ints */
static int table_entry(const game *g, const uint8_t **at, const uint8_t *end, uint32_t *key)
{
    mp_item item, x;
    int f[GT_MAX_FEEDBACK];
    int ok = gti_mp_read(at, end, &item) && item.type == MP_ARRAY;
    int64_t value;
    for (uint64_t k = 0; ok && k < item.u; k++) {
        ok = gti_mp_read(at, end, &x) && gti_mp_is_int(&x);
        if (ok && k < g->feedback_length) f[k] = gti_mp_int_in(&x, -1000, 1000, &value) ? (int)value : -1;
    }
    return ok && item.u == g->feedback_length && gti_game_feedback_key(g, f, key);
}

static gt_status read_feedbacks(gt_tree *t, mp_item table, gt_error *e)
{
    const game *g = &t->g;
    const uint8_t *at = table.at;
    uint32_t key, win;
    int w[GT_MAX_FEEDBACK];
    if (table.type != MP_ARRAY || table.u == 0) return gti_fail_file(e, t, GT_E_TABLE, "the feedback table is missing");
    for (uint64_t k = 0; k < table.u; k++)
        if (!table_entry(g, &at, table.end, &key))
            return gti_fail_file(e, t, GT_E_TABLE, "the feedback table holds entry %llu, which this game never gives", (unsigned long long)k);
    t->key_space = gti_game_feedback_keys(g);
    if (table.u > t->key_space) return gti_fail_file(e, t, GT_E_TABLE, "the feedback table repeats a value");
    t->feedbacks = (uint32_t)table.u;
    t->key_index = gti_tree_alloc(t, t->key_space * sizeof *t->key_index);
    t->table_key = gti_tree_alloc(t, t->feedbacks * sizeof *t->table_key);
    if (!t->key_index || !t->table_key) return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for the feedback table");
    memset(t->key_index, 0, t->key_space * sizeof *t->key_index);
    at = table.at;
    for (uint32_t k = 0; k < t->feedbacks; k++) {
        table_entry(g, &at, table.end, &key);
        if (t->key_index[key]) return gti_fail_file(e, t, GT_E_TABLE, "the feedback table repeats a value");
        t->key_index[key] = (uint16_t)(k + 1);
        t->table_key[k] = key;
    }
    gti_game_win(g, w);
    gti_game_feedback_key(g, w, &win);
    t->win_key = win;
    t->win_index = t->key_index[win] ? t->key_index[win] - 1u : UINT32_MAX;
    return GT_OK;
}

gt_status gti_read_table(gt_tree *t, mp_item body, uint64_t most, gt_error *e)
{
    mp_item v;
    int64_t n;
    if (!gti_mp_get(body, "nodes", &v) || !gti_mp_int_in(&v, 1, (int64_t)most, &n))
        return gti_fail_file(e, t, GT_E_TABLE, "bad node count (this player reads 1 to %llu nodes)", (unsigned long long)most);
    t->nodes = (uint64_t)n;
    if (!gti_mp_get(body, "code_length", &v) || !gti_mp_int_in(&v, t->g.length, t->g.length, &n))
        return gti_fail_file(e, t, GT_E_TABLE, "code length does not match the game's %u", t->g.length);
    if (!gti_mp_get(body, "feedback_width", &v) || !gti_mp_int_in(&v, 1, 2, &n))
        return gti_fail_file(e, t, GT_E_TABLE, "bad feedback width (1 or 2 bytes)");
    t->width = (unsigned)n;
    if (!gti_mp_get(body, "feedbacks", &v)) v.type = MP_NIL;
    return read_feedbacks(t, v, e);
}

/* the parent of child within a piece: the node whose edges hold edge child - 1 */
static uint64_t parent_in(const piece *p, uint64_t child)
{
    uint32_t low = 0, high = p->nodes;
    while (high - low > 1) {
        uint32_t middle = low + (high - low) / 2;
        if (p->first[middle] <= child - 1) low = middle;
        else high = middle;
    }
    return p->base + low;
}

/* fill p->first from the edge counts and check the piece as player/body.py's Piece does */
gt_status gti_check_piece(gt_tree *t, piece *p, const uint8_t *counts, uint64_t edges, gt_error *e, const char *where)
{
    uint64_t total = 0;
    for (uint64_t k = 0; k < (uint64_t)p->nodes * t->g.length; k++)
        if (p->guess[k] >= t->g.symbols)
            return gti_fail_file(e, t, GT_E_NODES, "%sa guess uses symbol %u, beyond the game's %u", where, p->guess[k], t->g.symbols);
    for (uint32_t k = 0; k < p->nodes; k++) total += gti_le(counts + k * t->width, t->width);
    if (total != edges)
        return gti_fail_file(e, t, GT_E_NODES, "%sthe edge counts of nodes %llu to %llu add up to %llu, but %llu edges leave them", where,
                         (unsigned long long)p->base, (unsigned long long)(p->base + p->nodes - 1), (unsigned long long)total,
                         (unsigned long long)edges);
    p->first[0] = p->edge_base;
    for (uint32_t k = 0; k < p->nodes; k++) p->first[k + 1] = p->first[k] + gti_le(counts + k * t->width, t->width);
    for (uint64_t k = 0; k < edges; k++)
        if (gti_edge_feedback_at(t, p, k) >= t->feedbacks)
            return gti_fail_file(e, t, GT_E_NODES, "%san edge names a feedback beyond the feedback table", where);
    for (uint32_t k = p->base ? 0 : 1; k < p->nodes; k++)
        if (p->first[k] < p->base + k)
            return gti_fail_file(e, t, GT_E_NODES, "%snode %llu: its child %llu would come before it or be itself (a cycle)", where,
                             (unsigned long long)parent_in(p, p->base + k), (unsigned long long)(p->base + k));
    for (uint64_t k = 0; k < edges; k++)
        if (gti_edge_feedback_at(t, p, k) == t->win_index)
            return gti_fail_file(e, t, GT_E_NODES, "%snode %llu: an edge follows the winning feedback", where,
                             (unsigned long long)parent_in(p, p->edge_base + k + 1));
    return GT_OK;
}
