/* The msgpack that FORMAT.md uses, read in place: no allocation, every read bounds-checked. */
#ifndef GT_MSGPACK_H
#define GT_MSGPACK_H

#include <stddef.h>
#include <stdint.h>

typedef enum mp_type { MP_NIL, MP_BOOL, MP_UINT, MP_NEGATIVE, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP, MP_EXT } mp_type;

/* One value: a scalar's value, a str's or bin's bytes, or where an array's or map's items start. */
typedef struct mp_item {
    mp_type type;
    uint64_t u;           /* MP_UINT, MP_BOOL (0 or 1), MP_STR, MP_BIN: length; MP_ARRAY, MP_MAP: items */
    int64_t i;            /* MP_NEGATIVE */
    double f;             /* MP_FLOAT */
    const uint8_t *at;    /* a str's or bin's bytes, an array's or map's first item */
    const uint8_t *end;   /* the end of the bytes the item lies in */
} mp_item;

#define MP_MAX_STRUCTURE (1u << 20) /* msgpack bytes outside the top map's bin values */
#define MP_MAX_DEPTH 1024           /* msgpack-python's unpacker nests no deeper */

typedef enum mp_problem { MP_FINE, MP_INVALID, MP_NOT_MAP, MP_STRUCTURE, MP_TRAILING } mp_problem;

/* Check that bytes hold one msgpack map and nothing after it, as player/unpacking.py's unpack_map:
 * valid msgpack, strict UTF-8, no extension type, no map key that is an array or a map, no key
 * __proto__, nesting within MP_MAX_DEPTH, at most MP_MAX_STRUCTURE bytes outside its bin values. */
mp_problem gti_mp_check_map(const uint8_t *bytes, size_t size, mp_item *map, size_t *trailing, const char **why);

/* Read one value at *at (below end), moving *at past it; 0 if it does not fit. */
int gti_mp_read(const uint8_t **at, const uint8_t *end, mp_item *item);
/* Move *at past one whole value. */
int gti_mp_skip(const uint8_t **at, const uint8_t *end);
/* The value of the last entry whose key is the str key (as a Python dict keeps the last); 0: none. */
int gti_mp_get(mp_item map, const char *key, mp_item *value);
/* The i-th item of an array, from the start. */
int gti_mp_index(mp_item array, uint64_t i, mp_item *value);

int gti_mp_is_int(const mp_item *item);
int gti_mp_is_str(const mp_item *item, const char *text);
int gti_mp_is_scalar(const mp_item *item);
/* an int in [low, high] (not a bool, as Python's type(x) is int) */
int gti_mp_int_in(const mp_item *item, int64_t low, int64_t high, int64_t *value);

#endif
