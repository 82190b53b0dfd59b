// A game's review from the tree and the book (docs/tutorials/review.md, rules 1-4): the figures the
// trees prove exact, the bounds elsewhere, and a history no secret fits refused at its step.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InconsistentHistory, loadShipped, review, shippedBook } from "../src/node.js";
import { reviewCountingBound, reviewRound4 } from "../src/review.js";

const WORDLE = "wordle-salet-optimal-expected", MASTERMIND = "mastermind-c6-h4-optimal-expected";
const text = (tree, steps) => steps.map(([g, f]) => [tree.game.formatCode(g), tree.game.formatFeedback(f)]);

// The total of the tree's subtree after the first k steps of path, counted from the tree's paths
// of every secret that follows them (a count independent of review.js's walk).
function subtreeTotal(tree, path, k) {
  const key = (steps) => steps.map(([g, f]) => `${g} ${f}`).join("|"), prefix = key(path.slice(0, k));
  let total = 0;
  for (const secret of tree.game.secrets()) {
    const own = tree.path(secret);
    if (key(own.slice(0, k)) === prefix && own.length > k) total += own.length - k;
  }
  return total;
}

test("the root's best total is the header's proven minimum, for Wordle and Mastermind", async () => {
  for (const [name, minimum] of [[WORDLE, 7920], [MASTERMIND, 5625]]) {
    const tree = await loadShipped(name);
    assert.equal(tree.strategy.minimum_total, minimum);
    const secret = tree.game.secrets()[100], [first] = tree.path(secret);
    const { moves, summary } = review(tree, shippedBook, [first]);
    assert.deepEqual(moves[0].best_total, [minimum, minimum], name);
    assert.deepEqual(summary.expected_start, Array(2).fill(Math.round((minimum / tree.game.secrets().length) * 1e4) / 1e4));
  }
});

test("a game that follows the tree: every move best, exact, its total the tree's subtree's", async () => {
  for (const name of [WORDLE, MASTERMIND]) {
    const tree = await loadShipped(name);
    const path = tree.path(tree.game.secrets()[777]), result = review(tree, shippedBook, text(tree, path));
    assert.equal(result.exact, true);
    assert.equal(result.summary.won, true);
    assert.deepEqual(result.summary.loss, [0, 0]);
    assert.deepEqual(result.summary.verdicts, { best: path.length });
    result.moves.forEach((move, k) => {
      assert.deepEqual(move.loss, [0, 0], `${name} move ${k + 1}`);
      assert.equal(move.verdict, "best");
      const total = subtreeTotal(tree, path, k);
      assert.deepEqual(move.total, [total, total]);
      assert.deepEqual(move.best_total, [total, total]);
      const left = k ? result.moves[k - 1].left : tree.game.secrets().length;  // two secrets: both are best
      assert.deepEqual(move.best, left <= 2 ? tree.candidates(path.slice(0, k)).map((c) => tree.game.formatCode(c)) : [tree.game.formatCode(path[k][0])]);
      assert.equal(move.candidates, k ? result.moves[k - 1].left : tree.game.secrets().length);
      assert.deepEqual(move.left_total, k + 1 < path.length ? result.moves[k + 1].best_total : [0, 0]);
    });
    assert.equal(result.moves.at(-1).left, 0);
  }
});

test("CRANE within 6 guesses: the book's tree makes it exact, 7930 against SALET's 7920", async () => {
  const tree = await loadShipped(WORDLE);
  const within6 = review(tree, shippedBook, [["crane", "-Y---"]], { maxDepth: 6 }), move = within6.moves[0];
  assert.equal(within6.max_depth, 6);
  assert.deepEqual([move.total, move.best_total, move.expected, move.best_expected, move.loss],
    [[7930, 7930], [7920, 7920], [3.4255, 3.4255], [3.4212, 3.4212], [0.0043, 0.0043]]);
  assert.deepEqual([move.guess, move.feedback, move.candidates, move.left, move.worst, move.best_worst, move.best],
    ["CRANE", "-Y---", 2315, 90, 6, 5, ["SALET"]]);
  assert.equal(move.verdict, "good");
  assert.equal(move.exact, true);
  assert.equal(move.best_complete, false);
  // luck: (7930 - 2315) / 2315 - T*(C') / 90, T*(C') the CRANE tree's subtree there (counting: depth 6 as the review's)
  const [left] = move.left_total;
  assert.equal(move.left_total[1], left);
  assert.deepEqual(move.luck, Array(2).fill(Math.round(((7930 - 2315) / 2315 - left / 90) * 1e4) / 1e4));
  // with no depth limit, the depth-6 tree bounds T(CRANE) from above only
  const free = review(tree, shippedBook, [["crane", "-Y---"]]).moves[0];
  assert.deepEqual(free.total, [7920, 7930]);
  assert.equal(free.exact, false);
  assert.equal(free.verdict, "best to good");
});

test("an off-book guess is bounded below only, by the counting bound of its parts", async () => {
  const tree = await loadShipped(WORDLE);
  const result = review(tree, shippedBook, [["moist", "-----"]], { maxDepth: 6 }), [move] = result.moves;
  assert.equal(move.total[1], null);
  assert.equal(move.expected[1], null);
  assert.equal(move.loss[1], null);
  assert.ok(move.total[0] >= 7920);
  assert.equal(move.exact, false);
  assert.equal(result.exact, false);
  assert.match(result.missing, /exact figures of move 1/);
  assert.match(move.verdict, /or worse$/);
});

