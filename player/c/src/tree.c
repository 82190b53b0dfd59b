/* Opening an artifact, from a file or from bytes (player/artifact.py's read): the document's frame, its map,
 * its format and version, then the header and the body, whole or chunked. */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createDCtx_advanced: zstd's memory from our allocator */
#include <string.h>
#include <zstd.h>
#include "internal.h"

static void *zstd_alloc(void *user, size_t size) { return gti_tree_alloc(user, size); }
static void zstd_free(void *user, void *pointer) { gti_tree_free(user, pointer, 0); }

void gt_close(gt_tree *t)
{
    if (!t) return;
    gt_allocator allocator = t->allocator;
    for (unsigned s = 0; t->slots && s < t->slot_count; s++) {
        gti_tree_free(t, t->slots[s].first, 0);
        gti_tree_free(t, t->slots[s].raw, 0);
    }
    void *owned[] = {t->slots, t->frame, t->offsets, t->whole.first, t->key_index, t->table_key, t->document};
    for (size_t k = sizeof owned / sizeof *owned; k-- > 0;) gti_tree_free(t, owned[k], 0);
    if (t->dctx) ZSTD_freeDCtx(t->dctx);
    gti_file_close(t->src.file);
    if (t->held) allocator.free(allocator.user, t->held);
    allocator.free(allocator.user, t);
}

/* -- reading ---------------------------------------------------------------------------------- */
static gt_status check_map(gt_tree *t, const uint8_t *bytes, size_t size, const char *what, mp_item *map, gt_error *e)
{
    size_t trailing = 0;
    const char *why;
    switch (gti_mp_check_map(bytes, size, map, &trailing, &why)) {
    case MP_FINE: return GT_OK;
    case MP_NOT_MAP: return gti_fail_file(e, t, GT_E_MSGPACK, "%s is not a msgpack map", what);
    case MP_STRUCTURE: return gti_fail_file(e, t, GT_E_MSGPACK, "%s holds more than %u bytes of msgpack structure", what, MP_MAX_STRUCTURE);
    case MP_TRAILING: return gti_fail_file(e, t, GT_E_MSGPACK, "%s has %zu bytes after its msgpack map", what, trailing);
    default: return gti_fail_file(e, t, GT_E_MSGPACK, "%s is not valid msgpack (%s)", what, why);
    }
}

/* the document's frame inflated into t->document: the frame's header says its size, which is
 * allocated before the compressed bytes of a file (so that an arena takes those back at once) */
static gt_status read_document(gt_tree *t, uint64_t end, gt_error *e)
{
    char why[300];
    uint8_t head[18];
    uint64_t content = 0;
    const uint8_t *data = t->src.bytes;
    size_t got = end < sizeof head ? (size_t)end : sizeof head;
    if (!data && gti_source_read(&t->src, 0, got, head) != GT_OK) return gti_fail_file(e, t, GT_E_IO, "cannot read");
    gt_status status = gti_frame_check(data ? data : head, data ? (size_t)end : got, GT_MAX_BODY_BYTES, "artifact", &content, why, sizeof why);
    if (status != GT_OK) return gti_fail_file(e, t, status, "%s", why);
    t->document = gti_tree_alloc(t, content ? (size_t)content : 1);
    uint8_t *compressed = data ? NULL : gti_tree_alloc(t, (size_t)end);
    if (!t->document || (!data && !compressed)) {
        gti_tree_free(t, compressed, 0);
        return gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for the document");
    }
    if (compressed && gti_source_read(&t->src, 0, (size_t)end, compressed) != GT_OK) status = GT_E_IO;
    if (status == GT_OK)
        status = gti_frame_inflate(t->dctx, data ? data : compressed, (size_t)end, t->document, (size_t)content, why, sizeof why);
    gti_tree_free(t, compressed, 0);
    if (status == GT_E_IO) return gti_fail_file(e, t, status, "cannot read");
    if (status != GT_OK) return gti_fail_file(e, t, status, "%s", why);
    t->document_size = (size_t)content;
    return GT_OK;
}

static gt_status read_version(gt_tree *t, mp_item document, gt_error *e)
{
    mp_item v, major, minor;
    if (!gti_mp_get(document, "format", &v) || !gti_mp_is_str(&v, "guesstree"))
        return gti_fail_file(e, t, GT_E_NOT_GUESSTREE, "not a guesstree artifact (format is not 'guesstree')");
    if (!gti_mp_get(document, "version", &v) || v.type != MP_ARRAY || v.u != 2 || !gti_mp_index(v, 0, &major) || !gti_mp_index(v, 1, &minor)
        || !gti_mp_is_int(&major) || !gti_mp_is_int(&minor))
        return gti_fail_file(e, t, GT_E_VERSION, "bad format version");
    t->version[0] = major.type == MP_UINT ? (major.u > INT64_MAX ? INT64_MAX : (int64_t)major.u) : major.i;
    t->version[1] = minor.type == MP_UINT ? (minor.u > INT64_MAX ? INT64_MAX : (int64_t)minor.u) : minor.i;
    if (t->version[0] != 1 && t->version[0] != 2)
        return gti_fail_file(e, t, GT_E_VERSION, "format version %lld.%lld is not readable by this player (it reads 1.x and 2.x); use a matching guesstree",
                         (long long)t->version[0], (long long)t->version[1]);
    return GT_OK;
}

