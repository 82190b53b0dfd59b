// Words of any alphabet and weighted answers (trees/FORMAT.md §2.1, issue 68), on games built by
// hand: the alphabet and capitals checked, words by code point, typed words read, hostile
// parameters refused; the weights parsed exactly and followed by the help off the tree.
// tests/test_js.py holds the same games, compiled, against the Python player.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { FormatError, Tree, makeGame } from "../src/node.js";
import { Float } from "../src/games.js";
import { bestGuess } from "../src/advice.js";

const AZ = "abcdefghijklmnopqrstuvwxyz";
const sha = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const digest = (text) => sha(text);  // what index.js gives a words game: the sha256 of its canonical answer list
const canonical = (words) => words.map((w) => `${w}\n`).join("");
const SPANISH = "abcdefghijklmnopqrstuvwxyzáéíñóúü", SPANISH_CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÑÓÚÜ";
const UKRAINIAN = "абвгдежзийклмнопрстуфхцчшщьюяєіїґ", UKRAINIAN_CAPITALS = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЬЮЯЄІЇҐ";

function words(answers, { guesses = [], alphabet, capitals, length, ...rest } = {}) {
  const params = { hard: false, length: length ?? [...answers[0]].length, answers_sha256: sha(canonical(answers)),
    guesses_sha256: sha(canonical([...answers, ...guesses])), answer_words: answers.join(" "), guess_words: guesses.join(" "), ...rest };
  if (alphabet !== undefined) Object.assign(params, { alphabet, capitals });
  return makeGame("words", params, digest);
}
const spanish = (answers, options = {}) => words(answers, { alphabet: SPANISH, capitals: SPANISH_CAPITALS, ...options });

test("Spanish: codes are indices into the alphabet, words shown by their capitals, typed in either case or decomposed", () => {
  const game = spanish(["cañón", "niños", "ñandú"]);
  assert.equal(game.symbols, 33);
  assert.deepEqual(game.secrets()[0], [2, 0, 29, 30, 13]);  // c a ñ ó n
  assert.equal(game.formatCode(game.secrets()[2]), "ÑANDÚ");
  for (const typed of ["ÑANDÚ", "ñandú", "ÑaNdÚ", " n\u0303andu\u0301 ", "N\u0303ANDU\u0301"]) {
    assert.deepEqual(game.parseCode(typed), game.secrets()[2], typed);
  }
  assert.throws(() => game.parseCode("NIÑA9"), { message: `'NIÑA9' is not a word: '9' (U+0039) is not one of this game's letters (${[...SPANISH].join(" ")})` });
  assert.throws(() => game.parseCode("niñaß"), { message: `'niñaß' is not a word: 'ß' (U+00DF) is not one of this game's letters (${[...SPANISH].join(" ")})` });
  assert.throws(() => game.parseCode("niño"), { message: "'niño' has 4 symbols; this game's codes have 5" });
  assert.equal(game.letterOf("Ñ"), 29);
  assert.equal(game.letterOf("ñ"), 29);
  assert.equal(game.letterOf("ç"), -1);
  assert.deepEqual(game.params(), { hard: false, length: 5, answers_sha256: sha("cañón\nniños\nñandú\n"),
    guesses_sha256: sha("cañón\nniños\nñandú\n"), answer_words: "cañón niños ñandú", guess_words: "", alphabet: SPANISH, capitals: SPANISH_CAPITALS });
  // the marks are the same as ever: N and Ñ of NIÑOS are elsewhere in ÑANDÚ, and N is not Ñ
  const [canon, ninos, nandu] = game.secrets();
  assert.deepEqual(game.score(ninos, nandu), [1, 0, 1, 0, 0]);
  assert.deepEqual(game.score(canon, nandu), [0, 2, 1, 0, 1]);
  assert.equal(game.formatFeedback(game.score(canon, nandu)), "-GY-Y");
});

