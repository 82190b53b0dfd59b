// Words beyond a-z, compiled by tests/test_js.py (Spanish; Ukrainian in hard mode): every secret's
// path, the help off the tree and typed words read as the Python player reads them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { readFileSync } from "node:fs";
import { FormatError, InconsistentHistory, load, loadFile } from "../src/node.js";
import { expected, readJson } from "./expected.js";

const folder = expected("alphabets"), cases = readJson(folder, "alphabets");
// Python names a character by its code point and Unicode name, 'ñ' (U+00F1 LATIN SMALL LETTER N WITH
// TILDE); this player, which carries no table of names, by its code point alone, 'ñ' (U+00F1).
const unnamed = (message) => message.replace(/\(U\+([0-9A-F]{4,6}) [^)]*\)/g, "(U+$1)");

test("the trees beyond a-z are Spanish (whole, chunked, weighted) and Ukrainian, each with its alphabet", () => {
  assert.deepEqual(Object.keys(cases).sort(), ["words-es-chunked.msgpack.zst", "words-es-weighted.msgpack.zst", "words-es.msgpack.zst",
    "words-uk-hard.msgpack.zst"]);
  for (const { params } of Object.values(cases)) assert.ok(typeof params.alphabet === "string" && [...params.alphabet].length > 26);
});

for (const [name, want] of Object.entries(cases)) {
  test(`${name}: the game, every secret's path, the help off the tree and typed words, as in Python`, async () => {
    const tree = await loadFile(join(folder, "alphabets", name)), { game } = tree;
    assert.equal(game.alphabet.join(""), want.params.alphabet);
    assert.equal(game.capitals.join(""), want.params.capitals);
    assert.deepEqual(game.params(), want.params);
    assert.equal(game.title(), want.title);
    assert.deepEqual(tree.header.version, want.version);
    assert.deepEqual(game.weights, want.weights);
    const lines = game.secrets().map((secret) => {
      const path = tree.path(secret);
      assert.deepEqual(tree.path(game.formatCode(secret)), path);  // its text read back
      return `${game.formatCode(secret)}\t${path.length}\t${path.map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`).join(", ")}`;
    });
    assert.deepEqual(lines, want.paths);
    for (const item of want.suggest) {
      for (const history of [item.history, item.text]) {
        const found = tree.candidates(history);
        assert.equal(found.length, item.candidates, JSON.stringify(item.text));
        assert.deepEqual(found.slice(0, 20), item.first);
        if ("error" in item) assert.throws(() => tree.suggest(history), (e) => e instanceof InconsistentHistory && e.message === item.error);
        else assert.deepEqual(tree.suggest(history), item.suggest, JSON.stringify(item.text));
        if ("next_error" in item) assert.throws(() => tree.nextGuess(history), { message: item.next_error });
        else assert.deepEqual(tree.nextGuess(history), item.next, JSON.stringify(item.text));
      }
    }
    for (const item of want.typed) {
      if ("error" in item) assert.throws(() => game.parseCode(item.text), { message: unnamed(item.error) }, JSON.stringify(item.text));
      else assert.deepEqual(game.parseCode(item.text), item.code, JSON.stringify(item.text));
    }
    assert.ok(want.typed.filter((item) => "error" in item).length >= 5 && want.typed.filter((item) => "code" in item).length >= 12);
  });
}

test("the Spanish tree with its alphabet, capitals or weights altered: loaded or refused as the Python reader decides", async () => {
  const altered = join(folder, "alphabets", "altered"), decisions = JSON.parse(readFileSync(join(altered, "decisions.json"), "utf8"));
  assert.ok(decisions.length >= 15 && decisions.filter((d) => d.python === "loaded").length >= 2);
  for (const { file, python } of decisions) {
    let got = "loaded";
    try {
      await load(readFileSync(join(altered, file)), file);
    } catch (error) {
      got = error instanceof FormatError ? error.message : `crashed: ${error.stack}`;
    }
    assert.equal(got, python === "loaded" ? python : unnamed(python), file);
  }
});
