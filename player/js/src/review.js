// A game's review from what a player carries: the tree and the opening book, by the rules of
// docs/tutorials/review.md ("Where the figures come from"), with no search: what is known of each
// position's totals T(g) and T*, as intervals of integers, and the figures that follow from them,
// each an interval [low, high] (equal ends where the rules prove it, high null where no upper bound
// is known). Only core.js and advice.js are imported: the HTML export inlines this module with them
// in one scope, so its own top-level names start with review or REVIEW.
import { InconsistentHistory } from "./core.js";
import { gameKey, openings } from "./advice.js";

export const REVIEW_SOURCE = "tree and book";
const REVIEW_SUFFIX = ".msgpack.zst";

// x rounded to 4 decimals as Python's round(x, 4) rounds a float: on its exact binary value, a tie
// to the even digit. The figures are computed as player/review.py computes them, float for float,
// so that both players write the same numbers.
export function reviewRound4(x) {
  if (!Number.isFinite(x) || Number.isInteger(x)) return x;
  let mantissa = Math.abs(x), scale = 0n;  // |x| = mantissa / 2^scale exactly (doubling a double is exact)
  while (!Number.isInteger(mantissa)) { mantissa *= 2; scale++; }
  const p = BigInt(mantissa) * 10000n, q = 1n << scale;
  let units = p / q;
  const twice = 2n * (p % q);
  if (twice > q || (twice === q && units % 2n === 1n)) units += 1n;
  const value = Number(units) / 10000;
  return x < 0 ? -value : value;
}

// An interval of totals: low and high are integers, Infinity where no strategy wins within the
// depth limit; high null where no upper bound is known.
const reviewSpan = (low, high = low) => ({ low, high });
const reviewExact = (span) => span.high !== null && span.low === span.high;
const REVIEW_NONE = Object.freeze(reviewSpan(Infinity));  // no strategy at all (the depth limit)

// The counting bound (rule 4): the least sum of depths of m secrets within `depth` guesses (null: no
// limit), in a tree whose nodes each have `branching` children; Infinity when no tree holds them.
export function reviewCountingBound(m, depth, branching) {
  let total = 0, level = 1, width = 1;
  for (let left = m; left > 0; level++, width *= branching) {
    if (depth !== null && level > depth) return Infinity;
    const here = Math.min(width, left);
    total += here * level;
    left -= here;
    if (branching < 1 && left > 0) return Infinity;
  }
  return total;
}

// The least total of m <= 2 secrets (rule 3) and its worst case, within depth guesses.
const reviewSmall = (m, depth) => (depth !== null && depth < m ? null : { total: m === 1 ? 1 : 3, worst: m });

// The secrets by the feedback guess gets from each: [feedback, part] pairs, the win's apart.
function reviewParts(game, guess, secrets) {
  const parts = new Map(), win = game._feedbackKey(game.win);
  let wins = 0;
  for (const secret of secrets) {
    const key = game._scoreKey(guess, secret);
    if (key === win) { wins++; continue; }
    if (!parts.has(key)) parts.set(key, [game.score(guess, secret), []]);
    parts.get(key)[1].push(secret);
  }
  return { wins, parts: [...parts.values()] };
}

// Rule 1: does this tree's optimum count for a review within maxDepth, at a node whose subtree
// needs `worst` guesses with `depth` left?
function reviewCounts(tree, key, maxDepth, worst, depth) {
  const s = tree.strategy;
  if (!(s.name === "optimal-expected" && s.candidates === "all" && s.optimal === true && gameKey(tree.header.game) === key)) return false;
  const own = s.max_depth ?? null;
  return own === maxDepth || (own === null && (depth === null || worst <= depth));
}

// The total and worst case of a tree's subtree at node over secrets (the node's guess counting 1),
// null where the subtree does not play some of them to the win. A tree's root is in its header.
function reviewSubtree(tree, node, secrets, atRoot) {
  if (atRoot) return { total: tree.stats.total, worst: tree.stats.worst };
  const { game } = tree, guess = tree.guessOf(node), { parts } = reviewParts(game, guess, secrets);
  let total = secrets.length, worst = 1;
  for (const [feedback, part] of parts) {
    const child = tree.child(node, feedback), below = child === null ? null : reviewSubtree(tree, child, part, false);
    if (below === null) return null;
    total += below.total;
    worst = Math.max(worst, below.worst + 1);
  }
  return { total, worst };
}

