// XXH64 (seed 0), the checksum a zstd frame ends with (its low 32 bits): fzstd does not check it.
// In BigInt, as the specification writes it; each 64-bit result is wrapped by storing it in a
// BigUint64Array. The main loop works in one (V8 keeps it unboxed): as fast as 32-bit halves.

const P1 = 0x9e3779b185ebca87n, P2 = 0xc2b2ae3d27d4eb4fn, P3 = 0x165667b19e3779f9n, P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const word = new BigUint64Array(1);  // where a result is wrapped to 64 bits
const wrap = (x) => (word[0] = x, word[0]);
const rotl = (x, r) => wrap((x << r) | (x >> (64n - r)));
const round = (acc, input) => wrap(rotl(wrap(acc + input * P2), 31n) * P1);

// The hash, as a BigInt.
export function xxh64(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength), n = data.length, at = (p) => view.getBigUint64(p, true);
  let p = 0, h = P5;
  if (n >= 32) {
    const v = new BigUint64Array([P1 + P2, P2, 0n, -P1]);  // stored, so wrapped
    for (; p + 32 <= n; p += 32) {
      for (let i = 0; i < 4; i++) {  // round(v[i], the input word), written out: the loop that takes the time
        v[i] += view.getBigUint64(p + 8 * i, true) * P2;
        const x = v[i];
        v[i] = ((x << 31n) | (x >> 33n)) * P1;
      }
    }
    h = wrap(rotl(v[0], 1n) + rotl(v[1], 7n) + rotl(v[2], 12n) + rotl(v[3], 18n));
    for (const x of v) h = wrap((h ^ round(0n, x)) * P1 + P4);
  }
  h = wrap(h + BigInt(n));
  for (; p + 8 <= n; p += 8) h = wrap(rotl(h ^ round(0n, at(p)), 27n) * P1 + P4);
  if (p + 4 <= n) {
    h = wrap(rotl(h ^ wrap(BigInt(view.getUint32(p, true)) * P1), 23n) * P2 + P3);
    p += 4;
  }
  for (; p < n; p++) h = wrap(rotl(h ^ wrap(BigInt(data[p]) * P5), 11n) * P1);
  h = wrap((h ^ (h >> 33n)) * P2);
  h = wrap((h ^ (h >> 29n)) * P3);
  return h ^ (h >> 32n);
}
