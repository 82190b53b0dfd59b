/* libFuzzer's second target: the bytes are a document's msgpack, framed here (zstd, its size and
 * checksum) with the body's sha256 made right, so that mutations reach the header, the game spec
 * and the nodes' checks, which a wrong checksum or digest would stop first. Input: a 4-byte
 * little-endian length, the document's msgpack, then the bytes that follow the frame (a chunked
 * tree's chunks). Built by make fuzz (build/fuzz/fuzz-document). */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "../src/internal.h"
#include "fuzz_play.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the body_sha256 written as the body's digest, where it is a str of 64 bytes after the body */
static void fix_digest(uint8_t *document, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    mp_item map, body, digest;
    size_t trailing;
    const char *why;
    if (gti_mp_check_map(document, size, &map, &trailing, &why) != MP_FINE) return;
    if (!gti_mp_get(map, "body", &body) || body.type != MP_BIN || !gti_mp_get(map, "body_sha256", &digest)) return;
    if (digest.type != MP_STR || digest.u != 64) return;
    uint8_t d[32], *at = document + (digest.at - document);
    gti_sha256(body.at, (size_t)body.u, d);
    for (int k = 0; k < 32; k++) {
        at[2 * k] = (uint8_t)hex[d[k] >> 4];
        at[2 * k + 1] = (uint8_t)hex[d[k] & 15];
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4) return 0;
    size_t length = data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
    if (length > size - 4 || length > (1u << 22)) return 0;
    uint8_t *document = malloc(length ? length : 1);
    size_t bound = ZSTD_compressBound(length), rest = size - 4 - length;
    uint8_t *framed = malloc(bound + rest);
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (document && framed && cctx) {
        memcpy(document, data + 4, length);
        fix_digest(document, length);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
        size_t n = ZSTD_compress2(cctx, framed, bound, document, length);
        if (!ZSTD_isError(n)) {
            memcpy(framed + n, data + 4 + length, rest);
            fuzz_play(framed, n + rest);
        }
    }
    ZSTD_freeCCtx(cctx);
    free(framed);
    free(document);
    return 0;
}
