/* A reader of the msgpack subset the artifact uses, in place and bounds-checked. */
#include <string.h>
#include "msgpack.h"

static uint64_t big_endian(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++) v = v << 8 | p[k];
    return v;
}

static double float_of(const uint8_t *p, unsigned n)
{
    uint64_t bits = big_endian(p, n);
    if (n == 4) {
        float f;
        uint32_t b32 = (uint32_t)bits;
        memcpy(&f, &b32, 4);
        return f;
    }
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* the sizes of the head's fields: extra bytes of its value, of its length, or of its count */
static int read_sized(const uint8_t **at, const uint8_t *end, mp_item *item, mp_type type, unsigned length_bytes)
{
    if ((size_t)(end - *at) < length_bytes) return 0;
    uint64_t n = big_endian(*at, length_bytes);
    *at += length_bytes;
    item->type = type;
    item->u = n;
    item->at = *at;
    item->end = end;
    if (type == MP_ARRAY || type == MP_MAP) return 1;
    if (type == MP_EXT) n += 1; /* its type byte */
    if ((uint64_t)(end - *at) < n) return 0;
    *at += n;
    return 1;
}

static int read_number(const uint8_t **at, const uint8_t *end, mp_item *item, uint8_t head)
{
    static const unsigned widths[] = {4, 8, 1, 2, 4, 8, 1, 2, 4, 8}; /* 0xca .. 0xd3 */
    unsigned n = widths[head - 0xca];
    if ((size_t)(end - *at) < n) return 0;
    const uint8_t *p = *at;
    *at += n;
    if (head <= 0xcb) {
        item->type = MP_FLOAT;
        item->f = float_of(p, n);
        return 1;
    }
    uint64_t v = big_endian(p, n);
    if (head <= 0xcf) {
        item->type = MP_UINT;
        item->u = v;
        return 1;
    }
    int64_t s = n == 1 ? (int8_t)v : n == 2 ? (int16_t)v : n == 4 ? (int32_t)v : (int64_t)v;
    item->type = s < 0 ? MP_NEGATIVE : MP_UINT;
    item->i = s;
    item->u = s < 0 ? 0 : (uint64_t)s;
    return 1;
}

int gti_mp_read(const uint8_t **at, const uint8_t *end, mp_item *item)
{
    if (*at >= end) return 0;
    uint8_t head = *(*at)++;
    memset(item, 0, sizeof *item);
    item->end = end;
    item->at = *at;
    if (head <= 0x7f) { item->type = MP_UINT; item->u = head; return 1; }
    if (head >= 0xe0) { item->type = MP_NEGATIVE; item->i = (int8_t)head; return 1; }
    if (head <= 0x8f) { item->type = MP_MAP; item->u = head & 15; return 1; }
    if (head <= 0x9f) { item->type = MP_ARRAY; item->u = head & 15; return 1; }
    if (head <= 0xbf) {
        item->type = MP_STR;
        item->u = head & 31;
        if ((uint64_t)(end - *at) < item->u) return 0;
        *at += item->u;
        return 1;
    }
    switch (head) {
    case 0xc0: item->type = MP_NIL; return 1;
    case 0xc2: case 0xc3: item->type = MP_BOOL; item->u = head & 1; return 1;
    case 0xc4: return read_sized(at, end, item, MP_BIN, 1);
    case 0xc5: return read_sized(at, end, item, MP_BIN, 2);
    case 0xc6: return read_sized(at, end, item, MP_BIN, 4);
    case 0xc7: return read_sized(at, end, item, MP_EXT, 1);
    case 0xc8: return read_sized(at, end, item, MP_EXT, 2);
    case 0xc9: return read_sized(at, end, item, MP_EXT, 4);
    case 0xd9: return read_sized(at, end, item, MP_STR, 1);
    case 0xda: return read_sized(at, end, item, MP_STR, 2);
    case 0xdb: return read_sized(at, end, item, MP_STR, 4);
    case 0xdc: return read_sized(at, end, item, MP_ARRAY, 2);
    case 0xdd: return read_sized(at, end, item, MP_ARRAY, 4);
    case 0xde: return read_sized(at, end, item, MP_MAP, 2);
    case 0xdf: return read_sized(at, end, item, MP_MAP, 4);
    default: break;
    }
    if (head >= 0xca && head <= 0xd3) return read_number(at, end, item, head);
    if (head >= 0xd4 && head <= 0xd8) { /* fixext 1, 2, 4, 8, 16: a type byte and the data */
        size_t n = 1 + ((size_t)1 << (head - 0xd4));
        if ((size_t)(end - *at) < n) return 0;
        item->type = MP_EXT;
        *at += n;
        return 1;
    }
    return 0; /* 0xc1, never used */
}

int gti_mp_skip(const uint8_t **at, const uint8_t *end)
{
    uint64_t remaining = 1; /* each container adds its items: no stack needed */
    mp_item item;
    while (remaining) {
        if (!gti_mp_read(at, end, &item)) return 0;
        remaining--;
        if (item.type == MP_ARRAY) remaining += item.u;
        if (item.type == MP_MAP) remaining += 2 * item.u;
    }
    return 1;
}

/* strict UTF-8 as Python decodes it: no overlong forms, no surrogates, nothing past U+10FFFF */
static int valid_utf8(const uint8_t *s, uint64_t n)
{
    uint64_t k = 0;
    while (k < n) {
        uint8_t c = s[k];
        unsigned more;
        uint8_t low = 0x80, high = 0xBF;
        if (c < 0x80) { k++; continue; }
        if (c >= 0xC2 && c <= 0xDF) more = 1;
        else if (c >= 0xE0 && c <= 0xEF) more = 2;
        else if (c >= 0xF0 && c <= 0xF4) more = 3;
        else return 0;
        if (n - k <= more) return 0;
        if (c == 0xE0) low = 0xA0;
        if (c == 0xED) high = 0x9F;
        if (c == 0xF0) low = 0x90;
        if (c == 0xF4) high = 0x8F;
        if (s[k + 1] < low || s[k + 1] > high) return 0;
        for (unsigned j = 2; j <= more; j++)
            if ((s[k + j] & 0xC0) != 0x80) return 0;
        k += more + 1;
    }
    return 1;
}

typedef struct level { uint64_t remaining; int map; } level;

/* one item of the walk: refuse what Python refuses, and open a level for a container */
static int check_item(const mp_item *item, level *stack, unsigned *depth, const char **why)
{
    level *top = &stack[*depth - 1];
    int is_key = top->map && top->remaining % 2 == 0;
    top->remaining--;
    if (item->type == MP_EXT) { *why = "an extension type, which an artifact never holds"; return 0; }
    if (item->type == MP_STR && !valid_utf8(item->at, item->u)) { *why = "a string that is not UTF-8"; return 0; }
    if (is_key && (item->type == MP_ARRAY || item->type == MP_MAP)) { *why = "unhashable map key"; return 0; }
    if (is_key && item->type == MP_STR && item->u == 9 && memcmp(item->at, "__proto__", 9) == 0) {
        *why = "a map key __proto__, which an artifact never holds";
        return 0;
    }
    if (item->type != MP_ARRAY && item->type != MP_MAP) return 1;
    if (*depth >= MP_MAX_DEPTH) { *why = "nested too deep"; return 0; }
    stack[*depth].remaining = item->type == MP_MAP ? 2 * item->u : item->u;
    stack[*depth].map = item->type == MP_MAP;
    ++*depth;
    return 1;
}

mp_problem gti_mp_check_map(const uint8_t *bytes, size_t size, mp_item *map, size_t *trailing, const char **why)
{
    static const char *const truncated = "truncated or reserved msgpack";
    level stack[MP_MAX_DEPTH];
    unsigned depth = 1;
    const uint8_t *at = bytes, *end = bytes + size;
    uint64_t payload = 0;
    *why = truncated;
    if (!gti_mp_read(&at, end, map) || map->type != MP_MAP) return MP_NOT_MAP;
    stack[0].remaining = 2 * map->u;
    stack[0].map = 1;
    while (stack[0].remaining || depth > 1) {
        const uint8_t *start = at;
        int top_level = depth == 1;
        mp_item item;
        if (!gti_mp_read(&at, end, &item)) return MP_INVALID;
        if (!check_item(&item, stack, &depth, why)) return MP_INVALID;
        while (depth > 1 && stack[depth - 1].remaining == 0) depth--;
        if (top_level && item.type == MP_BIN) payload += (uint64_t)(at - start);
        if (depth == 1 && (uint64_t)(at - bytes) - payload > MP_MAX_STRUCTURE) return MP_STRUCTURE;
    }
    *trailing = (size_t)(end - at);
    return *trailing ? MP_TRAILING : MP_FINE;
}

int gti_mp_get(mp_item map, const char *key, mp_item *value)
{
    const uint8_t *at = map.at;
    int found = 0;
    if (map.type != MP_MAP) return 0;
    for (uint64_t k = 0; k < map.u; k++) {
        mp_item name, item;
        if (!gti_mp_read(&at, map.end, &name)) return 0;
        const uint8_t *value_at = at;
        if (!gti_mp_read(&value_at, map.end, &item)) return 0;
        if (gti_mp_is_str(&name, key)) { *value = item; found = 1; }
        if (!gti_mp_skip(&at, map.end)) return 0;
    }
    return found;
}

int gti_mp_index(mp_item array, uint64_t i, mp_item *value)
{
    const uint8_t *at = array.at;
    if (array.type != MP_ARRAY || i >= array.u) return 0;
    for (uint64_t k = 0; k < i; k++)
        if (!gti_mp_skip(&at, array.end)) return 0;
    return gti_mp_read(&at, array.end, value);
}

int gti_mp_is_int(const mp_item *item)
{
    return item->type == MP_UINT || item->type == MP_NEGATIVE;
}

int gti_mp_is_str(const mp_item *item, const char *text)
{
    size_t n = strlen(text);
    return item->type == MP_STR && item->u == n && memcmp(item->at, text, n) == 0;
}

int gti_mp_is_scalar(const mp_item *item)
{
    return item->type == MP_NIL || item->type == MP_BOOL || gti_mp_is_int(item) || item->type == MP_FLOAT
        || item->type == MP_STR;
}

int gti_mp_int_in(const mp_item *item, int64_t low, int64_t high, int64_t *value)
{
    if (item->type == MP_NEGATIVE) {
        if (item->i < low || item->i > high) return 0;
        *value = item->i;
        return 1;
    }
    if (item->type != MP_UINT || high < 0 || item->u > (uint64_t)high || (int64_t)item->u < low) return 0;
    *value = (int64_t)item->u;
    return 1;
}
