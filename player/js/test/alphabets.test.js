// Words beyond a-z, compiled by tests/test_js.py (Spanish; Ukrainian in hard mode): every secret's
// path, the help off the tree and typed words read as the Python player reads them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { InconsistentHistory, loadFile } from "../src/node.js";
import { expected, readJson } from "./expected.js";

const folder = expected("alphabets"), cases = readJson(folder, "alphabets");

test("the trees beyond a-z are Spanish and Ukrainian, each with its alphabet", () => {
  assert.deepEqual(Object.keys(cases).sort(), ["words-es.msgpack.zst", "words-uk-hard.msgpack.zst"]);
  for (const { params } of Object.values(cases)) assert.ok(typeof params.alphabet === "string" && [...params.alphabet].length > 26);
});

for (const [name, want] of Object.entries(cases)) {
  test(`${name}: the game, every secret's path, the help off the tree and typed words, as in Python`, async () => {
    const tree = await loadFile(join(folder, "alphabets", name)), { game } = tree;
    assert.equal(game.alphabet.join(""), want.params.alphabet);
    assert.equal(game.capitals.join(""), want.params.capitals);
    assert.deepEqual(game.params(), want.params);
    assert.equal(game.title(), want.title);
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
      if ("error" in item) assert.throws(() => game.parseCode(item.text), { message: item.error }, JSON.stringify(item.text));
      else assert.deepEqual(game.parseCode(item.text), item.code, JSON.stringify(item.text));
    }
    assert.ok(want.typed.filter((item) => "error" in item).length >= 5 && want.typed.filter((item) => "code" in item).length >= 12);
  });
}
