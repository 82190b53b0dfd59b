/* The zstd frames of an artifact (FORMAT.md §1, §10), checked as player/frames.py's inflate does. */
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_frameHeaderSize, ZSTD_getFrameHeader */
#include <zstd.h>
#include "internal.h"

/* Where the frame the source starts with ends, by its block headers (RFC 8878 §3.1.1), without
 * inflating it: the source's size where it is no whole frame (gti_frame_check says why). */
gt_status gti_frame_length(const source *s, uint64_t *end)
{
    uint8_t head[18], block[3];
    size_t got = s->size < sizeof head ? (size_t)s->size : sizeof head;
    *end = s->size;
    if (gti_source_read(s, 0, got, head) != GT_OK) return GT_E_IO;
    size_t header = ZSTD_frameHeaderSize(head, got);
    if (ZSTD_isError(header)) return GT_OK;
    for (uint64_t at = header; at + 3 <= s->size && at <= GT_MAX_FILE_BYTES;) {
        if (gti_source_read(s, at, 3, block) != GT_OK) return GT_E_IO;
        uint32_t value = block[0] | (uint32_t)block[1] << 8 | (uint32_t)block[2] << 16;
        at += 3 + (((value >> 1) & 3) == 1 ? 1 : value >> 3); /* an RLE block holds one byte */
        if (value & 1) { /* the last block, then the checksum */
            at += 4 * ((head[4] >> 2) & 1);
            *end = at < s->size ? at : s->size;
            return GT_OK;
        }
    }
    return GT_OK;
}

static unsigned bit_length(uint64_t v)
{
    unsigned n = 0;
    while (v) { n++; v >>= 1; }
    return n;
}

gt_status gti_frame_check(const uint8_t *data, size_t size, uint64_t limit, const char *what,
                      uint64_t *content, char *why, size_t why_size)
{
    ZSTD_frameHeader header;
    if (size == 0) {
        snprintf(why, why_size, "the file is empty");
        return GT_E_EMPTY;
    }
    size_t r = ZSTD_getFrameHeader(&header, data, size);
    if (ZSTD_isError(r) || r != 0) {
        snprintf(why, why_size, "not a zstd-compressed %s (bad frame header)", what);
        return GT_E_FRAME;
    }
    if (header.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN || header.frameContentSize == ZSTD_CONTENTSIZE_ERROR) {
        snprintf(why, why_size, "the zstd frame does not declare its content size");
        return GT_E_FRAME;
    }
    if (header.frameContentSize > limit) {
        snprintf(why, why_size, "the zstd frame claims %llu bytes, more than the %llu allowed",
                 (unsigned long long)header.frameContentSize, (unsigned long long)limit);
        return GT_E_FRAME;
    }
    if (!header.checksumFlag) {
        snprintf(why, why_size, "the zstd frame has no checksum");
        return GT_E_FRAME;
    }
    uint64_t window = (uint64_t)1 << (limit > 1024 ? bit_length(limit - 1) : 10);
    if (header.frameType == ZSTD_frame && header.windowSize > window) {
        snprintf(why, why_size, "the zstd data is damaged (Frame requires too much memory for decoding)");
        return GT_E_ZSTD_DAMAGED;
    }
    *content = header.frameContentSize;
    return GT_OK;
}

gt_status gti_frame_inflate(void *dctx, const uint8_t *data, size_t size, uint8_t *into, size_t content,
                        char *why, size_t why_size)
{
    size_t frame = ZSTD_findFrameCompressedSize(data, size);
    if (ZSTD_isError(frame)) {
        snprintf(why, why_size, "the zstd data is damaged (%s)", ZSTD_getErrorName(frame));
        return GT_E_ZSTD_DAMAGED;
    }
    if (frame != size) {
        snprintf(why, why_size, "the zstd data is damaged (%zu bytes follow the frame)", size - frame);
        return GT_E_ZSTD_DAMAGED;
    }
    if (content == 0) return GT_OK; /* as python-zstandard: an empty frame is not decoded */
    size_t got = ZSTD_decompressDCtx((ZSTD_DCtx *)dctx, into, content, data, size);
    if (ZSTD_isError(got)) {
        snprintf(why, why_size, "the zstd data is damaged (%s)", ZSTD_getErrorName(got));
        return GT_E_ZSTD_DAMAGED;
    }
    if (got != content) {
        snprintf(why, why_size, "the zstd frame holds more or less than it declares");
        return GT_E_FRAME;
    }
    return GT_OK;
}
