// Help off the tree: the rule of player/advice.py, step for step, so that both players give the
// same guess for every history (the module's docstring states the rule; the constants are its own).
// No imports beyond games.js: the HTML export inlines games.js, advice.js and core.js in one scope.
// The page inlines this file beside its own names: the constants live in one object.
export const ADVICE = Object.freeze({
  SAMPLE: 32, FEEDBACKS: 400_000, SHORTLIST: 60, TRIES: 6, BUDGET: 20_000, OVERHEAD: 16, HARD_BUDGET: 3_000_000,
});

const KEYS = new WeakMap();  // code -> its text key, made once (a code of the game's lists is met again and again)
const joinedCode = (code) => KEYS.get(code) ?? KEYS.set(code, code.join(",")).get(code);
const evenly = (list, k) => Array.from({ length: k }, (_, i) => list[Math.floor((i * list.length) / k)]);

// The indices of `counts`, the largest first, ties in index order (Python's heapq.nlargest), at most k.
function largestFirst(counts, k) {
  const top = [];
  for (let i = 0; i < counts.length; i++) {
    if (top.length === k && counts[i] <= counts[top[k - 1]]) continue;
    let at = top.length;
    while (at > 0 && counts[top[at - 1]] < counts[i]) at--;
    top.splice(at, 0, i);
    if (top.length > k) top.pop();
  }
  return top;
}

// Each set of secrets scored a guess at once on all of them (player/lanes.py): the rows of the
// groups its guesses hold, made once for the set, a byte per secret and four bytes to a word, so
// that a guess's feedback numbers are the sum of its groups' rows (no byte carries: every number
// is below 256); a game without groups scores each pair. The parts: distinct numbers, stamped.
const add = (sum, row) => { for (let i = 0; i < row.length; i++) sum[i] += row[i]; };
const distinct = (bytes, stamp, round) => {  // how many values bytes holds, stamping each with round
  let found = 0;
  for (let i = 0; i < bytes.length; i++) if (stamp[bytes[i]] !== round) { stamp[bytes[i]] = round; found++; }
  return found;
};
const GROUPS = new WeakMap();  // game -> (code -> its groups): made once, kept across suggestions
class Counter {
  #stamp = new Int32Array(256); #round = 0; #sets = new WeakMap(); #groups;
  constructor(game) {
    this.game = game;
    this.#groups = GROUPS.get(game) ?? GROUPS.set(game, new WeakMap()).get(game);
  }
  values(guess, secrets) {  // the feedback numbers of guess on secrets (the array is the set's own: read it at once)
    const { rows, words, values } = this.#sets.get(secrets) ?? this.#record(secrets), ids = this.#idsOf(guess);
    if (!ids) {
      for (let i = 0; i < secrets.length; i++) values[i] = this.game._scoreKey(guess, secrets[i]);
      return values;
    }
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j], row = rows[id] ?? (rows[id] = this.#row(id, secrets, words.length));
      if (j === 0) words.set(row);
      else add(words, row);
    }
    return values;
  }
  #row(group, secrets, width) {
    const bytes = new Uint8Array(4 * width);
    bytes.set(this.game._groupRow(group, secrets));
    return new Uint32Array(bytes.buffer);
  }
  #record(secrets) {  // a set's rows (made as asked), its values (bytes, viewed as words); members() adds its keys
    const n = secrets.length, words = new Uint32Array(Math.ceil(n / 4));
    const set = { rows: [], words, values: this.#idsOf(secrets[0] ?? []) ? new Uint8Array(words.buffer, 0, n) : new Int32Array(n) };
    this.#sets.set(secrets, set);
    return set;
  }
  #idsOf(guess) {  // guess's groups (null: a game without groups)
    let found = this.#groups.get(guess);
    if (found === undefined) this.#groups.set(guess, found = this.game._groups(guess));
    return found;
  }
  parts(guess, secrets) {
    const values = this.values(guess, secrets), round = ++this.#round;
    if (values instanceof Uint8Array) return distinct(values, this.#stamp, round);
    let found = 0, stamp = this.#stamp;
    for (let i = 0; i < values.length; i++) {
      const k = values[i];
      if (k >= stamp.length) {
        const grown = new Int32Array(Math.max(k + 1, 2 * stamp.length));
        grown.set(stamp);
        stamp = this.#stamp = grown;
      }
      if (stamp[k] !== round) { stamp[k] = round; found++; }
    }
    return found;
  }
  members(secrets) {  // the text keys of secrets, as a set made once
    const set = this.#sets.get(secrets) ?? this.#record(secrets);
    return (set.keys ??= new Set(secrets.map(joinedCode)));
  }
}

// The guess of the rule after `steps` (arrays of [guess, feedback]), whose candidates are `remaining`;
// `worst` is the tree's worst case.
export function bestGuess(game, worst, steps, remaining) {
  if (remaining.length <= 2) return heavierFirst(game, remaining)[0];
  const counter = new Counter(game);
  const shortlist = ranked(game, counter, game.guessesAfter(steps), remaining);
  const look = new Lookahead(game, counter, shortlist);
  for (const depth of [worst, worst + 1]) {
    for (const guess of shortlist) if (look.keeps(guess, remaining, depth - steps.length - 1, steps)) return guess;
  }
  return shortlist[0];
}

