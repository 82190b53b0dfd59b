/* The chunked layout (FORMAT.md §10): the index checked on opening, each chunk read into a slot
 * when a lookup first needs it, the least recently used slot given up first. */
#define ZSTD_STATIC_LINKING_ONLY
#include <string.h>
#include <zstd.h>
#include "internal.h"

static uint64_t held_by(const gt_tree *t, uint32_t c)
{
    uint64_t from = (uint64_t)c * t->chunk_nodes;
    return t->nodes - from < t->chunk_nodes ? t->nodes - from : t->chunk_nodes;
}

static int64_t edges_of(const gt_tree *t, uint32_t c)
{
    uint64_t next = c + 1 < t->chunks ? gti_le(t->chunk_first + 4 * (c + 1), 4) : t->nodes - 1;
    return (int64_t)next - (int64_t)gti_le(t->chunk_first + 4 * c, 4);
}

static uint64_t inflated_of(const gt_tree *t, uint32_t c)
{
    return held_by(t, c) * (t->g.length + t->width) + (uint64_t)edges_of(t, c) * t->width;
}

static uint64_t frame_bound(uint64_t inflated)
{
    return ZSTD_COMPRESSBOUND(inflated) + 64;
}

static gt_status read_columns(gt_tree *t, mp_item index, uint64_t start, const uint8_t **sizes, gt_error *e)
{
    static const char *const keys[3] = {"chunk_size", "chunk_first_edge", "chunk_checksum"};
    const uint8_t *columns[3];
    for (int k = 0; k < 3; k++) {
        mp_item v;
        if (!gti_mp_get(index, keys[k], &v) || v.type != MP_BIN || v.u != 4ull * t->chunks)
            return gti_fail_file(e, t, GT_E_CHUNKS, "the index's %s is not %u entries of 4 bytes (%u chunks of %u nodes)", keys[k],
                             t->chunks, t->chunks, t->chunk_nodes);
        columns[k] = v.at;
    }
    *sizes = columns[0];
    t->chunk_first = columns[1];
    t->chunk_checksum = columns[2];
    t->offsets = gti_tree_alloc(t, (t->chunks + 1ull) * sizeof *t->offsets);
    if (!t->offsets) return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for %u chunks", t->chunks);
    t->offsets[0] = start;
    for (uint32_t c = 0; c < t->chunks; c++) t->offsets[c + 1] = t->offsets[c] + gti_le(columns[0] + 4 * c, 4);
    if (t->offsets[t->chunks] != t->src.size)
        return gti_fail_file(e, t, GT_E_CHUNKS, "the index's chunks take %llu bytes, but %llu follow the document",
                         (unsigned long long)(t->offsets[t->chunks] - start), (unsigned long long)(t->src.size - start));
    return GT_OK;
}

static gt_status check_index(gt_tree *t, uint64_t *largest, uint64_t *largest_frame, gt_error *e)
{
    uint64_t most = t->feedbacks - 1;
    uint32_t biggest = 0;
    for (uint32_t c = 0; c < t->chunks; c++) {
        uint64_t from = (uint64_t)c * t->chunk_nodes, first = gti_le(t->chunk_first + 4 * c, 4);
        int64_t edges = edges_of(t, c);
        if (first < from || edges < 0 || (uint64_t)edges > held_by(t, c) * most)
            return gti_fail_file(e, t, GT_E_CHUNKS, "the index's chunk %u starts at edge %llu, which its nodes %llu to %llu cannot have", c,
                             (unsigned long long)first, (unsigned long long)from, (unsigned long long)(from + held_by(t, c) - 1));
    }
    if (gti_le(t->chunk_first, 4) != 0)
        return gti_fail_file(e, t, GT_E_CHUNKS, "the index's first chunk starts at edge %u, not 0", gti_le(t->chunk_first, 4));
    *largest_frame = 0;
    for (uint32_t c = 0; c < t->chunks; c++) {
        uint64_t frame = t->offsets[c + 1] - t->offsets[c], bound = frame_bound(inflated_of(t, c));
        if (inflated_of(t, c) > inflated_of(t, biggest)) biggest = c;
        if ((frame < bound ? frame : bound) > *largest_frame) *largest_frame = frame < bound ? frame : bound;
    }
    *largest = inflated_of(t, biggest);
    if (*largest > GT_MAX_CHUNK_BYTES)
        return gti_fail_file(e, t, GT_E_CHUNKS, "the index's chunk %u would inflate to %llu bytes, more than the %u allowed", biggest,
                         (unsigned long long)*largest, GT_MAX_CHUNK_BYTES);
    return GT_OK;
}

static gt_status make_slots(gt_tree *t, uint64_t largest, uint64_t largest_frame, unsigned wanted, gt_error *e)
{
    t->slot_count = wanted < t->chunks ? wanted : t->chunks;
    t->slots = gti_tree_alloc(t, t->slot_count * sizeof *t->slots);
    if (!t->slots) return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for the chunks' slots");
    memset(t->slots, 0, t->slot_count * sizeof *t->slots);
    for (unsigned s = 0; s < t->slot_count; s++) {
        t->slots[s].chunk = -1;
        t->slots[s].raw = gti_tree_alloc(t, largest ? largest : 1);
        t->slots[s].first = gti_tree_alloc(t, (t->chunk_nodes + 1ull) * sizeof *t->slots[s].first);
        if (!t->slots[s].raw || !t->slots[s].first) return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for a chunk of %llu bytes",
                                                                    (unsigned long long)largest);
    }
    if (t->src.bytes) return GT_OK;
    t->frame = gti_tree_alloc(t, largest_frame ? largest_frame : 1);
    return t->frame ? GT_OK : gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for a chunk's frame of %llu bytes", (unsigned long long)largest_frame);
}

