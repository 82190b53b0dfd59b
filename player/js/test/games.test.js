// The games' rules and text forms, the checksum, and the errors, with values worked out by hand.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { FormatError, InconsistentHistory, inflate, load, loadShipped, makeGame } from "../src/node.js";
import { xxh64 } from "../src/xxh64.js";
import { REPO } from "./expected.js";

test("mastermind scores a repeated colour once per match, both ways round", () => {
  const game = makeGame("mastermind", {});
  assert.deepEqual(game.score([0, 0, 1, 1], [0, 1, 2, 3]), [1, 1]);  // AABB vs ABCD
  assert.deepEqual(game.score([0, 1, 2, 3], [0, 0, 1, 1]), [1, 1]);
  assert.deepEqual(game.score([0, 0, 0, 1], [1, 0, 2, 2]), [1, 1]);  // AAAB vs BACC: one A placed, B elsewhere
  assert.deepEqual(game.parseCode("1123"), [0, 0, 1, 2]);
  assert.deepEqual(game.parseCode("a b c d"), [0, 1, 2, 3]);
  assert.equal(game.formatCode([5, 4, 3, 2]), "FEDC");
  for (const [text, value] of [["2B1W", [2, 1]], ["2 1", [2, 1]], ["21", [2, 1]], ["BBW", [2, 1]], ["W", [0, 1]], ["-", [0, 0]], ["4b", [4, 0]]]) {
    assert.deepEqual(game.parseFeedback(text), value, text);
  }
  assert.throws(() => game.parseFeedback("3B1W"), { message: "'3B1W' is impossible: with 3 black the last symbol cannot be misplaced" });
  assert.throws(() => game.parseCode("ABCG"), { message: "'ABCG' uses a colour outside A-F" });
  assert.throws(() => game.parseCode("ABC"), { message: "'ABC' has 3 colours; this game has 4 holes" });
  assert.equal(game.secrets().length, 1296);
  assert.equal(makeGame("mastermind", { secret_repeats: false }).secrets().length, 360);
  assert.throws(() => makeGame("mastermind", { guess_repeats: false }), /needs --no-secret-repeats/);
});

test("bulls and cows, digits, twod", () => {
  const bulls = makeGame("bulls-cows", {});
  assert.deepEqual(bulls.score([1, 2, 3, 4], [4, 2, 1, 9]), [1, 2]);
  assert.equal(bulls.formatFeedback([1, 2]), "1A2B");
  assert.throws(() => bulls.parseCode("1123"), { message: "'1123' repeats a digit; bulls-and-cows codes have distinct digits" });
  assert.equal(bulls.secrets().length, 5040);
  assert.deepEqual(bulls.secrets()[1], [0, 1, 2, 4]);
  const digits = makeGame("digits", { length: 3 });
  assert.deepEqual(digits.score([1, 1, 2], [2, 1, 1]), [1, 2]);
  assert.deepEqual(digits.parseCode("012"), [0, 1, 2]);
  assert.equal(digits.formatFeedback([1, 2]), "1S2B");
  const twod = makeGame("twod", { size: 5 });
  assert.deepEqual(twod.score([2, 2], [1, 0]), [1, 0, 0]);
  assert.deepEqual(twod.score([2, 2], [3, 1]), [0, 0, 0]);
  assert.deepEqual(twod.parseCode("3,4"), [3, 4]);
  assert.throws(() => twod.parseCode("5,2"), { message: "'5,2' is off the grid: x and y from 0 to 4" });
  assert.throws(() => twod.parseCode("1,2,3"), { message: "'1,2,3' is not a point x,y: two numbers, x and y from 0 to 4" });
  assert.equal(twod.formatCode([3, 4]), "3,4");
  assert.deepEqual(twod.parseFeedback(">="), [0, 1, 0]);
  assert.deepEqual(twod.parseFeedback("win"), [1, 1, 1]);
  assert.throws(() => makeGame("twod", { size: 0 }), { message: "--size must be a whole number from 1 to 256, not 0" });
  assert.throws(() => makeGame("twod", { sides: 5 }), { message: "bad parameters for twod: sides (it takes size)" });
});