// Codes in the order of their weights, the heaviest first, ties in the order given (stable); as
// they are where the game has no weights.
function heavierFirst(game, codes) {
  if (game.weights === null) return codes;
  const weight = new Map(codes.map((c) => [c, game.wholeWeight(c) ?? 0n]));
  return [...codes].sort((a, b) => (weight.get(a) < weight.get(b) ? 1 : weight.get(a) > weight.get(b) ? -1 : 0));
}

// Ties in parts go to a guess that may be the secret, then to the heavier such guess, then to the
// lowest code: the possible secrets first, the heaviest first, and largestFirst keeps the order of ties.
function ranked(game, counter, pool, remaining) {
  let allowed;
  if (pool === game.guesses()) allowed = (c) => game.isGuess(c);
  else {
    const inPool = new Set(pool.map(joinedCode));
    allowed = (c) => inPool.has(joinedCode(c));
  }
  const possible = new Set(remaining.map(joinedCode));
  const order = [...heavierFirst(game, remaining.filter(allowed)), ...pool.filter((g) => !possible.has(joinedCode(g)))];
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
    Object.assign(this, { game, counter, shortlist, budget });
  }

  keeps(guess, secrets, left, steps, pool = this.shortlist) {
    const { game } = this;
    for (const part of this.parts(guess, secrets)) {
      let allowed = pool, after = steps;
      if (game.restrictsGuesses) {  // hard mode's rule holds step by step: only the new one to check
        after = [...steps, [guess, game.score(guess, part[0])]];
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
    const possible = this.counter.members(secrets);
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

  parts(guess, secrets) {  // the parts of secrets by guess's feedback, in the order of their first secret, but the one it wins
    const groups = new Map(), values = this.counter.values(guess, secrets);
    for (let i = 0; i < secrets.length; i++) {
      const group = groups.get(values[i]);
      if (group) group.push(secrets[i]);
      else groups.set(values[i], [secrets[i]]);
    }
    const key = joinedCode(guess);
    if (this.counter.members(secrets).has(key)) groups.delete(values[secrets.findIndex((s) => joinedCode(s) === key)]);
    return groups.values();
  }
}

// -- the opening book (player/book.py) ----------------------------------------------------------
// The game of an artifact's header as the book names it: its spec without carried word lists,
// written as JSON with its keys sorted (Python's json.dumps(..., sort_keys=True) of the same value).
const LISTS = ["answer_words", "guess_words"];
export function gameKey(spec) {
  if (!spec || typeof spec !== "object" || !spec.params || typeof spec.params !== "object") return "{}";
  const params = Object.fromEntries(Object.entries(spec.params).filter(([k]) => !LISTS.includes(k)));
  return sortedJson({ name: spec.name, params });
}
const sortedJson = (value) => (value && typeof value === "object" && !Array.isArray(value)
  ? `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(value[k])}`).join(",")}}`
  : JSON.stringify(value));

// The first code of code's class (player/book.py's class_of) and the symmetry taking code there:
// positions grouped by symbol, the groups by count (most first), then by where they first appear.
export function classOf(code, symbols) {
  const counts = new Map(), first = new Map();
  code.forEach((s, at) => { counts.set(s, (counts.get(s) || 0) + 1); if (!first.has(s)) first.set(s, at); });
  const order = code.map((_, i) => i).sort((i, j) => (counts.get(code[j]) - counts.get(code[i]))
    || (first.get(code[i]) - first.get(code[j])) || i - j);
  const names = new Map();
  for (const i of order) if (!names.has(code[i])) names.set(code[i], names.size);
  for (let s = 0; s < symbols; s++) if (!names.has(s)) names.set(s, names.size);
  const unnames = new Map([...names].map(([old, now]) => [now, old]));
  const forward = (c) => order.map((i) => names.get(c[i]));
  const back = (c) => { const out = new Array(c.length); order.forEach((i, at) => { out[i] = unnames.get(c[at]); }); return out; };
  return [forward(code), forward, back];
}

// The trees suggest may follow after the first guess `first` (player/book.py's openings): [tree,
// to, back] for the book's optimum for it (for its class, in a permutable game; book(gameKey, first
// guess as text) gives a tree or null), then the tree itself where a permutable game's first guess
// is in its class.
export function openings(tree, first, book) {
  const { game } = tree, same = (c) => c, key = gameKey(tree.header.game);
  const opening = (text) => {
    const found = book(key, text);
    return found && gameKey(found.header.game) === key ? found : null;
  };
  if (!game.permutable) {
    const found = opening(game.formatCode(first));
    return found ? [[found, same, same]] : [];
  }
  const [canonical, mineTo, mineBack] = classOf(first, game.symbols), found = [];
  const optimum = opening(game.formatCode(canonical));
  if (optimum) found.push([optimum, mineTo, mineBack]);
  const [own, theirsTo, theirsBack] = classOf(tree.guessOf(0), game.symbols);
  if (own.join() === canonical.join() && tree.guessOf(0).join() !== first.join()) {
    found.push([tree, (c) => theirsBack(mineTo(c)), (c) => mineBack(theirsTo(c))]);
  }
  return found;
}

// A book of loaded trees, for Tree.useBook: each found by its game and first guess.
export function bookOf(trees) {
  const byKey = new Map(trees.map((t) => [`${gameKey(t.header.game)} ${t.game.formatCode(t.guessOf(0))}`, t]));
  return (game, first) => byKey.get(`${game} ${first}`) ?? null;
}
