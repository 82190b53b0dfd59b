/* A whole body's nodes as FORMAT.md §3 lays them out, checked as player/body.py checks them (the
 * feedback table and a piece's checks are nodes.c's, which a chunked body's chunks.c shares). */
#include <string.h>
#include "internal.h"

static int body_array(mp_item body, const char *key, unsigned width, mp_item *v)
{
    return gti_mp_get(body, key, v) && v->type == MP_BIN && v->u % width == 0;
}

gt_status gti_body_read(gt_tree *t, mp_item body, gt_error *e)
{
    static const char *const keys[3] = {"guess", "edge_count", "edge_feedback"};
    mp_item arrays[3];
    gt_status status = gti_read_table(t, body, GT_MAX_NODES, e);
    if (status != GT_OK) return status;
    for (int k = 0; k < 3; k++)
        if (!body_array(body, keys[k], k ? t->width : 1, &arrays[k]))
            return gti_fail_file(e, t, GT_E_NODES, "body array '%s' is missing or malformed", keys[k]);
    uint64_t n = t->nodes, counts = arrays[1].u / t->width, edges = arrays[2].u / t->width;
    if (arrays[0].u != n * t->g.length)
        return gti_fail_file(e, t, GT_E_NODES, "%llu guess symbols for %llu nodes of %u", (unsigned long long)arrays[0].u,
                         (unsigned long long)n, t->g.length);
    if (counts != n || edges != n - 1)
        return gti_fail_file(e, t, GT_E_NODES, "%llu edge counts and %llu edges for %llu nodes", (unsigned long long)counts,
                         (unsigned long long)edges, (unsigned long long)n);
    piece *p = &t->whole;
    p->nodes = (uint32_t)n;
    p->guess = arrays[0].at;
    p->edge_feedback = arrays[2].at;
    p->first = gti_tree_alloc(t, (n + 1) * sizeof *p->first);
    if (!p->first) return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for %llu nodes", (unsigned long long)n);
    status = gti_check_piece(t, p, arrays[1].at, n - 1, e, "");
    if (status == GT_E_NODES && strstr(e->message, "edge counts of nodes"))
        return gti_fail_file(e, t, GT_E_NODES, "the edge counts do not add up to the %llu edges %llu nodes need",
                         (unsigned long long)(n - 1), (unsigned long long)n);
    return status;
}