test("Ukrainian: Cyrillic letters, hard mode's messages in capitals, the a-z tree unchanged", () => {
  const game = words(["жінка", "книга", "їжака"], { alphabet: UKRAINIAN, capitals: UKRAINIAN_CAPITALS, hard: true });
  assert.deepEqual(game.secrets().map((c) => game.formatCode(c)), ["ЖІНКА", "КНИГА", "ЇЖАКА"]);
  const history = [[game.parseCode("жінка"), [0, 0, 0, 2, 2]]];
  assert.equal(game.allows(game.parseCode("книга"), history), "hard mode: guess 1 fixed К at position 4");
  const revealed = [[game.parseCode("їжака"), [1, 0, 0, 0, 0]]];
  assert.equal(game.allows(game.parseCode("книга"), revealed), "hard mode: guess 1 revealed Ї, which this guess does not reuse");
  assert.deepEqual(game.guessesAfter(revealed), [game.parseCode("ЇЖАКА")]);
  assert.throws(() => game.parseCode("KНИГА"), (e) => e.message.startsWith("'KНИГА' is not a word: 'K' (U+004B) is not one of this game's letters (а б в"));
  const az = words(["crane", "salet"]);  // no alphabet: a-z, as every tree before
  assert.equal(az.symbols, 26);
  assert.deepEqual(az.parseCode("Salet"), [18, 0, 11, 4, 19]);
  assert.throws(() => az.parseCode("niños"), { message: "'niños' is not a word: use the letters a-z" });
  assert.equal(Object.hasOwn(az.params(), "alphabet"), false);
});

test("words sort by code point, not by UTF-16 unit; a length is counted in code points", () => {
  // U+FF5A (ｚ) comes before U+10428 (𐐨) by code point, after it by UTF-16 unit (0xD801 ...)
  const options = { alphabet: "aｚ𐐨", capitals: "Aｚ𐐀" };
  const game = words(["aｚ", "a𐐨", "𐐨a"], options);
  assert.equal(game.length, 2);
  assert.deepEqual(game.secrets(), [[0, 1], [0, 2], [2, 0]]);
  assert.equal(game.formatCode([0, 2]), "A𐐀");
  assert.deepEqual(game.parseCode("a𐐀"), [0, 2]);
  assert.throws(() => words(["a𐐨", "aｚ"], { ...options, length: 2 }), { message: "answer_words is not a sorted list of distinct words of 2 letters of its alphabet" });
  // the guesses merged with the answers in the same order
  const merged = words(["aｚ", "𐐨a"], { ...options, guesses: ["a𐐨", "𐐨𐐨"] });
  assert.deepEqual(merged.guesses(), [[0, 1], [0, 2], [2, 0], [2, 2]]);
});

