// Chunked artifacts (trees/FORMAT.md §10), written by the Python player: every secret's path is the
// Python player's, chunks are read as lookups need them, and a damaged chunk is refused when read.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FormatError, load, loadFile } from "../src/node.js";
import { expected, readJson } from "./expected.js";

const root = expected("chunked"), folder = join(root, "chunked"), paths = readJson(root, "chunked");

for (const name of Object.keys(paths)) {
  test(`${name}, chunked: every secret's path is the Python player's`, async () => {
    const tree = await loadFile(join(folder, name));
    const { game } = tree, lines = [];
    for (const secret of game.secrets()) {
      const path = tree.path(secret), history = [];
      for (const [guess, feedback] of path) {
        assert.deepEqual(tree.nextGuess(history), guess);
        history.push([guess, feedback]);
      }
      lines.push(`${game.formatCode(secret)}\t${path.length}\t${path.map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`).join(", ")}`);
    }
    assert.deepEqual(lines, paths[name]);
  });
}

test("a chunked tree whose second chunk is damaged loads, and refuses the lookup that reads it", async () => {
  const tree = await load(readFileSync(join(folder, "damaged.msgpack.zst")), "d.zst");
  assert.ok(tree.guessOf(0).length > 0);
  assert.throws(() => { for (let node = 0; node < tree.nodes; node++) tree.edges(node); },
    (e) => e instanceof FormatError && e.message.startsWith("d.zst: chunk 1: "));
});