test("positions of one or two secrets are exact anywhere; so is a guess whose parts hold at most two", async () => {
  const tree = await loadShipped(MASTERMIND), { game } = tree;
  // off the tree and the book from the first guess (ABBC: the class of AABC, the tree's, but not its guess)
  const secret = game.parseCode("CDEF"), steps = [];
  const candidates = (k) => game.secrets().filter((s) => steps.slice(0, k).every(([g, f]) => game.score(g, s).join() === f.join()));
  const play = (guess) => steps.push([guess, game.score(guess, secret)]);
  ["ABBC", "DDEE", "CFAD"].forEach((guess) => play(game.parseCode(guess)));
  while (steps.at(-1)[1].join() !== game.win.join()) play(candidates(steps.length).at(-1));  // the last candidate each time
  assert.ok(steps.length >= 5);
  const result = review(tree, shippedBook, steps);
  result.moves.forEach((move, k) => {
    const before = candidates(k), parts = new Map();
    assert.equal(move.candidates, before.length);
    if (before.length <= 2) {
      const least = before.length === 1 ? 1 : 3;
      assert.deepEqual(move.best_total, [least, least], `move ${k + 1}`);
      assert.equal(move.best_complete, true);
    }
    for (const s of before) {
      const f = game.score(steps[k][0], s).join();
      if (f !== game.win.join()) parts.set(f, (parts.get(f) ?? 0) + 1);
    }
    if ([...parts.values()].every((m) => m <= 2)) {  // n, then 1 or 3 for each part
      const total = before.length + [...parts.values()].reduce((sum, m) => sum + (m === 1 ? 1 : 3), 0);
      assert.deepEqual(move.total, [total, total], `move ${k + 1}`);
    }
  });
  assert.ok(result.moves.some((m) => m.candidates <= 2 && m.exact), JSON.stringify(result.moves.map((m) => m.candidates)));
});

test("Mastermind: a first guess symmetric to the tree's is reviewed by the tree itself", async () => {
  const tree = await loadShipped(MASTERMIND), { game } = tree;
  const root = game.formatCode(tree.guessOf(0));  // AABC
  const mine = [...root].reverse().join("");      // CBAA: the same class
  const secret = game.parseCode("FEDC"), guess = game.parseCode(mine);
  const steps = [[guess, game.score(guess, secret)]];
  const [move] = review(tree, shippedBook, steps).moves;
  assert.deepEqual(move.total, [5625, 5625]);
  assert.deepEqual(move.loss, [0, 0]);
  assert.equal(move.verdict, "best");
  assert.deepEqual(move.best, [root, mine]);
  assert.equal(move.exact, true);
});

test("a depth limit no strategy meets after a guess makes it a mistake with no figures", async () => {
  const tree = await loadShipped(MASTERMIND);
  const [move] = review(tree, shippedBook, [["ABCD", "0B2W"]], { maxDepth: 2 }).moves;
  assert.deepEqual([move.total, move.expected, move.loss, move.luck, move.worst], [[null, null], [null, null], [null, null], [null, null], null]);
  assert.equal(move.verdict, "mistake");
});

test("a history no secret fits is refused at its first impossible step", async () => {
  const tree = await loadShipped(WORDLE);
  const refused = (steps, pattern, kind = InconsistentHistory) => assert.throws(() => review(tree, shippedBook, steps),
    (e) => e instanceof kind && pattern.test(e.message));
  refused([["salet", "-----"], ["crane", "GGGGG"]], /^step 2: no secret gives all these answers: SALET -----, CRANE GGGGG$/);
  refused([["salet", "-----"], ["moist", "GGGGG"], ["crane", "-----"]], /^step 2: no secret gives all these answers: SALET -----, MOIST GGGGG$/);
  refused([["salet", "GGGGG"], ["crane", "-----"]], /^step 1: no secret gives all these answers: SALET GGGGG$/);
  refused([["stout", "GGGGG"], ["crane", "-----"]], /^step 2: the game was won at step 1, yet the history goes on$/);
  refused([["salet", "-----"], ["zzzzz", "-----"]], /^step 2: ZZZZZ is not one of the game's \d+ allowed guesses/, Error);
  refused([["salet", "-----"], ["crane", "-Y-"]], /^step 2: /, Error);
  assert.throws(() => review(tree, shippedBook, "salet -----"), TypeError);
  assert.throws(() => review(tree, shippedBook, [], { maxDepth: 0 }), TypeError);
});

test("the counting bound fills levels of 1, b, b^2 ... secrets", () => {
  assert.equal(reviewCountingBound(1, null, 14), 1);
  assert.equal(reviewCountingBound(2, null, 14), 3);
  assert.equal(reviewCountingBound(15, null, 14), 1 + 2 * 14);
  assert.equal(reviewCountingBound(16, null, 14), 1 + 2 * 14 + 3);
  assert.equal(reviewCountingBound(15, 2, 14), 29);
  assert.equal(reviewCountingBound(16, 2, 14), Infinity);
  assert.equal(reviewCountingBound(1296, null, 13), 1 + 2 * 13 + 3 * 169 + 4 * (1296 - 183));
});

test("figures round as Python's round(x, 4) rounds a float: on its exact binary value, a tie to the even digit", () => {
  assert.equal(reviewRound4(33 / 32), 1.0312);  // 1.03125 exactly: a tie, to the even 2 (toFixed(4) says 1.0313)
  assert.equal(reviewRound4(-33 / 32), -1.0312);
  assert.equal(reviewRound4(35 / 32), 1.0938);
  assert.equal(reviewRound4(1 / 160), 0.0063);  // 0.00625 is a little above it as a float: up, as in Python
  assert.equal(reviewRound4(7930 / 2315), 3.4255);
  assert.equal(reviewRound4(2.00005), 2);  // 2.0000499999999999 as a float: 2.00004999... as a float: down, as in Python
  assert.equal(reviewRound4(0), 0);
  assert.equal(reviewRound4(3), 3);
});
