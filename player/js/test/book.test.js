// The opening book (player/book.py): a first guess's class, and suggest playing the book's optimum
// after a first guess of one's own, from the shipped book (Node) or from trees given to useBook.
import assert from "node:assert/strict";
import { test } from "node:test";
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { FormatError, bookIn, bookOf, loadFile, loadShipped, makeGame } from "../src/node.js";
import { classOf, gameKey } from "../src/advice.js";
import { REPO } from "./expected.js";

// Every secret played from opener, then by suggest: [total, worst].
function follow(tree, opener) {
  const { game } = tree, win = game.win.join();
  let total = 0, worst = 0;
  const walk = (history, secrets) => {
    const guess = history.length ? tree.suggest(history) : game.parseCode(opener);
    const parts = new Map();
    for (const secret of secrets) {
      const feedback = game.score(guess, secret), key = feedback.join();
      if (!parts.has(key)) parts.set(key, [feedback, []]);
      parts.get(key)[1].push(secret);
    }
    for (const [key, [feedback, part]] of parts) {
      if (key === win) {
        total += history.length + 1;
        worst = Math.max(worst, history.length + 1);
      } else {
        walk([...history, [guess, feedback]], part);
      }
    }
  };
  walk([], game.secrets());
  return [total, worst];
}

test("a first guess goes to the first code of its class, and back", () => {
  const game = makeGame("mastermind", {});
  for (const [code, first] of [["ABAC", "AABC"], ["FEDC", "ABCD"], ["BBAB", "AAAB"], ["EEEE", "AAAA"], ["CFFC", "AABB"], ["DCCE", "AABC"]]) {
    const [canonical, , back] = classOf(game.parseCode(code), game.symbols);
    assert.equal(game.formatCode(canonical), first, code);
    assert.deepEqual(back(canonical), game.parseCode(code));
  }
});

test("the game's key is Python's: sorted keys, no carried word lists", () => {
  assert.equal(gameKey({ params: { holes: 4, colours: 6 }, name: "mastermind" }),
    '{"name":"mastermind","params":{"colours":6,"holes":4}}');
  assert.equal(gameKey({ name: "words", params: { hard: false, answer_words: "aback", guess_words: "" } }),
    '{"name":"words","params":{"hard":false}}');
});

test("Mastermind: after any first guess, suggest plays that class's optimum from the shipped book", async () => {
  const tree = await loadShipped("mastermind-c6-h4-entropy");
  for (const [opener, optimum] of [["EEEE", [6318, 6]], ["DDFD", [5791, 6]], ["CBCA", [5625, 6]], ["FEDC", [5673, 6]]]) {
    assert.deepEqual(follow(tree, opener), optimum, opener);
  }
});

test("Bulls and Cows after 1234: the book's optimum; with an empty book, the optimal tree itself, carried from its 0123", async () => {
  const tree = await loadFile(`${REPO}trees/bulls-cows-d10-l4-optimal-expected.msgpack.zst`);
  assert.deepEqual(follow(tree, "1234"), [26274, 7]);
  assert.deepEqual(follow(tree.useBook(bookOf([])), "1234"), [26274, 7]);
});

test("useBook: trees given by hand (a browser's), or none", async () => {
  const tree = await loadShipped("mastermind-c6-h4-entropy");
  const history = [["AAAA", "0B0W"]];
  const booked = tree.suggest(history);
  tree.useBook(null);
  const alone = tree.suggest(history);
  assert.notDeepEqual(alone, booked);
  const opening = await loadFile(`${REPO}trees/book/mastermind-c6-h4-optimal-expected-first-aaaa.msgpack.zst`);
  tree.useBook(bookOf([opening]));
  assert.deepEqual(tree.suggest(history), booked);
  assert.deepEqual(booked, opening.nextGuess(history));
  assert.throws(() => tree.useBook([opening]), /useBook takes a function or null/);
});

test("a damaged book is refused by name: its index, a file it lists that is missing or damaged", async () => {
  const tree = await loadShipped("mastermind-c6-h4-entropy"), history = [["AAAA", "0B0W"]];
  const aaaa = "mastermind-c6-h4-optimal-expected-first-aaaa.msgpack.zst";
  const cases = [
    ["{not json", null, /^BOOK.json: not JSON/],
    ['{"format": "other", "openings": []}', null, /^BOOK.json: not a guesstree-book index$/],
    ['{"format": "guesstree-book", "openings": [{"file": "../x.msgpack.zst", "first": "A", "game": {}}]}', null,
      /^BOOK.json: opening 1 is not a file, a game and a first guess$/],
    [`{"format": "guesstree-book", "openings": ${" ".repeat(1 << 20)}[]}`, null, /^BOOK.json: larger than a book's index may be/],
    [readFileSync(`${REPO}trees/book/BOOK.json`, "utf8"), null, /^book\/mastermind.*aaaa.msgpack.zst: listed in BOOK.json but cannot be read \(ENOENT\)$/],
    [readFileSync(`${REPO}trees/book/BOOK.json`, "utf8"), "not zstd", /^book\/mastermind.*aaaa.msgpack.zst: not a zstd-compressed artifact/],
  ];
  for (const [index, file, why] of cases) {
    const folder = mkdtempSync(join(tmpdir(), "book-"));
    writeFileSync(join(folder, "BOOK.json"), index);
    if (file !== null) writeFileSync(join(folder, aaaa), file);
    tree.useBook(bookIn(folder));
    assert.throws(() => tree.suggest(history), (e) => e instanceof FormatError && why.test(e.message), String(why));
  }
  const folder = mkdtempSync(join(tmpdir(), "book-"));  // a whole book in another folder
  writeFileSync(join(folder, "BOOK.json"), readFileSync(`${REPO}trees/book/BOOK.json`));
  copyFileSync(`${REPO}trees/book/${aaaa}`, join(folder, aaaa));
  const opening = await loadFile(`${REPO}trees/book/${aaaa}`);
  assert.deepEqual(tree.useBook(bookIn(folder)).suggest(history), opening.nextGuess(history));
  assert.deepEqual(tree.useBook(bookIn(pathToFileURL(folder))).suggest(history), opening.nextGuess(history));
});