// Review steps ([[guess, feedback], ...], as ints or the game's text) of a game of tree's from the
// tree and book (bookOf's lookup, or null). maxDepth: the game to be won within so many guesses
// (the tree's own max_depth by default; null: none). anyGuess: take guesses the game does not allow.
export function review(tree, book, steps, { maxDepth, anyGuess = false } = {}) {
  const { game } = tree, limit = maxDepth === undefined ? tree.strategy.max_depth ?? null : maxDepth;
  if (limit !== null && !(Number.isInteger(limit) && limit >= 1)) throw new TypeError(`maxDepth must be a whole number of guesses, not ${limit}`);
  const played = reviewSteps(tree, steps, anyGuess), key = gameKey(tree.header.game);
  const branching = game.feedbacks().length - 1;
  // the trees that may reach the positions: the tree itself, and the book's for the first guess
  const views = [[tree, (c) => c, (c) => c]];
  if (played.length && book) views.push(...openings(tree, played[0].guess, book));
  const positions = [];
  for (let k = 0; k <= played.length; k++) {
    const secrets = k ? played[k - 1].after : game.secrets(), depth = limit === null ? null : limit - k;
    positions.push({ secrets, depth, reached: reviewReached(views, played, k, key, limit, depth, secrets) });
  }
  const optimum = positions.map((at) => reviewOptimum(game, at, branching));
  const moves = played.map((move, i) => reviewMove(game, move, positions[i], optimum[i], branching));
  moves.forEach((move, i) => {  // T* is at most T(g) of any guess, the player's included
    const { span } = optimum[i];
    if (move.T.high !== null && (span.high === null || move.T.high < span.high)) optimum[i] = { ...optimum[i], span: reviewSpan(span.low, move.T.high) };
  });
  return reviewDocument(tree, limit, played, positions, optimum, moves);
}

// The moves, parsed and checked; each with the secrets left after it. A history no secret fits is
// refused at its first impossible step, as Tree.nextGuess refuses it.
function reviewSteps(tree, steps, anyGuess) {
  const { game } = tree, win = game.win.join(), out = [];
  if (steps === null || typeof steps?.[Symbol.iterator] !== "function" || typeof steps === "string") {
    throw new TypeError(`steps must be a list of (guess, feedback) pairs, not ${steps === null ? "null" : typeof steps}`);
  }
  let secrets = game.secrets();
  const history = [];
  for (const pair of steps) {
    const step = out.length + 1, [guessGiven, feedbackGiven] = Array.isArray(pair) ? pair : [];
    if (!Array.isArray(pair) || pair.length !== 2) throw new TypeError(`step ${step}: expected a (guess, feedback) pair, not ${JSON.stringify(pair)}`);
    let guess, feedback;
    try {
      guess = typeof guessGiven === "string" ? game.parseCode(guessGiven) : game.checkCode(guessGiven);
      feedback = typeof feedbackGiven === "string" ? game.parseFeedback(feedbackGiven) : game.checkFeedback(feedbackGiven);
    } catch (error) {
      throw new Error(`step ${step}: ${error.message}`);
    }
    if (out.length && out.at(-1).won) throw new InconsistentHistory(`step ${step}: the game was won at step ${step - 1}, yet the history goes on`);
    const unknown = anyGuess ? null : tree.unknownGuess(guess);
    if (unknown) throw new Error(`step ${step}: ${unknown} (anyGuess: true reviews it anyway)`);
    const refused = game.allows(guess, history);  // hard mode's rule, even with anyGuess (as player/review.py)
    if (refused) throw new Error(`step ${step}: ${game.formatCode(guess)} cannot be played here (${refused})`);
    const won = feedback.join() === win, fits = game._feedbackKey(feedback);
    const after = won ? [] : secrets.filter((s) => game._scoreKey(guess, s) === fits);
    history.push([guess, feedback]);
    if (won ? !secrets.some((s) => s.join() === guess.join()) : !after.length) {
      const said = history.map(([g, f]) => `${game.formatCode(g)} ${game.formatFeedback(f)}`).join(", ");
      throw new InconsistentHistory(`step ${step}: no secret gives all these answers: ${said}`);
    }
    out.push({ step, guess, feedback, before: secrets, after, won });
    secrets = after;
  }
  return out;
}

