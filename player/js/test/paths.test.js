// Every shipped tree, every secret: the JavaScript player plays what the Python player plays.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadShipped, shipped } from "../src/node.js";
import { expected, readJson } from "./expected.js";

const paths = readJson(expected("paths"), "paths");

test("every tree in trees/ is shipped and loads", async () => {
  assert.deepEqual(shipped().map((n) => `${n}.msgpack.zst`), Object.keys(paths).sort());
  assert.ok(shipped().length >= 17);
});

for (const name of Object.keys(paths)) {
  test(`${name}: every secret's path is the Python player's, won with the game's own scorer`, async () => {
    const tree = await loadShipped(name);
    const { game } = tree;
    const lines = [];
    const win = game.win.join(",");
    for (const secret of game.secrets()) {
      const path = tree.path(secret);
      const history = [];
      for (const [guess, feedback] of path) {
        assert.deepEqual(tree.nextGuess(history), guess);
        assert.deepEqual(feedback, game.score(guess, secret));
        history.push([guess, feedback]);
      }
      assert.equal(path[path.length - 1][1].join(","), win);
      assert.equal(tree.nextGuess(history), null);
      const steps = path.map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`).join(", ");
      lines.push(`${game.formatCode(secret)}\t${path.length}\t${steps}`);
    }
    assert.equal(lines.length, tree.stats.secrets);
    assert.deepEqual(lines, paths[name]);
    const total = lines.reduce((sum, line) => sum + Number(line.split("\t")[1]), 0);
    assert.equal(total, tree.stats.total);
  });
}