test("words: the official rule for repeated letters, the marks, hard mode", async () => {
  const tree = await loadShipped("wordle-hard-salet-optimal-expected-depth6");
  const { game } = tree;
  const code = (w) => game.parseCode(w);
  assert.deepEqual(game.score(code("speed"), code("abide")), [0, 0, 1, 0, 1]);  // the second E is yellow, once
  assert.deepEqual(game.score(code("abide"), code("speed")), [0, 0, 0, 1, 1]);
  assert.deepEqual(game.score(code("eerie"), code("there")), [1, 0, 1, 0, 2]);
  for (const text of ["GY---", "gybbb", "21000", "🟩🟨⬛⬛⬛", "G Y . x b"]) assert.deepEqual(game.parseFeedback(text), [2, 1, 0, 0, 0], text);
  assert.throws(() => game.parseFeedback("GGGGY"), { message: "'GGGGY' is feedback that cannot occur in words" });
  assert.throws(() => game.parseFeedback("GYWWW"), { message: "'GYWWW': W is no mark of word games (in Mastermind it means present); write Y for present, - for absent" });
  assert.throws(() => game.parseFeedback("GYQ--"), { message: "'GYQ--' is not feedback for 5-letter words: write 5 marks, G (exact), Y (present) or - (absent; also B, X or .), e.g. 'GY---', or 2/1/0, or the coloured squares" });
  assert.equal(game.formatFeedback([2, 1, 0, 0, 0]), "GY---");
  assert.equal(game.formatCode(code("Salet")), "SALET");
  assert.equal(game.secrets().length, 2315);
  assert.equal(game.allows(code("crane"), [[code("salet"), [0, 2, 0, 0, 0]]]), "hard mode: guess 1 fixed A at position 2");
  assert.equal(game.allows(code("braid"), [[code("salet"), [0, 1, 0, 0, 0]]]), null);
  assert.equal(game.allows(code("crony"), [[code("salet"), [0, 1, 0, 0, 0]]]), "hard mode: guess 1 revealed A, which this guess does not reuse");
  assert.equal(tree.game.title(), "Words of 5 letters (2315 answers, hard mode)");
});

test("XXH64 matches the reference for every tail length", () => {
  const M = (1n << 64n) - 1n;
  const P = [0x9E3779B185EBCA87n, 0xC2B2AE3D27D4EB4Fn, 0x165667B19E3779F9n, 0x85EBCA77C2B2AE63n, 0x27D4EB2F165667C5n];
  const rotl = (x, r) => ((x << BigInt(r)) | (x >> BigInt(64 - r))) & M;
  const round = (acc, x) => (rotl((acc + x * P[1]) & M, 31) * P[0]) & M;
  const u64 = (d, p) => { let v = 0n; for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(d[p + i]); return v; };
  const reference = (d) => {
    let p = 0, h;
    if (d.length >= 32) {
      const v = [(P[0] + P[1]) & M, P[1], 0n, (M + 1n - P[0]) & M];
      for (; p + 32 <= d.length; p += 32) for (let i = 0; i < 4; i++) v[i] = round(v[i], u64(d, p + 8 * i));
      h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M;
      for (const x of v) h = (((h ^ round(0n, x)) * P[0]) + P[3]) & M;
    } else h = P[4];
    h = (h + BigInt(d.length)) & M;
    for (; p + 8 <= d.length; p += 8) h = ((rotl(h ^ round(0n, u64(d, p)), 27) * P[0]) + P[3]) & M;
    if (p + 4 <= d.length) {
      const w = BigInt(d[p] | (d[p + 1] << 8) | (d[p + 2] << 16)) | (BigInt(d[p + 3]) << 24n);
      h = ((rotl(h ^ ((w * P[0]) & M), 23) * P[1]) + P[2]) & M;
      p += 4;
    }
    for (; p < d.length; p++) h = (rotl(h ^ ((BigInt(d[p]) * P[4]) & M), 11) * P[0]) & M;
    h = ((h ^ (h >> 33n)) * P[1]) & M;
    h = ((h ^ (h >> 29n)) * P[2]) & M;
    return h ^ (h >> 32n);
  };
  assert.equal(reference(new Uint8Array(0)), 0xEF46DB3751D8E999n);  // XXH64 of nothing, seed 0
  assert.equal(xxh64(new Uint8Array(0)), 0xEF46DB3751D8E999n);
  let seed = 7;
  for (let n = 0; n < 300; n += 1 + (n > 70 ? 17 : 0)) {
    const data = Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    assert.equal(xxh64(data), reference(data), `length ${n}`);
  }
});

