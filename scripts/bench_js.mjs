// The JavaScript player's budgets (issue 21): code size minified, a browser bundle with its
// dependencies, nextGuess and loading the Wordle tree in Node, suggest after an off-tree guess.
// Prints JSON. Needs `npm ci` in player/js (esbuild is a devDependency); bundles in memory only.
//
//   node scripts/bench_js.mjs
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const JS = new URL("../player/js/", import.meta.url);
const { build } = await import(new URL("node_modules/esbuild/lib/main.js", JS).href);
const { load } = await import(new URL("src/index.js", JS).href);

// Standard minification, with the package's internal properties (named with a leading _, none in
// the API or in the two libraries) renamed as local names are.
async function minified(entry, options) {
  const result = await build({ entryPoints: [new URL(entry, JS).pathname], bundle: true, minify: true, write: false,
    mangleProps: /^_/, format: "esm", platform: "browser", logLevel: "silent", ...options });
  const code = result.outputFiles[0].contents;
  return { bytes: code.length, gzip_bytes: gzipSync(code).length };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function microseconds(f, calls = 100_000, rounds = 7) {
  for (let i = 0; i < calls / 10; i++) f();
  return median(Array.from({ length: rounds }, () => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) f();
    return ((performance.now() - start) * 1000) / calls;
  }));
}

const external = ["fzstd", "@msgpack/msgpack"];
const own = await minified("src/index.js", { external });
const core = await minified("src/core.js", {});
const bundle = await minified("src/index.js", {});

const wordle = readFileSync(new URL("../trees/wordle-salet-optimal-expected.msgpack.zst", import.meta.url));
const started = performance.now();
const tree = await load(wordle, "wordle");
const firstLoad = performance.now() - started;
const loads = [];
for (let i = 0; i < 30; i++) {
  const start = performance.now();
  await load(wordle, "wordle");
  loads.push(performance.now() - start);
}
const secret = tree.game.parseCode("light");
const path = tree.path(secret);
const arrays = path.slice(0, -1);
const text = arrays.map(([g, f]) => [tree.game.formatCode(g), tree.game.formatFeedback(f)]);
const offTree = [["CRANE", tree.game.formatFeedback(tree.game.score(tree.game.parseCode("crane"), secret))]];
const suggests = [];
for (let i = 0; i < 9; i++) {
  const start = performance.now();
  tree.suggest(offTree);
  suggests.push(performance.now() - start);
}
const cold = [["ZZZZZ", "-----"]];  // an off-tree guess that rules out nothing: every answer a candidate
const coldStart = performance.now();
tree.suggest(cold, { anyGuess: true });
const coldSuggest = performance.now() - coldStart;

console.log(JSON.stringify({
  node: process.version,
  own_code_minified: { ...own, budget_bytes: 15_000, what: "src/*.js bundled and minified, fzstd and @msgpack/msgpack left out" },
  core_minified: { ...core, what: "src/games.js + src/advice.js + src/core.js, what the HTML page inlines (unminified there)" },
  browser_bundle_minified: { ...bundle, budget_bytes: 40_000, what: "src/index.js with fzstd and @msgpack/msgpack" },
  wordle_load_ms: { first: +firstLoad.toFixed(2), median: +median(loads).toFixed(2), budget: 20 },
  next_guess_us: {
    arrays: +microseconds(() => tree.nextGuess(arrays)).toFixed(2),
    text: +microseconds(() => tree.nextGuess(text)).toFixed(2),
    history_steps: arrays.length, budget: 5,
  },
  suggest_ms: {
    after_crane: +median(suggests).toFixed(2), candidates: tree.candidates(offTree).length,
    after_nothing_learnt: +coldSuggest.toFixed(2), budget: 50,
  },
}, null, 2));
