// XXH64 (seed 0), the checksum a zstd frame ends with (its low 32 bits): fzstd does not check it.
// In BigInt, as the specification writes it: a Wordle tree's 33 KB take about a millisecond.

const P = [0x9e3779b185ebca87n, 0xc2b2ae3d27d4eb4fn, 0x165667b19e3779f9n, 0x85ebca77c2b2ae63n, 0x27d4eb2f165667c5n];
const u64 = (x) => BigInt.asUintN(64, x);
const rotl = (x, r) => u64((x << r) | (x >> (64n - r)));
const round = (acc, input) => u64(rotl(u64(acc + input * P[1]), 31n) * P[0]);

// The hash, as a BigInt.
export function xxh64(data) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength), n = data.length, word = (p) => view.getBigUint64(p, true);
  let p = 0, h = P[4];
  if (n >= 32) {
    const v = [u64(P[0] + P[1]), P[1], 0n, u64(-P[0])];
    for (; p + 32 <= n; p += 32) for (let i = 0; i < 4; i++) v[i] = round(v[i], word(p + 8 * i));
    h = u64(rotl(v[0], 1n) + rotl(v[1], 7n) + rotl(v[2], 12n) + rotl(v[3], 18n));
    for (const x of v) h = u64((h ^ round(0n, x)) * P[0] + P[3]);
  }
  h = u64(h + BigInt(n));
  for (; p + 8 <= n; p += 8) h = u64(rotl(h ^ round(0n, word(p)), 27n) * P[0] + P[3]);
  if (p + 4 <= n) {
    h = u64(rotl(h ^ u64(BigInt(view.getUint32(p, true)) * P[0]), 23n) * P[1] + P[2]);
    p += 4;
  }
  for (; p < n; p++) h = u64(rotl(h ^ u64(BigInt(data[p]) * P[4]), 11n) * P[0]);
  h = u64((h ^ (h >> 33n)) * P[1]);
  h = u64((h ^ (h >> 29n)) * P[2]);
  return h ^ (h >> 32n);
}
