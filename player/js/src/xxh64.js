// XXH64 (seed 0), the checksum a zstd frame ends with (its low 32 bits): fzstd does not check it.
// 64-bit words are two uint32 halves, so that no BigInt slows the loop down.

const P1 = [0x9e3779b1, 0x85ebca87], P2 = [0xc2b2ae3d, 0x27d4eb4f], P3 = [0x165667b1, 0x9e3779f9];
const P4 = [0x85ebca77, 0xc2b2ae63], P5 = [0x27d4eb2f, 0x165667c5];

const add = (a, b) => {
  const lo = a[1] + b[1];
  return [(a[0] + b[0] + (lo > 0xffffffff ? 1 : 0)) >>> 0, lo >>> 0];
};

const mul = (a, b) => {
  const al = a[1], bl = b[1];
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16;
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const lo = (((mid & 0xffff) << 16) | (p00 & 0xffff)) >>> 0;
  const carry = p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  return [(carry + Math.imul(a[0], bl) + Math.imul(al, b[0])) >>> 0, lo];
};

const rotl = (a, r) => {
  const [h, l] = r >= 32 ? [a[1], a[0]] : a;
  r &= 31;
  return r ? [((h << r) | (l >>> (32 - r))) >>> 0, ((l << r) | (h >>> (32 - r))) >>> 0] : [h, l];
};

const xor = (a, b) => [(a[0] ^ b[0]) >>> 0, (a[1] ^ b[1]) >>> 0];
const shr = (a, n) => (n >= 32 ? [0, a[0] >>> (n - 32)] : [a[0] >>> n, ((a[1] >>> n) | (a[0] << (32 - n))) >>> 0]);
const read64 = (d, p) => [(d[p + 4] | (d[p + 5] << 8) | (d[p + 6] << 16) | (d[p + 7] << 24)) >>> 0,
  (d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | (d[p + 3] << 24)) >>> 0];
const round = (acc, input) => mul(rotl(add(acc, mul(input, P2)), 31), P1);

// The hash as [high, low] uint32 halves.
export function xxh64(data) {
  const n = data.length;
  let p = 0, h;
  if (n >= 32) {
    let v1 = add(P1, P2), v2 = P2, v3 = [0, 0], v4 = [(~P1[0] + (P1[1] === 0 ? 1 : 0)) >>> 0, (-P1[1]) >>> 0];
    for (; p + 32 <= n; p += 32) {
      v1 = round(v1, read64(data, p));
      v2 = round(v2, read64(data, p + 8));
      v3 = round(v3, read64(data, p + 16));
      v4 = round(v4, read64(data, p + 24));
    }
    h = add(add(rotl(v1, 1), rotl(v2, 7)), add(rotl(v3, 12), rotl(v4, 18)));
    for (const v of [v1, v2, v3, v4]) h = add(mul(xor(h, round([0, 0], v)), P1), P4);
  } else {
    h = P5;
  }
  h = add(h, [Math.floor(n / 2 ** 32) >>> 0, n >>> 0]);
  for (; p + 8 <= n; p += 8) h = add(mul(rotl(xor(h, round([0, 0], read64(data, p))), 27), P1), P4);
  if (p + 4 <= n) {
    const word = [0, (data[p] | (data[p + 1] << 8) | (data[p + 2] << 16) | (data[p + 3] << 24)) >>> 0];
    h = add(mul(rotl(xor(h, mul(word, P1)), 23), P2), P3);
    p += 4;
  }
  for (; p < n; p++) h = mul(rotl(xor(h, mul([0, data[p]], P5)), 11), P1);
  h = mul(xor(h, shr(h, 33)), P2);
  h = mul(xor(h, shr(h, 29)), P3);
  return xor(h, shr(h, 32));
}
