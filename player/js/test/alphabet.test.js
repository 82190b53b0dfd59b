// Words of any alphabet and weighted answers (trees/FORMAT.md §2.1, issue 68), on games built by
// hand: the alphabet and capitals checked, words by code point, typed words read, hostile
// parameters refused; the weights parsed exactly and followed by the help off the tree.
// tests/test_js.py holds the same games, compiled, against the Python player.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { FormatError, Tree, makeGame } from "../src/node.js";
import { bestGuess } from "../src/advice.js";

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
  assert.throws(() => game.parseCode("NIÑA9"), { message: `'NIÑA9' is not a word: '9' is not one of this game's letters (${[...SPANISH].join(" ")})` });
  assert.throws(() => game.parseCode("niñaß"), { message: `'niñaß' is not a word: 'ß' is not one of this game's letters (${[...SPANISH].join(" ")})` });
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
  assert.throws(() => game.parseCode("KНИГА"), (e) => e.message.startsWith("'KНИГА' is not a word: 'K' is not one of this game's letters (а б в"));
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
  refused({ alphabet: "ba", capitals: "BA" }, "the alphabet's letters are not distinct and in code point order");
  refused({ alphabet: "aab", capitals: "ABC" }, "the alphabet's letters are not distinct and in code point order");
  refused({ alphabet: "ab1", capitals: "AB1" }, "the alphabet holds '1' (U+0031), which is not a letter in its lower form");
  refused({ alphabet: "Aab", capitals: "XYZ" }, "the alphabet holds 'A' (U+0041), which is not a letter in its lower form");
  refused({ alphabet: "ab\u0340", capitals: "AB\u0340" }, "the alphabet holds '\u0340' (U+0340), which is not a letter in its lower form");  // not NFC
  refused({ alphabet: "", capitals: "" }, "the alphabet has 0 letters (1 to 255)");
  const many = Array.from({ length: 256 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");  // CJK ideographs: letters without case
  refused({ alphabet: many, capitals: many }, "the alphabet has 256 letters (1 to 255)");
  refused({ alphabet: "ab" }, "alphabet and capitals go together, both as text");
  const lonely = { ...words(["ab"]).params(), capitals: "AB" };  // capitals without an alphabet
  assert.throws(() => makeGame("words", lonely, digest), { message: "alphabet and capitals go together, both as text" });
  refused({ alphabet: 7, capitals: "AB" }, "alphabet and capitals go together, both as text");
  refused({ alphabet: "ab", capitals: "A" }, "capitals has 1 letters, the alphabet 2");
  refused({ alphabet: "ab", capitals: "AA" }, "capitals repeats a letter: typed words would be ambiguous");
  refused({ alphabet: "ab", capitals: "bA" }, "capitals shows another letter as 'b', a letter of the alphabet: typed words would be ambiguous");
  refused({ alphabet: "ab", capitals: "A-" }, "capitals holds '-' (U+002D), which is not a letter");
  refused({ alphabet: "ab", capitals: "AB" }, "answer_words is not a sorted list of distinct words of 2 letters of its alphabet", ["ac"]);
  refused({ alphabet: "abñ", capitals: "ABÑ" }, "answer_words is not a sorted list of distinct words of 2 letters of its alphabet", ["an\u0303"]);  // not NFC
  assert.ok(words(["añ"], { length: 2, alphabet: "abñ", capitals: "ABÑ" }));
  // as a tree's header holds them: a FormatError naming the file, never a crash
  for (const [alphabet, capitals] of [["ba", "BA"], [null, "AB"], ["ab", 3], ["ab", "AA"], ["a\u{10428}", "A"]]) {
    const game = { name: "words", params: { hard: false, length: 2, answers_sha256: sha("ab\n"), guesses_sha256: sha("ab\n"),
      answer_words: "ab", guess_words: "", alphabet, capitals } };
    assert.throws(() => new Tree(tinyHeader(game), tinyBody(), { name: "t.zst", listDigest: digest }),
      (e) => e instanceof FormatError && e.message.startsWith("t.zst: cannot rebuild the game 'words': "), `${alphabet} ${capitals}`);
  }
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
  // a parameter the game does not take as written (Python's reader refuses it so too)
  const written = { ...game, params: { ...game.params, answer_weights: "1" } };
  assert.ok(new Tree(tinyHeader(written), tinyBody(), { name: "t.zst", listDigest: (text) => sha(text) }));
});

test("answer_weights: one positive decimal a word, kept exact; anything else refused", () => {
  const game = words(["bat", "cat", "hat"], { answer_weights: "1 0.25 30" });
  assert.deepEqual(game.weights, [1, 0.25, 30]);
  assert.deepEqual(game.secrets().map((c) => game.wholeWeight(c)), [100n, 25n, 3000n]);
  assert.equal(game.params().answer_weights, "1 0.25 30");
  assert.equal(words(["bat", "cat"]).weights, null);
  assert.equal(words(["bat", "cat"]).wholeWeight([1, 0, 19]), null);
  assert.equal(makeGame("mastermind", {}).weights, null);
  const refused = (weights, message) => assert.throws(() => words(["bat", "cat"], { answer_weights: weights }), { message });
  refused("1", "answer_weights holds 1 weights for 2 answer words");
  refused("1 2 3", "answer_weights holds 3 weights for 2 answer words");
  refused("1  2", "answer_weights holds 3 weights for 2 answer words");
  refused("1\t2", "answer_weights holds 1 weights for 2 answer words");
  for (const bad of ["-1", "+1", "1e3", "1.", ".5", "1,5", "0x1", "Infinity", "NaN", "١", "½"]) {
    refused(`2 ${bad}`, `answer_weights holds '${bad}', which is not a positive decimal number`);
  }
  refused("2 0", "answer_weights holds '0': a weight is positive");
  refused("2 0.000", "answer_weights holds '0.000': a weight is positive");
  refused(2, "answer_weights must be text, not 2");
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
  const even = words(["bat", "cat"], { answer_weights: "0.5 0.50" });
  assert.deepEqual(bestGuess(even, 9, [], even.secrets()), code(even, "bat"));
  assert.deepEqual(bestGuess(plain, 9, [], plain.secrets().slice(1)), code(plain, "cat"));
});