// What the trees that reach position k (every earlier guess theirs) say there: for each whose
// subtree wins within the depth left, its guess here (in the reviewed game's symbols), its subtree's
// total and worst, whether it counts (rule 1: T(g) of its guess), and whether it is T* (rule 2:
// not at the root of a tree whose first guess was fixed).
function reviewReached(views, played, k, key, limit, depth, secrets) {
  const found = [];
  for (const [tree, to, back] of views) {
    let node = 0;
    for (let i = 0; i < k && node !== null; i++) {
      const { guess, feedback } = played[i];
      node = tree.guessOf(node).join() === to(guess).join() ? tree.child(node, feedback) : null;
    }
    if (node === null || !secrets.length) continue;
    const subtree = reviewSubtree(tree, node, secrets.map(to), node === 0 && k === 0);
    if (subtree === null || (depth !== null && subtree.worst > depth)) continue;  // no strategy within the limit
    const counts = reviewCounts(tree, key, limit, subtree.worst, depth);
    found.push({ guess: back(tree.guessOf(node)), ...subtree, counts,
      optimum: counts && !(node === 0 && tree.strategy.first != null) });
  }
  return found;
}

// T* at a position (rules 2, 3, 4), the best guesses known and the first one's worst case.
function reviewOptimum(game, { secrets, depth, reached }, branching) {
  const n = secrets.length;
  if (!n) return { span: reviewSpan(0), best: [], complete: true, worst: 0 };
  if (n <= 2) {  // rule 3: the secrets themselves are the best guesses
    const small = reviewSmall(n, depth);
    if (!small) return { span: REVIEW_NONE, best: [], complete: true, worst: null };
    return { span: reviewSpan(small.total), best: secrets, complete: true, worst: small.worst };
  }
  const low = reviewCountingBound(n, depth, branching);
  if (low === Infinity) return { span: REVIEW_NONE, best: [], complete: true, worst: null };  // no strategy within the limit
  const proven = reached.find((r) => r.optimum);
  if (proven) return { span: reviewSpan(proven.total), best: [proven.guess], complete: false, worst: proven.worst };
  const tops = reached.map((r) => r.total);
  return { span: reviewSpan(low, low === Infinity ? Infinity : tops.length ? Math.min(...tops) : null), best: [], complete: false, worst: null };
}

// T(g) of a move (rules 2, 3, 4) and its worst case.
function reviewMove(game, move, at, best, branching) {
  const { guess, before } = move, n = before.length, rest = at.depth === null ? null : at.depth - 1;
  const mine = at.reached.filter((r) => r.guess.join() === guess.join());
  const counted = mine.find((r) => r.counts);
  if (counted) return { T: reviewSpan(counted.total), worst: counted.worst };
  const { wins, parts } = reviewParts(game, guess, before);
  if (at.depth !== null && at.depth < 1) return { T: REVIEW_NONE, worst: null };
  if (parts.every(([, part]) => part.length <= 2)) {  // rule 3: each part's optimum is known
    let total = n, worst = wins ? 1 : 0;
    for (const [, part] of parts) {
      const small = reviewSmall(part.length, rest);
      if (!small) return { T: REVIEW_NONE, worst: null };
      total += small.total;
      worst = Math.max(worst, small.worst + 1);
    }
    return { T: reviewSpan(total), worst };
  }
  let low = n;
  for (const [, part] of parts) low += reviewCountingBound(part.length, rest, branching);
  if (low === Infinity) return { T: REVIEW_NONE, worst: null };
  low = Math.max(low, best.span.low);
  const tops = mine.map((r) => r.total);
  return { T: reviewSpan(low, tops.length ? Math.min(...tops) : null), worst: null };
}

// -- the figures, as the contract's JSON ----------------------------------------------------------
// Each end of a figure is computed as player/review.py computes it (the same float operations, in
// the same order), then rounded by reviewRound4. No strategy at all (the depth limit): [null, null].
const REVIEW_GOOD = 0.05, REVIEW_INACCURACY = 0.2;
const reviewTotals = (span) => (span.low === Infinity ? [null, null] : [span.low, span.high]);
const reviewAverage = (span, n) => reviewTotals(span).map((end) => (end === null ? null : reviewRound4(end / n)));

// (T(g) - T*) / n, never below 0: at least 0 where T* has no upper end (a loss is never negative).
function reviewLoss(T, best, n) {
  if (T.low === Infinity || best.low === Infinity) return [null, null];
  const low = best.high === null ? 0 : reviewRound4(Math.max((T.low - best.high) / n, 0));
  return [low, T.high === null ? null : reviewRound4(Math.max((T.high - best.low) / n, 0))];
}

