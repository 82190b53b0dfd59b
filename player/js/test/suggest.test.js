// Off the tree: candidates, suggest and nextGuess give the Python player's answers for the same histories.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InconsistentHistory, loadShipped } from "../src/node.js";
import { expected, readJson } from "./expected.js";

const cases = readJson(expected("suggest"), "suggest");

for (const [name, list] of Object.entries(cases)) {
  test(`${name}: candidates, suggest and nextGuess as in Python, from arrays and from text`, async () => {
    const tree = await loadShipped(name);
    assert.ok(list.length >= 10);
    let off = 0;
    for (const item of list) {
      for (const history of [item.history, item.text]) {
        const found = tree.candidates(history);
        assert.equal(found.length, item.candidates, JSON.stringify(item.text));
        assert.deepEqual(found.slice(0, 20), item.first);
        if ("error" in item) {
          assert.throws(() => tree.suggest(history), (e) => e instanceof InconsistentHistory && e.message === item.error);
        } else {
          assert.deepEqual(tree.suggest(history), item.suggest, JSON.stringify(item.text));
        }
        if ("next_error" in item) {
          assert.throws(() => tree.nextGuess(history), (e) => e instanceof InconsistentHistory && e.message === item.next_error);
        } else {
          assert.deepEqual(tree.nextGuess(history), item.next, JSON.stringify(item.text));
        }
      }
      try { tree.nextGuess(item.history); } catch { off++; }
    }
    assert.ok(off >= 3, "the cases leave the tree");
  });
}
