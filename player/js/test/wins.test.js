// A win only on a code that can be the secret: one of the game's secrets that gives every earlier
// answer, as the Python player takes it (tests/test_next.py), with the same words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InconsistentHistory, loadShipped, makeGame } from "../src/node.js";

const refused = (message) => (e) => e instanceof InconsistentHistory && e.message === `no secret gives all these answers: ${message}`;

test("isSecret is membership in the secrets, in every built-in game", () => {
  const games = [makeGame("mastermind", { colours: 3, holes: 3 }), makeGame("mastermind", { colours: 4, holes: 3, secret_repeats: false }),
    makeGame("mastermind", { colours: 4, holes: 3, secret_repeats: false, guess_repeats: false }),
    makeGame("bulls-cows", { digits: 5, length: 3 }), makeGame("digits", { length: 2 }), makeGame("twod", { size: 4 })];
  for (const game of games) {
    const secrets = new Set(game.secrets().map((c) => c.join())), all = [];
    for (let k = 0; k < game.symbols ** game.length; k++) {  // every code, in lexicographic order
      all.push([...Array(game.length).keys()].map((p) => Math.floor(k / game.symbols ** (game.length - 1 - p)) % game.symbols));
    }
    assert.deepEqual(all.filter((c) => game.isSecret(c)), all.filter((c) => secrets.has(c.join())), game.title());
    assert.ok(!game.isSecret(new Array(game.length + 1).fill(0)) && !game.isSecret(new Array(game.length).fill(game.symbols)));
  }
});

test("Wordle: SALET, the tree's first guess, is no answer: SALET GGGGG is refused, CIGAR GGGGG won", async () => {
  const tree = await loadShipped("wordle-salet-optimal-expected");
  for (const answer of ["nextGuess", "suggest"]) assert.throws(() => tree[answer]([["salet", "GGGGG"]]), refused("SALET GGGGG"));
  assert.equal(tree.candidates([["salet", "GGGGG"]]).length, 0);
  assert.ok(tree.game.isSecret(tree.game.parseCode("cigar")) && !tree.game.isSecret(tree.game.parseCode("salet")));
  const cigar = tree.path("cigar");
  assert.equal(tree.nextGuess(cigar), null);
  assert.equal(tree.suggest(cigar), null);
  assert.equal(tree.suggest([["cigar", "GGGGG"]]), null);
});

test("distinct colours: a win on AABC, the tree's first guess, is refused", async () => {
  const tree = await loadShipped("mastermind-c6-h4-distinct-entropy");
  assert.equal(tree.game.formatCode(tree.guessOf(0)), "AABC");
  for (const answer of ["nextGuess", "suggest"]) assert.throws(() => tree[answer]([["AABC", "4B0W"]]), refused("AABC 4B0W"));
  assert.throws(() => tree.suggest([...tree.path("ABCD").slice(0, -1), ["AABB", "4B0W"]]), (e) => e instanceof InconsistentHistory
    && e.message.startsWith("no secret gives all these answers: ") && e.message.endsWith(", AABB 4B0W"));
  assert.equal(tree.suggest([["ABCD", "4B0W"]]), null);
});

test("a win that an earlier answer rules out is refused, on the tree and off it", async () => {
  const tree = await loadShipped("mastermind-c6-h4-entropy");
  for (const answer of ["nextGuess", "suggest"]) {
    assert.throws(() => tree[answer]([["ABCD", "0B0W"], ["AEEF", "4B0W"]]), refused("ABCD 0B0W, AEEF 4B0W"));
  }
  assert.throws(() => tree.suggest([["ABCD", "0B0W"], ["EEEA", "4B0W"]]), refused("ABCD 0B0W, EEEA 4B0W"));
  assert.equal(tree.suggest([["ABCD", "1B0W"], ["AAAA", "4B0W"]]), null);  // AAAA gives ABCD 1B0W
});

for (const name of ["mastermind-c6-h4-entropy", "mastermind-c6-h4-distinct-entropy", "bulls-cows-d10-l3-optimal-expected"]) {
  test(`${name}: a win at every node is taken exactly when a secret gives the history`, async () => {
    const tree = await loadShipped(name), { game } = tree;
    let taken = 0, nodes = 0;
    const below = [[0, []]];
    while (below.length) {
      const [node, steps] = below.pop(), guess = tree.guessOf(node), history = [...steps, [guess, game.win]];
      nodes++;
      if (tree.candidates(history, { anyGuess: true }).length) {
        assert.equal(tree.nextGuess(history), null);
        assert.equal(tree.suggest(history), null);
        taken++;
      } else {
        const played = history.map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`).join(", ");
        for (const answer of ["nextGuess", "suggest"]) assert.throws(() => tree[answer](history), refused(played));
      }
      for (const [feedback, child] of tree.edges(node)) below.push([child, [...steps, [guess, feedback]]]);
    }
    assert.equal(nodes, tree.nodes);
    assert.ok(taken === tree.stats.secrets && taken < nodes);
  });
}
