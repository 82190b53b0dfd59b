// Hostile files (scripts/fuzz.py --corpus): refused or accepted as the Python reader decides.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { FormatError, load, loadFile } from "../src/node.js";
import { REPO, expected, readJson } from "./expected.js";

const root = expected("hostile"), folder = join(root, "hostile");
const decisions = readJson(root, "hostile");

test("the corpus holds loadable and refused files of every kind", () => {
  assert.ok(decisions.length >= 100);
  assert.ok(decisions.filter((d) => d.python === "loaded").length >= 7);
  assert.ok(new Set(decisions.map((d) => d.kind)).size >= 10);
});

test("every hostile file gets the Python reader's decision, refusals as FormatError naming the file", async () => {
  const wrong = [];
  for (const decision of decisions) {
    let got, message = null;
    try {
      const tree = await load(readFileSync(join(folder, decision.file)), decision.file);
      for (let node = 0; node < tree.nodes; node++) tree.edges(node);  // a chunked tree reads its chunks as lookups need them
      got = "loaded";
    } catch (error) {
      got = error instanceof FormatError ? "refused" : `crashed (${error.constructor.name})`;
      message = error.message;
      if (got === "refused" && !message.startsWith(`${decision.file}: `)) got = "refused without naming the file";
    }
    if (got !== decision.js) wrong.push(`${decision.file}: expected ${decision.js}, got ${got}: ${message} (Python: ${decision.message})`);
  }
  assert.deepEqual(wrong, []);
});

test("load takes bytes: a path is said to be one, and loadFile reads it", async () => {
  await assert.rejects(load("trees/t.msgpack.zst"), (e) => e instanceof TypeError && e.message ===
    'load takes a file\'s bytes (a Uint8Array or ArrayBuffer), not the string "trees/t.msgpack.zst": in Node, loadFile(path); in a browser, the bytes of fetch(url)');
  await assert.rejects(loadFile(`${REPO}trees/none.msgpack.zst`), (e) => e instanceof FormatError && e.message.endsWith("none.msgpack.zst: no such file"));
  const tree = await loadFile(`${REPO}trees/mastermind-c6-h4-entropy.msgpack.zst`);
  assert.equal(tree.stats.total, 5722);
  assert.equal(tree.name, `${REPO}trees/mastermind-c6-h4-entropy.msgpack.zst`);
});
