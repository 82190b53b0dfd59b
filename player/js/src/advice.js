// Help off the tree: the rule of player/advice.py, step for step, so that both players give the
// same guess for every history (the module's docstring states the rule; the constants are its own).
// No imports beyond games.js: the HTML export inlines games.js, advice.js and core.js in one scope.
// The page inlines this file beside its own names: the constants live in one object.
export const ADVICE = Object.freeze({
  SAMPLE: 32, FEEDBACKS: 400_000, SHORTLIST: 60, TRIES: 6, BUDGET: 20_000, OVERHEAD: 16, HARD_BUDGET: 3_000_000,
});

const joinedCode = (code) => code.join(",");
const evenly = (list, k) => Array.from({ length: k }, (_, i) => list[Math.floor((i * list.length) / k)]);

// The indices of `counts`, the largest first, ties in index order (Python's heapq.nlargest), at most k.
function largestFirst(counts, k) {
  return [...counts.keys()].sort((a, b) => counts[b] - counts[a] || a - b).slice(0, k);
}

// How many parts each guess splits `secrets` into: distinct _scoreKey values, stamped in one array.
class Counter {
  #stamp = new Int32Array(64); #round = 0;
  constructor(game) { this.game = game; }
  parts(guess, secrets) {
    const { game } = this;
    let found = 0;
    const round = ++this.#round;
    for (let i = 0; i < secrets.length; i++) {
      const k = game._scoreKey(guess, secrets[i]);
      if (k >= this.#stamp.length) {
        const grown = new Int32Array(Math.max(k + 1, 2 * this.#stamp.length));
        grown.set(this.#stamp);
        this.#stamp = grown;
      }
      if (this.#stamp[k] !== round) { this.#stamp[k] = round; found++; }
    }
    return found;
  }
}

// The guess of the rule after `steps` (arrays of [guess, feedback]), whose candidates are `remaining`;
// `worst` is the tree's worst case.
export function bestGuess(game, worst, steps, remaining) {
  if (remaining.length <= 2) return remaining[0];
  const counter = new Counter(game);
  const shortlist = ranked(game, counter, game.guessesAfter(steps), remaining);
  const look = new Lookahead(game, counter, shortlist);
  for (const depth of [worst, worst + 1]) {
    for (const guess of shortlist) if (look.keeps(guess, remaining, depth - steps.length - 1, steps)) return guess;
  }
  return shortlist[0];
}

function ranked(game, counter, pool, remaining) {
  let allowed;
  if (pool === game.guesses()) allowed = (c) => game.isGuess(c);
  else {
    const inPool = new Set(pool.map(joinedCode));
    allowed = (c) => inPool.has(joinedCode(c));
  }
  const possible = new Set(remaining.map(joinedCode));
  const order = [...remaining.filter(allowed), ...pool.filter((g) => !possible.has(joinedCode(g)))];
  const n = remaining.length, size = Math.max(ADVICE.SAMPLE, Math.floor(ADVICE.FEEDBACKS / order.length)), exact = n <= size;
  const sample = exact ? remaining : evenly(remaining, size);
  const counts = [];
  for (const guess of order) {
    const count = counter.parts(guess, sample);
    counts.push(count);
    if (exact && count === n) break;
  }
  let top = largestFirst(counts, ADVICE.SHORTLIST);
  if (!exact) {
    const again = top.map((i) => counter.parts(order[i], remaining));
    top = top.map((i, j) => [again[j], i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i);
  }
  return top.map((i) => order[i]);
}

class Lookahead {
  constructor(game, counter, shortlist) {
    const budget = game.restrictsGuesses ? ADVICE.HARD_BUDGET : ADVICE.BUDGET;
    Object.assign(this, { game, counter, shortlist, budget, win: game._feedbackKey(game.win) });
  }

  keeps(guess, secrets, left, steps, pool = this.shortlist) {
    const { game } = this;
    for (const [feedback, part] of this.parts(guess, secrets)) {
      if (feedback === this.win) continue;
      const after = [...steps, [guess, game.score(guess, part[0])]];
      let allowed = pool;
      if (game.restrictsGuesses) {  // hard mode's rule holds step by step: only the new one to check
        const rule = game.hintRule ? [after.at(-1)] : after;
        allowed = this.budget <= 0 ? [] : pool.filter((g) => game.allows(g, rule) === null);
        this.budget -= pool.length * ADVICE.OVERHEAD;  // checking the rule costs as much as a row
      }
      if (!this.within(part, left, after, allowed)) return false;
    }
    return true;
  }

  within(secrets, depth, steps, pool) {
    const { game } = this, n = secrets.length;
    if (n <= depth && secrets.every((s) => game.isGuess(s))) return true;
    if (depth < 2 || this.budget <= 0) return false;
    const possible = new Set(secrets.map(joinedCode));
    let playable = secrets.filter((s) => game.isGuess(s));
    if (playable.length > ADVICE.SHORTLIST) playable = evenly(playable, ADVICE.SHORTLIST);
    const guesses = [...playable, ...pool.filter((g) => !possible.has(joinedCode(g)))];
    this.budget -= guesses.length * (n + ADVICE.OVERHEAD);
    const counts = guesses.map((g) => this.counter.parts(g, secrets));
    for (const i of largestFirst(counts, ADVICE.TRIES)) {
      if (depth === 2 && counts[i] < n) break;  // two guesses left: only a guess that tells every secret apart
      if (this.keeps(guesses[i], secrets, depth - 1, steps, pool)) return true;
    }
    return false;
  }

  parts(guess, secrets) {  // [feedback key, secrets giving it], in the order of their first secret
    const groups = new Map();
    for (const secret of secrets) {
      const k = this.game._scoreKey(guess, secret);
      const group = groups.get(k);
      if (group) group.push(secret);
      else groups.set(k, [secret]);
    }
    return groups;
  }
}