test("a hostile alphabet, capitals or word list is refused with one clear message", () => {
  const refused = (options, message, answers = ["ab"]) => assert.throws(() => words(answers, { length: 2, ...options }), { message });
  const order = "alphabet must be 1 to 255 distinct letters in code point order";
  refused({ alphabet: "ba", capitals: "BA" }, order);
  refused({ alphabet: "aab", capitals: "ABC" }, order);
  refused({ alphabet: "", capitals: "" }, order);
  const many = Array.from({ length: 256 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");  // CJK ideographs: letters without case
  refused({ alphabet: many, capitals: many }, order);
  assert.equal(words(["\u4e00\u4e01"], { alphabet: many.slice(0, 255), capitals: many.slice(0, 255) }).symbols, 255);
  refused({ alphabet: "1ab", capitals: "1AB" }, "alphabet holds '1' (U+0031), which is not a letter in lower case and NFC");
  refused({ alphabet: "Aab", capitals: "XYZ" }, "alphabet holds 'A' (U+0041), which is not a letter in lower case and NFC");
  refused({ alphabet: "ab\u0340", capitals: "AB\u0340" }, "alphabet holds '\u0340' (U+0340), which is not a letter in lower case and NFC");
  const text = "alphabet and capitals must both be text";
  refused({ alphabet: "ab" }, text);
  refused({ alphabet: 7, capitals: "AB" }, text);
  const lonely = { ...words(["ab"]).params(), capitals: "AB" };  // capitals without an alphabet
  assert.throws(() => makeGame("words", lonely, digest), { message: text });
  const one = "capitals must be one distinct letter for each letter of the alphabet";
  refused({ alphabet: "ab", capitals: "A" }, one);
  refused({ alphabet: "ab", capitals: "AA" }, one);
  refused({ alphabet: "ab", capitals: "A-" }, one);
  refused({ alphabet: "ab", capitals: "bA" }, "a capital is another letter of the alphabet");
  refused({ alphabet: "ab", capitals: "AB" }, "answer_words is not a sorted list of distinct words of 2 letters of its alphabet", ["ac"]);
  refused({ alphabet: "abñ", capitals: "ABÑ" }, "answer_words is not a sorted list of distinct words of 2 letters of its alphabet", ["a\u00f1x"]);
  assert.ok(words(["añ"], { length: 2, alphabet: "abñ", capitals: "ABÑ" }));
  // as a tree's header holds them: a FormatError naming the file, never a crash
  for (const [alphabet, capitals] of [["ba", "BA"], [null, "AB"], ["ab", 3], ["ab", "AA"], ["a\u{10428}", "A"]]) {
    const game = { name: "words", params: { hard: false, length: 2, answers_sha256: sha("ab\n"), guesses_sha256: sha("ab\n"),
      answer_words: "ab", guess_words: "", alphabet, capitals } };
    assert.throws(() => new Tree(tinyHeader(game), tinyBody(), { name: "t.zst", listDigest: digest }),
      (e) => e instanceof FormatError && e.message.startsWith("t.zst: cannot rebuild the game 'words': "), `${alphabet} ${capitals}`);
  }
  // a-z written out: the game's own alphabet, which a tree never writes (as player/header.py, refused as not written so)
  const az = { name: "words", params: { hard: false, length: 2, answers_sha256: sha("ab\n"), guesses_sha256: sha("ab\n"),
    answer_words: "ab", guess_words: "", alphabet: AZ, capitals: AZ.toUpperCase() } };
  assert.throws(() => new Tree(tinyHeader(az), tinyBody(), { name: "t.zst", listDigest: digest }),
    (e) => e instanceof FormatError && e.message === `t.zst: the game 'words' does not take alphabet='${AZ}' as written`);
});

const tinyHeader = (game) => ({ format: "guesstree", version: [1, 3], game, strategy: { name: "entropy" }, producer: "test",
  stats: { secrets: 1, total: 1, average: 1, worst: 1, histogram: [[1, 1]], determined_total: 1, determined_average: 1,
    determined_worst: 1, determined_histogram: [[1, 1]] } });
const tinyBody = () => ({ nodes: 1, code_length: 2, feedback_width: 1, feedbacks: [[2, 2]], guess: Uint8Array.from([0, 1]),
  edge_count: Uint8Array.from([0]), edge_feedback: new Uint8Array(0) });

test("a tree of Spanish words plays, shows and reads its words", () => {
  const game = { name: "words", params: { hard: false, length: 2, answers_sha256: sha("añ\n"), guesses_sha256: sha("añ\n"),
    answer_words: "añ", guess_words: "", alphabet: "añ", capitals: "AÑ" } };
  const tree = new Tree(tinyHeader(game), tinyBody(), { name: "t.zst", listDigest: (text) => (text === "añ\n" ? sha(text) : undefined) });
  assert.equal(tree.game.formatCode(tree.nextGuess([])), "AÑ");
  assert.equal(tree.nextGuess([["añ", "GG"]]), null);
  assert.deepEqual(tree.path("AÑ"), [[[0, 1], [2, 2]]]);
  // a parameter the game does not take as written (player/header.py refuses it so too): every weight 1 is no weights
  const written = { ...game, params: { ...game.params, answer_weights: "1" } };
  assert.throws(() => new Tree(tinyHeader(written), tinyBody(), { name: "t.zst", listDigest: (text) => sha(text) }),
    (e) => e instanceof FormatError && e.message === "t.zst: the game 'words' does not take answer_weights='1' as written");
});

test("answer_weights: one positive decimal a word, as the fewest digits say it, kept exact; anything else refused", () => {
  const game = words(["bat", "cat", "hat"], { answer_weights: "1 0.25 30" });
  assert.deepEqual(game.weights, [1, 0.25, 30]);
  assert.deepEqual(game.secrets().map((c) => game.wholeWeight(c)), [100n, 25n, 3000n]);
  assert.equal(game.params().answer_weights, "1 0.25 30");
  assert.equal(game.title(), "Words of 3 letters (3 answers, weighted)");
  assert.equal(words(["bat", "cat"]).weights, null);
  assert.equal(words(["bat", "cat"]).wholeWeight([1, 0, 19]), null);
  assert.equal(makeGame("mastermind", {}).weights, null);
  // every weight 1: no weights, and the parameter is not the game's (a tree that writes it is refused as not written so)
  const ones = words(["bat", "cat"], { answer_weights: "1 1" });
  assert.equal(ones.weights, null);
  assert.equal(Object.hasOwn(ones.params(), "answer_weights"), false);
  const message = "answer_weights is not 2 weights, one per answer word, as decimal text one space apart (e.g. '1 0.25 3')";
  const refused = (weights) => assert.throws(() => words(["bat", "cat"], { answer_weights: weights }), { message }, String(weights));
  for (const bad of ["1", "1 2 3", "1  2", "1\t2", "", 2, true]) refused(bad);
  for (const bad of ["-1", "+1", "1e3", "1.", ".5", "1,5", "0x1", "Infinity", "NaN", "١", "½", "0", "0.0", "0.50", "1.0", "01", "00.5"]) {
    refused(`2 ${bad}`);
  }
  assert.deepEqual(words(["bat", "cat"], { answer_weights: "0.5 10" }).weights, [0.5, 10]);
});

test("help off the tree follows the weights: the heavier of two, and ties in parts to the heavier secret", () => {
  const code = (game, w) => game.parseCode(w);
  const plain = words(["bat", "cat", "hat"]);
  // each of the three splits the others into 2 parts: without weights, the first; with them, the heaviest
  assert.deepEqual(bestGuess(plain, 9, [], plain.secrets()), code(plain, "bat"));
  const heavy = words(["bat", "cat", "hat"], { answer_weights: "1 1 5" });
  assert.deepEqual(bestGuess(heavy, 9, [], heavy.secrets()), code(heavy, "hat"));
  const tied = words(["bat", "cat", "hat"], { answer_weights: "2 3 3" });
  assert.deepEqual(bestGuess(tied, 9, [], tied.secrets()), code(tied, "cat"));  // ties in weight: the lowest code
  // a guess that splits them further still wins, weights or not
  const split = words(["bat", "cat", "hat"], { guesses: ["bch"], answer_weights: "1 1 5" });
  assert.deepEqual(bestGuess(split, 9, [], split.secrets()), code(split, "bch"));
  // two left: the heavier first, exactly (these two weights are one float, but not one number)
  const two = words(["bat", "cat"], { answer_weights: "0.1 0.10000000000000000001" });
  assert.deepEqual(bestGuess(two, 9, [], two.secrets()), code(two, "cat"));
  const even = words(["bat", "cat"], { answer_weights: "0.5 0.5" });
  assert.deepEqual(bestGuess(even, 9, [], even.secrets()), code(even, "bat"));
  assert.deepEqual(bestGuess(plain, 9, [], plain.secrets().slice(1)), code(plain, "cat"));
});

test("a weighted tree's statistics: the three weighted figures, all or none, each a positive number", () => {
  const game = { name: "words", params: { hard: false, length: 2, answers_sha256: sha("ab\n"), guesses_sha256: sha("ab\n"),
    answer_words: "ab", guess_words: "", answer_weights: "2.5" } };
  const header = (weighted) => { const h = tinyHeader(game); Object.assign(h.stats, weighted); return h; };
  const load = (weighted) => new Tree(header(weighted), tinyBody(), { name: "t.zst", listDigest: digest });
  const figures = { weighted_total: new Float(2.5), weighted_mean: new Float(1), total_weight: new Float(2.5) };
  const tree = load(figures);
  assert.deepEqual([tree.stats.weighted_total, tree.stats.weighted_mean, tree.stats.total_weight], [2.5, 1, 2.5]);
  assert.deepEqual(tree.game.weights, [2.5]);
  assert.equal(load({}).stats.weighted_mean, undefined);  // (verify, not the reader, holds a weighted game to them)
  const refused = (weighted, message) => assert.throws(() => load(weighted), (e) => e instanceof FormatError && e.message === `t.zst: ${message}`);
  refused({ weighted_mean: new Float(1) }, "the header's statistics have 'weighted_mean' but not 'weighted_total'");
  refused({ ...figures, total_weight: new Float(-1) }, "the statistic 'total_weight' is -1.0, not a positive number");
  refused({ ...figures, weighted_total: 0 }, "the statistic 'weighted_total' is 0, not a positive number");
  refused({ ...figures, weighted_mean: true }, "the statistic 'weighted_mean' is True, not a positive number");
  refused({ ...figures, weighted_mean: "1" }, "the statistic 'weighted_mean' is '1', not a positive number");
  refused({ ...figures, weighted_mean: new Float(Infinity) }, "the statistic 'weighted_mean' is inf, not a positive number");
});