gt_status gti_chunks_read(gt_tree *t, mp_item index, uint64_t start, unsigned slots, gt_error *e)
{
    mp_item v;
    int64_t size;
    const uint8_t *sizes;
    uint64_t largest = 0, largest_frame = 0;
    gt_status status = gti_read_table(t, index, GT_MAX_CHUNKED_NODES, e);
    if (status != GT_OK) return status;
    if (!gti_mp_get(index, "chunk_nodes", &v) || !gti_mp_int_in(&v, 1, GT_MAX_CHUNK_NODES, &size))
        return gti_fail_file(e, t, GT_E_CHUNKS, "bad chunk size (1 to %u nodes a chunk)", GT_MAX_CHUNK_NODES);
    t->chunked = 1;
    t->chunk_nodes = (uint32_t)size;
    uint64_t count = (t->nodes + t->chunk_nodes - 1) / t->chunk_nodes;
    if (count > GT_MAX_CHUNKS)
        return gti_fail_file(e, t, GT_E_CHUNKS, "%llu chunks of %u nodes, more than the %u this player reads", (unsigned long long)count,
                         t->chunk_nodes, GT_MAX_CHUNKS);
    t->chunks = (uint32_t)count;
    if ((status = read_columns(t, index, start, &sizes, e)) != GT_OK) return status;
    if ((status = check_index(t, &largest, &largest_frame, e)) != GT_OK) return status;
    if ((status = make_slots(t, largest, largest_frame, slots, e)) != GT_OK) return status;
    const piece *first;
    return gti_piece_of(t, 0, &first, e);
}

/* chunk c read into slot p, checked; GT_E_CHUNK names the chunk */
static gt_status read_chunk(gt_tree *t, uint32_t c, piece *p, gt_error *e)
{
    char where[40], why[300];
    uint8_t tail[4];
    uint64_t size = t->offsets[c + 1] - t->offsets[c], inflated = inflated_of(t, c), content;
    uint64_t held = held_by(t, c);
    const uint8_t *data = t->frame;
    snprintf(where, sizeof where, "chunk %u: ", c);
    p->chunk = -1;
    if (size < 4 || gti_source_read(&t->src, t->offsets[c + 1] - 4, 4, tail) != GT_OK || memcmp(tail, t->chunk_checksum + 4 * c, 4))
        return gti_fail_file(e, t, GT_E_CHUNK, "%sits checksum is not the index's (the file is damaged or was altered)", where);
    if (size > frame_bound(inflated))
        return gti_fail_file(e, t, GT_E_CHUNK, "%sits frame of %llu bytes is larger than its nodes and edges could need", where,
                         (unsigned long long)size);
    if (t->src.bytes) data = t->src.bytes + t->offsets[c];
    else if (gti_source_read(&t->src, t->offsets[c], (size_t)size, t->frame) != GT_OK)
        return gti_fail_file(e, t, GT_E_CHUNK, "%scannot read it", where);
    gt_status status = gti_frame_check(data, (size_t)size, inflated, "chunk", &content, why, sizeof why);
    if (status == GT_OK) status = gti_frame_inflate(t->dctx, data, (size_t)size, p->raw, (size_t)content, why, sizeof why);
    if (status != GT_OK) return gti_fail_file(e, t, GT_E_CHUNK, "%s%s", where, why);
    if (content != inflated)
        return gti_fail_file(e, t, GT_E_CHUNK, "%sit holds %llu bytes, not the %llu of its nodes and edges", where,
                         (unsigned long long)content, (unsigned long long)inflated);
    p->base = (uint64_t)c * t->chunk_nodes;
    p->nodes = (uint32_t)held;
    p->edge_base = gti_le(t->chunk_first + 4 * c, 4);
    p->guess = p->raw;
    p->edge_feedback = p->raw + held * (t->g.length + t->width);
    status = gti_check_piece(t, p, p->raw + held * t->g.length, (uint64_t)edges_of(t, c), e, where);
    if (status != GT_OK) {
        if (e) e->status = GT_E_CHUNK; /* its message names the chunk; a damaged chunk is GT_E_CHUNK */
        return GT_E_CHUNK;
    }
    p->chunk = c;
    return GT_OK;
}

gt_status gti_piece_of(gt_tree *t, uint64_t node, const piece **out, gt_error *e)
{
    *out = &t->whole;
    if (!t->chunked) return GT_OK;
    uint32_t c = (uint32_t)(node / t->chunk_nodes);
    piece *oldest = &t->slots[0];
    for (unsigned s = 0; s < t->slot_count; s++) {
        piece *p = &t->slots[s];
        if (p->chunk == (int64_t)c) {
            p->used = ++t->clock;
            *out = p;
            return GT_OK;
        }
        if (p->used < oldest->used) oldest = p;
    }
    gt_status status = read_chunk(t, c, oldest, e);
    if (status != GT_OK) return status;
    oldest->used = ++t->clock;
    *out = oldest;
    return GT_OK;
}

gt_status gt_check(gt_tree *t, gt_error *e)
{
    if (!t) return gti_fail(e, GT_E_ARGUMENT, "gt_check: no tree");
    const piece *p;
    gt_status status = GT_OK;
    for (uint32_t c = 0; t->chunked && c < t->chunks && status == GT_OK; c++)
        status = gti_piece_of(t, (uint64_t)c * t->chunk_nodes, &p, e);
    return status;
}