static int sha256_matches(const mp_item *digest, const mp_item *body)
{
    uint8_t d[32];
    if (digest->type != MP_STR) return 0;
    gti_sha256(body->at, (size_t)body->u, d);
    return gti_sha256_is(d, digest->at, digest->u);
}

static gt_status read_tree(gt_tree *t, unsigned slots, gt_error *e)
{
    uint64_t end;
    mp_item document, packed, digest, inner;
    gt_status status;
    if (gti_frame_length(&t->src, &end) != GT_OK) return gti_fail_file(e, t, GT_E_IO, "cannot read");
    if (end > GT_MAX_FILE_BYTES) return gti_fail_file(e, t, GT_E_TOO_LARGE, "larger than any artifact this player reads (%u bytes)", GT_MAX_FILE_BYTES);
    if ((status = read_document(t, end, e)) != GT_OK) return status;
    if ((status = check_map(t, t->document, t->document_size, "the artifact", &document, e)) != GT_OK) return status;
    if ((status = read_version(t, document, e)) != GT_OK) return status;
    if (t->version[0] == 2) {
        if (!gti_mp_get(document, "index", &packed) || packed.type != MP_BIN) return gti_fail_file(e, t, GT_E_BODY, "the chunked artifact has no index");
        if ((status = check_map(t, packed.at, (size_t)packed.u, "the index", &inner, e)) != GT_OK) return status;
        if ((status = gti_header_read(t, document, e)) != GT_OK) return status;
        return gti_chunks_read(t, inner, end, slots, e);
    }
    if (end != t->src.size)
        return gti_fail_file(e, t, GT_E_ZSTD_DAMAGED, "the zstd data is damaged (%llu bytes follow the frame)", (unsigned long long)(t->src.size - end));
    if (!gti_mp_get(document, "body", &packed) || packed.type != MP_BIN) return gti_fail_file(e, t, GT_E_BODY, "the artifact has no body");
    if (!gti_mp_get(document, "body_sha256", &digest) || !sha256_matches(&digest, &packed))
        return gti_fail_file(e, t, GT_E_BODY, "the body's sha256 does not match the header (the file is damaged or was altered)");
    if ((status = check_map(t, packed.at, (size_t)packed.u, "the body", &inner, e)) != GT_OK) return status;
    if ((status = gti_header_read(t, document, e)) != GT_OK) return status;
    return gti_body_read(t, inner, e);
}

static gt_status open_source(gt_tree **out, source src, const char *name, const gt_options *options, gt_error *e)
{
    gt_allocator allocator = gti_tree_allocator(options);
    gt_tree *t = allocator.alloc(allocator.user, sizeof *t);
    *out = NULL;
    if (!t) {
        gti_file_close(src.file);
        return gti_fail(e, GT_E_NO_MEMORY, "%s: no memory for a tree", name);
    }
    memset(t, 0, sizeof *t);
    t->allocator = allocator;
    t->src = src;
    t->peak = t->memory = sizeof *t;
    snprintf(t->name, sizeof t->name, "%s", name);
    ZSTD_customMem memory = {zstd_alloc, zstd_free, t};
    t->dctx = ZSTD_createDCtx_advanced(memory);
    gt_status status = t->dctx ? GT_OK : gti_fail_file(e, t, GT_E_NO_MEMORY, "no memory for zstd");
    if (status == GT_OK) status = read_tree(t, options && options->chunk_slots ? options->chunk_slots : 4, e);
    if (status != GT_OK) {
        gt_close(t);
        return status;
    }
    if (!t->chunked && t->src.file) { /* a whole tree is all in memory now */
        gti_file_close(t->src.file);
        t->src.file = NULL;
    }
    *out = t;
    if (e) e->status = GT_OK, e->message[0] = 0;
    return GT_OK;
}

gt_status gt_open_memory(gt_tree **tree, const void *bytes, size_t size, const char *name, const gt_options *options, gt_error *e)
{
    source src = {bytes, NULL, size};
    if (!tree || (!bytes && size)) return gti_fail(e, GT_E_ARGUMENT, "gt_open_memory: no tree pointer, or no bytes");
    if (!bytes) src.bytes = (const uint8_t *)"";
    return open_source(tree, src, name ? name : "<bytes>", options, e);
}

gt_status gt_open_file(gt_tree **tree, const char *path, const gt_options *options, gt_error *e)
{
    source src;
    uint8_t *held = NULL;
    gt_allocator allocator = gti_tree_allocator(options);
#ifndef GT_NO_FILES /* without files, gti_source_open_file refuses whatever it is given */
    if (!tree || !path) return gti_fail(e, GT_E_ARGUMENT, "gt_open_file: no tree pointer, or no path");
#endif
    if (tree) *tree = NULL;
    gt_status status = gti_source_open_file(&src, &held, path, allocator, e);
    if (status != GT_OK) return status;
    status = open_source(tree, src, path, options, e);
    if (held && status == GT_OK) (*tree)->held = held; /* a pipe's or a device's bytes: the tree's now */
    else if (held) allocator.free(allocator.user, held);
    return status;
}