test("a bad file is refused where the Python reader refuses it, naming the file", async () => {
  const good = readFileSync(`${REPO}tests/golden/mastermind-c3-h2-entropy.msgpack.zst`);
  const refused = async (bytes, message) => assert.rejects(load(bytes, "t.zst"), (e) => e instanceof FormatError && e.message === message);
  await refused(new Uint8Array(0), "t.zst: the file is empty");
  await refused(Uint8Array.from([1, 2, 3, 4, 5, 6]), "t.zst: not a zstd-compressed artifact (bad frame header)");
  await refused(Uint8Array.from([...good, 0]), "t.zst: the zstd data is damaged (1 bytes follow the frame)");
  const flipped = Uint8Array.from(good);
  flipped[flipped.length - 1] ^= 1;
  await refused(flipped, "t.zst: the zstd data is damaged (its checksum does not match)");
  const noChecksum = Uint8Array.from(good);
  noChecksum[4] &= ~4;
  await refused(noChecksum, "t.zst: the zstd frame has no checksum");
  assert.equal(inflate(good)[0], 0x88);  // a map of the 8 keys of FORMAT.md §2
  const tree = await load(good, "mm32");
  assert.deepEqual(tree.stats.histogram, { 1: 1, 2: 4, 3: 4 });
  assert.equal(tree.stats.total, 21);
});

test("histories: text or arrays, and errors that name the step", async () => {
  const tree = await loadShipped("mastermind-c6-h4-entropy");
  assert.deepEqual(tree.nextGuess([]), [0, 1, 2, 3]);
  const text = tree.nextGuess([["ABCD", "1B1W"]]), arrays = tree.nextGuess([[[0, 1, 2, 3], [1, 1]]]);
  assert.deepEqual(text, arrays);
  assert.throws(() => tree.nextGuess([["AABB", "1B1W"]]), (e) => e instanceof InconsistentHistory && e.message === "step 1: the tree plays ABCD here, not AABB");
  assert.throws(() => tree.nextGuess([["ABCD", "4B0W"], ["ABCD", "4B0W"]]), { message: "step 2: the game was won at step 1, yet the history goes on" });
  assert.throws(() => tree.nextGuess([["ABCD", "9B"]]), { message: "step 1: '9B' is impossible: 9 black + 0 white exceed 4 positions" });
  // arrays are checked as their text is: feedback the game cannot give is named, not "no secret left gives"
  assert.throws(() => tree.nextGuess([[[0, 1, 2, 3], [0, 5]]]), { message: "step 1: (0, 5) is feedback that cannot occur in mastermind" });
  assert.throws(() => tree.nextGuess([[[0, 1, 2, 3], [-1, 2]]]), { message: "step 1: (-1, 2) is feedback that cannot occur in mastermind" });
  assert.throws(() => tree.nextGuess("ABCD"), TypeError);
  assert.equal(tree.nextGuess([["ABCD", "4B0W"]]), null);
  assert.deepEqual(tree.path("ABCD"), [[[0, 1, 2, 3], [4, 0]]]);
  assert.deepEqual(tree.suggest([["ABCD", "4B0W"]]), null);
  assert.equal(tree.candidates([["AABB", "0B0W"]]).length, 256);  // only C D E F remain, 4^4
  assert.throws(() => tree.suggest([["AAAA", "0B0W"], ["BBBB", "0B0W"], ["CCCC", "0B0W"], ["DDDD", "0B0W"], ["EEEE", "0B0W"], ["FFFF", "0B0W"]]),
    (e) => e instanceof InconsistentHistory
      && e.message === "no secret gives all these answers: AAAA 0B0W, BBBB 0B0W, CCCC 0B0W, DDDD 0B0W, EEEE 0B0W, FFFF 0B0W");
  assert.throws(() => tree.suggest([["AAAA", "4B0W"], ["AAAA", "4B0W"]]),
    { message: "step 2: the game was won at step 1, yet the history goes on" });
  assert.deepEqual(tree.suggest([["AAAA", "0B0W"], ["BBBB", "0B0W"], ["CCCC", "0B0W"], ["DDDD", "0B0W"], ["EEEE", "4B0W"]]), null);
  assert.deepEqual(tree.suggest([["AAAA", "0B0W"], ["BBBB", "0B0W"], ["CCCC", "0B0W"], ["DDDD", "0B0W"], ["EEEE", "0B0W"]]), [5, 5, 5, 5]);
});

test("a game built as an artifact's is named as it is (the loader passes the words' digest to every game)", async () => {
  for (const name of ["mastermind-c6-h4-entropy", "digits-l4-entropy", "bulls-cows-d10-l4-minimax", "twod-s5-entropy"]) {
    const { game } = await loadShipped(name);
    assert.equal(game.name, name.split(/-[a-z]\d/)[0]);
    assert.throws(() => game.parseFeedback("lots"), (e) => e.message.startsWith(`'lots' is not `) && e.message.includes(game.name));
  }
});