// (T(g) - n) / n - T*(C') / n' (the last term 0 once won); low null where T*(C') has no upper end.
function reviewLuck(T, left, n, nLeft) {
  if (T.low === Infinity || left.low === Infinity) return [null, null];
  const m = Math.max(nLeft, 1);
  const low = left.high === null ? null : reviewRound4((T.low - n) / n - left.high / m);
  const high = T.high === null ? null : reviewRound4((T.high - n) / n - left.low / m);
  return [low, high];
}

// The band of a loss: best (0), good (< 0.05), inaccuracy (< 0.2), mistake.
function reviewBand(loss) {
  if (loss <= 0) return "best";
  return loss < REVIEW_GOOD ? "good" : loss < REVIEW_INACCURACY ? "inaccuracy" : "mistake";
}

// The verdict over what the totals are known to be: one band, or the bands between its ends.
function reviewVerdict(T, best, n) {
  if (T.low === Infinity) return "mistake";  // the game cannot be won within the depth limit after it
  const from = best.high === null ? "best" : reviewBand((T.low - best.high) / n);
  if (T.high === null) return from === "mistake" ? from : `${from} or worse`;
  const to = reviewBand((T.high - best.low) / n);
  return from === to ? from : `${from} to ${to}`;
}

// A figure summed over the moves, as the table's total line: an end unknown in one move is unknown.
const reviewSum = (figures, end) => (figures.some((f) => f[end] === null) ? null
  : reviewRound4(figures.reduce((sum, f) => sum + f[end], 0)));

function reviewDocument(tree, limit, played, positions, optimum, moves) {
  const { game } = tree, text = (code) => game.formatCode(code), verdicts = {};
  const out = played.map((move, i) => {
    const n = move.before.length, nLeft = move.after.length, { T, worst } = moves[i];
    const best = optimum[i], left = optimum[i + 1], verdict = reviewVerdict(T, best.span, n);
    verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
    const exact = [T, best.span, left.span].every(reviewExact);
    const bestTexts = best.best.map(text);  // with the player's guess where it is proven to tie
    if (exact && T.low === best.span.low && T.low !== Infinity && !bestTexts.includes(text(move.guess))) bestTexts.push(text(move.guess));
    return {
      step: move.step, guess: text(move.guess), feedback: game.formatFeedback(move.feedback), candidates: n, left: nLeft,
      total: reviewTotals(T), best_total: reviewTotals(best.span), left_total: reviewTotals(left.span),
      expected: reviewAverage(T, n), best_expected: reviewAverage(best.span, n),
      loss: reviewLoss(T, best.span, n), luck: reviewLuck(T, left.span, n, nLeft),
      best: bestTexts, best_complete: best.complete, worst, best_worst: best.worst, verdict, exact,
    };
  });
  const exact = out.every((m) => m.exact), incomplete = out.filter((m) => !m.best_complete).map((m) => m.step);
  const sum = (key) => [0, 1].map((end) => reviewSum(out.map((m) => m[key]), end));
  return {
    game: game.title(), tree: reviewName(tree.name), max_depth: limit, source: REVIEW_SOURCE, exact,
    missing: reviewMissing(out.filter((m) => !m.exact).map((m) => m.step), incomplete),
    moves: out,
    summary: {
      guesses: out.length, won: played.length > 0 && played.at(-1).won, loss: sum("loss"), luck: sum("luck"),
      expected_start: reviewAverage(optimum[0].span, positions[0].secrets.length), verdicts,
    },
  };
}

const reviewName = (name) => {
  const base = String(name).split(/[\\/]/).at(-1);
  return base.endsWith(REVIEW_SUFFIX) ? base.slice(0, -REVIEW_SUFFIX.length) : base;
};

// What the compiler's install (the exhaustive search) would add to this review, or null.
function reviewMissing(bounded, incomplete) {
  const steps = (list) => `${list.length === 1 ? "move" : "moves"} ${list.join(", ")}`;
  const parts = [];
  if (bounded.length) parts.push(`the exact figures of ${steps(bounded)} (bounds here)`);
  if (incomplete.length) parts.push(`every best guess tied at ${steps(incomplete)} (the tree's own here)`);
  return parts.length ? `the exhaustive search (guesstree review with the compiler's install) would give ${parts.join(" and ")}` : null;
}
