/* SHA-256 (FIPS 180-4): the body's digest (FORMAT.md §2) and a words tree's answer list (§2.1). */
#include <string.h>
#include "internal.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROTR(x, n) ((x) >> (n) | (x) << (32 - (n)))

static void compress(uint32_t h[8], const uint8_t block[64])
{
    uint32_t w[64], v[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 | (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(v, h, sizeof v);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ROTR(v[4], 6) ^ ROTR(v[4], 11) ^ ROTR(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[i] + w[i];
        uint32_t t2 = (ROTR(v[0], 2) ^ ROTR(v[0], 13) ^ ROTR(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        memmove(v + 1, v, 7 * sizeof v[0]);
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) h[i] += v[i];
}

void gti_sha256_init(gti_sha256_state *s)
{
    static const uint32_t start[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, start, sizeof start);
    s->bytes = 0;
}

void gti_sha256_update(gti_sha256_state *s, const uint8_t *data, size_t size)
{
    while (size) {
        size_t at = s->bytes % 64, n = 64 - at < size ? 64 - at : size;
        memcpy(s->block + at, data, n);
        s->bytes += n;
        data += n;
        size -= n;
        if (at + n == 64) compress(s->h, s->block);
    }
}

void gti_sha256_final(gti_sha256_state *s, uint8_t digest[32])
{
    uint64_t bits = s->bytes * 8;
    uint8_t pad[72] = {0x80}, length[8];
    size_t padding = (s->bytes % 64 < 56 ? 56 : 120) - s->bytes % 64;
    for (int i = 0; i < 8; i++) length[i] = (uint8_t)(bits >> (56 - 8 * i));
    gti_sha256_update(s, pad, padding);
    gti_sha256_update(s, length, 8);
    for (int i = 0; i < 32; i++) digest[i] = (uint8_t)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

void gti_sha256(const uint8_t *data, size_t size, uint8_t digest[32])
{
    gti_sha256_state s;
    gti_sha256_init(&s);
    gti_sha256_update(&s, data, size);
    gti_sha256_final(&s, digest);
}

int gti_sha256_is(const uint8_t digest[32], const uint8_t *hex, uint64_t length)
{
    static const char digits[] = "0123456789abcdef";
    if (length != 64) return 0;
    for (int k = 0; k < 32; k++)
        if (hex[2 * k] != digits[digest[k] >> 4] || hex[2 * k + 1] != digits[digest[k] & 15]) return 0;
    return 1;
}
