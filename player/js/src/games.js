// The built-in games, as player/pegs.py, player/twod.py and player/words.py define them: the same
// secrets in the same canonical order, the same score, the same text forms and the same errors.
// A code is an array of symbol indices, a feedback an array of ints (e.g. [black, white]).
// No imports: the HTML export inlines this module with core.js.

export class Float {  // a msgpack float, kept apart from an int as Python keeps 1.0 apart from 1
  constructor(value) { this.value = value; }
}

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export const isInt = Number.isInteger;  // false for anything but a number, a Float included
export const plainValue = (v) => (v instanceof Float ? v.value : v);  // a value as a program reads it: a Float as its number
export const truthy = (v) => Boolean(plainValue(v));  // Python's bool()
// Python's == for the scalars a header holds (True == 1 == 1.0; a string equals only itself)
const numeric = (v) => (typeof plainValue(v) === "number" || typeof v === "boolean" ? Number(plainValue(v)) : NaN);
export const pyEqual = (a, b) => a === b || numeric(a) === numeric(b);
export const repr = (v) => {  // a value as Python would print it, for messages
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return `'${v}'`;
  if (v instanceof Float) {  // 1.0, 0.5, inf, nan as Python writes them
    if (!Number.isFinite(v.value)) return Number.isNaN(v.value) ? "nan" : v.value > 0 ? "inf" : "-inf";
    return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
  }
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${repr(k)}: ${repr(x)}`).join(", ")}}`;
  return String(v);
};

const fail = (message) => { throw new Error(message); };
const count = (list, value) => { let k = 0; for (const x of list) k += x === value; return k; };
const key = (code) => code.join(",");
const letters = (code) => code.map((s) => LETTERS[s]).join("");
const shown = (text, value) => (text === undefined ? `(${[...value].join(", ")})` : repr(text));  // the text typed, or the ints given

function requireInt(name, value, low, high) {
  if (!isInt(value) || value < low || value > high) {
    fail(`--${name} must be a whole number from ${low} to ${high}, not ${repr(value)}`);
  }
}

// Every code of `length` symbols 0 .. symbols - 1 in lexicographic order, as itertools.product;
// distinct: only those without a repeated symbol, as itertools.permutations.
function codes(symbols, length, distinct = false) {
  const out = [], code = [];
  const extend = () => {
    if (code.length === length) return void out.push(code.slice());
    for (let s = 0; s < symbols; s++) {
      if (distinct && code.includes(s)) continue;
      code.push(s); extend(); code.pop();
    }
  };
  extend();
  return out;
}

// What every game shares; the built-in ones below fill in the rest (and player/web/player.js's
// TableGame for a plugin game's page): name, length, symbols, win, _secrets(), _feedbacks(),
// score(), formatFeedback(), parseFeedback(), title(), and this._params.
export class Game {
  rule = null;  // the feedback rule (RULES below: black pegs only, counts-only words, letters in common); null: the full score
  weights = null;  // each secret's weight, in the order of secrets(); null: every secret weighs 1 (all games but weighted words)
  wholeWeight() { return null; }  // a secret's weight as a whole number (exact: a unit common to the game's), or null
  #secrets; #feedbacks; #index; #guesses; #guessSet; #secretSet;
  secrets() { return this.#secrets ||= this._secrets(); }  // canonical order; do not modify
  // is code one of the secrets? (a win is possible only on one; the built-in games but words check by rule)
  isSecret(code) { return (this.#secretSet ||= new Set(this.secrets().map(key))).has(key(code)); }
  guesses() { return this.#guesses ||= this._guesses(); }  // every allowed guess, canonical order; do not modify
  _guesses() { return this.secrets(); }
  isGuess(code) { return (this.#guessSet ||= new Set(this.guesses().map(key))).has(key(code)); }
  get restrictsGuesses() { return false; }  // can allows() ever refuse a guess?
  get permutable() { return false; }  // are codes closed under renaming symbols and reordering positions, scores unchanged?
  get hintRule() { return false; }  // is allows() hard mode's rule, which holds step by step?
  guessesAfter(history) {  // the guesses allows() takes after history, in canonical order
    return this.restrictsGuesses ? this.guesses().filter((g) => this.allows(g, history) === null) : this.guesses();
  }
  feedbacks() { return this.#feedbacks ||= this._feedbacks(); }
  get _feedbackIndex() { return this.#index ||= new Map(this.feedbacks().map((f, i) => [key(f), i])); }  // key -> index
  _isFeedback(feedback) { return this._feedbackIndex.has(key(feedback)); }
  params() { return { ...this._params }; }
  allows() { return null; }  // why a guess may not follow a history, or null (hard mode narrows it)
  formatCode(code) { return code.join(""); }
  parseCode(text) {  // numbers, as Python's Game.parse_code reads them (twod's "3,4")
    const cleaned = text.trim();
    const tokens = (/[\s,]/.test(cleaned) ? cleaned.split(/[\s,]+/) : [...cleaned]).filter((t) => t !== "");
    if (!tokens.every((t) => /^[+-]?\d+$/.test(t))) fail(`${repr(text)} is not a code: expected ${this.length} numbers`);
    return this.checkCode(tokens.map(Number), text);
  }
  checkCode(code, text) {
    const given = [...code], bad = given.find((s) => !isInt(s) || s < 0 || s >= this.symbols);
    if (given.length !== this.length) fail(`${shown(text, code)} has ${given.length} symbols; this game's codes have ${this.length}`);
    if (bad !== undefined) fail(`${shown(text, code)} has an unknown symbol ${repr(bad)}`);
    return given;
  }
  checkFeedback(feedback, text) {
    const given = [...feedback];
    if (!this._isFeedback(given)) fail(`${shown(text, given)} is feedback that cannot occur in ${this.name}`);
    return given;
  }
  // score(guess, secret) as one int, and the same int of a feedback: filtering and counting parts
  // compare ints, and the games below compute them without building the feedback
  _scoreKey(guess, secret) { return this._feedbackKey(this.score(guess, secret)); }
  _feedbackKey(feedback) { return this._feedbackIndex.get(key(feedback)); }
  // A guess's groups (player/lanes.py), as small ints, and a group's row: what it adds to each
  // secret's feedback number, whose sum over a guess's groups is one int (a byte) per feedback.
  _groups() { return null; }  // null: a game without groups, whose pairs are scored one by one
  // How much a feedback tells, for an adversarial host between answers that keep as many secrets:
  // the least first (player/game.py's host_key): the game's own order, the winning one last.
  hostKey(feedback) { return [key(feedback) === key(this.win) ? 1 : 0, ...feedback]; }
}

// The adversarial host (player/host.py, Absurdle): the answer to `guess` that keeps the most of
// `secrets`, ties to the one that tells least (game.hostKey); [that feedback, the secrets it keeps].
export function hostAnswer(game, guess, secrets) {
  const parts = new Map();
  for (const secret of secrets) {
    const feedback = game.score(guess, secret), k = key(feedback);
    if (!parts.has(k)) parts.set(k, [feedback, []]);
    parts.get(k)[1].push(secret);
  }
  let best = null;
  for (const part of parts.values()) {
    const order = best === null ? -1 : best[1].length - part[1].length || lexical(game.hostKey(part[0]), game.hostKey(best[0]));
    if (order < 0) best = part;
  }
  return best;
}

// Feedback rules (player/rules.py): what the host tells of the full score, the game's `feedback`
// parameter. A rule reduces the full feedback its family of games scores; the game keeps scoring in
// full and looks the reduction up (withRule), so that a rule is these lines, not a game of its own.
const counted = (text, letters, size) => {  // player/rules.py's _counts: numbers, counted letters, letters, or none
  const cleaned = text.trim().toUpperCase(), wanted = [...letters].slice(0, size);
  const numbers = cleaned.match(new RegExp(`^${new Array(size).fill("(\\d+)").join("\\s*[\\s,/-]\\s*")}$`))
    ?? cleaned.match(new RegExp(`^${"(\\d)".repeat(size)}$`));
  const byLetter = cleaned.match(new RegExp(`^${wanted.map((l) => `(?:(\\d+)\\s*${l})?`).join("\\s*")}$`));
  if (numbers) return numbers.slice(1).map(Number);
  if (byLetter && cleaned) return byLetter.slice(1).map((n) => Number(n || 0));
  if (cleaned && new RegExp(`^[${wanted.join("")}]+$`).test(cleaned)) return wanted.map((l) => count([...cleaned], l));
  if (["-", "0", "NONE"].includes(cleaned)) return new Array(size).fill(0);
  return null;
};
// A rule that tells `size` counts, each written with its letter (2B, 1G2Y): player/rules.py's Counted.
const countedRule = (size, mistake) => ({
  format: (f, l) => f.map((n, i) => `${n}${l[i]}`).join(""),
  parse: (text, l) => counted(text, l, size) ?? fail(`${repr(text)} is not ${mistake(l)}`),
});
export const RULES = {
  black: { family: "pegs", said: "black pegs only", reduce: (f) => [f[0]],
    ...countedRule(1, (l) => `feedback with black pegs only: write the pegs right in place, e.g. '2${l[0]}' or '2'`) },
  counts: { family: "marks", said: "counts only", reduce: (f) => [count(f, 2), count(f, 1)],
    ...countedRule(2, (l) => `counts-only feedback: write the letters in place and those elsewhere, e.g. '1${l[0]}2${l[1]}' or '1 2'`) },
  common: { family: "marks", said: "letters in common", reduce: (f) => [f.filter((m) => m > 0).length, Number(f.every((m) => m === 2))],
    format: (f) => (f[1] ? "WIN" : String(f[0])),
    parse(text, l, length) {
      const cleaned = text.trim().toUpperCase();
      if (["WIN", "WON", "="].includes(cleaned)) return [length, 1];
      if (/^[0-9]+$/.test(cleaned)) return [Number(cleaned), 0];
      return fail(`${repr(text)} is not feedback of letters in common: write how many letters the guess shares with the word, `
        + "e.g. '2', or 'WIN' when it is the word");
    } },
};
const lexical = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };

// The rule named `name` on `game` (none, or "full": the full score), written in `letters`.
function withRule(game, family, name, letters) {
  if (name == null || name === "full") return;
  const rule = Object.hasOwn(RULES, name) ? RULES[name] : null;
  if (!rule || rule.family !== family) {
    const ours = Object.keys(RULES).filter((k) => RULES[k].family === family);
    fail(`--feedback must be ${["full", ...ours].join(", ")} for this game, not ${repr(name)}`);
  }
  if (game.hard) fail(`${game.ultraHard ? "--ultra-hard" : "--hard"} keeps the hints of each letter's marks, which --feedback ${name} does not give`);
  const fullKey = game._scoreKey.bind(game), fullFeedbackKey = game._feedbackKey.bind(game), fulls = game._feedbacks();
  const reduced = fulls.map((f) => rule.reduce(f));
  const told = [...new Map(reduced.map((f) => [f.join(), f])).values()].sort(lexical);
  const index = new Map(told.map((f, i) => [f.join(), i]));
  const table = new Map(fulls.map((f, i) => [fullFeedbackKey(f), index.get(reduced[i].join())]));
  Object.assign(game, {
    rule, win: rule.reduce(game.win),
    _feedbacks: () => told.map((f) => [...f]),
    _scoreKey: (guess, secret) => table.get(fullKey(guess, secret)),
    _feedbackKey: (f) => index.get([...f].join()),
    score: (guess, secret) => [...told[table.get(fullKey(guess, secret))]],
    _groups: () => null,  // (their rows sum to full scores: a rule's game scores its pairs one by one)
    formatFeedback: (f) => rule.format(f, letters),
    parseFeedback: (text) => game.checkFeedback(rule.parse(text, letters, game.length), text),
  });
  game._params.feedback = name;
}

// The peg games: Mastermind, Digits (the ten digits) and Bulls and cows (distinct digits), the
// last two written in digits. Feedback [right, moved] (black and white, strikes and balls, bulls
// and cows): the two counts written with two letters ("BW") and named by two words ("black white").
class PegGame extends Game {
  #letters; #names; #counts; #secretRepeats; #guessRepeats;
  constructor(colours, holes, secretRepeats, guessRepeats) {
    super();
    requireInt("colours", colours, 1, 26);
    requireInt("holes", holes, 1, 12);
    const [name, letters, names] = new.target.pegs, secrets = truthy(secretRepeats), guesses = truthy(guessRepeats);
    if (!secrets && colours < holes) fail(`--no-secret-repeats needs at least as many colours as holes (${colours} < ${holes})`);
    if (secrets && !guesses) fail("--no-guess-repeats needs --no-secret-repeats");  // a repeated colour could not be guessed
    Object.assign(this, { name, colours, holes, length: holes, symbols: colours, win: [holes, 0] });
    this.#letters = letters;
    this.#names = names.split(" ");
    this.#secretRepeats = secrets;
    this.#guessRepeats = guesses;
    this._params = { colours, holes, secret_repeats: secrets, guess_repeats: guesses };  // Mastermind's
  }
  get permutable() { return true; }
  _secrets() { return codes(this.colours, this.holes, !this.#secretRepeats); }
  _guesses() { return codes(this.colours, this.holes, !this.#guessRepeats); }
  isGuess(code) { return this.#isCode(code) && (this.#guessRepeats || new Set(code).size === code.length); }
  isSecret(code) { return this.#isCode(code) && (this.#secretRepeats || new Set(code).size === code.length); }
  #isCode(code) { return code.length === this.length && code.every((s) => isInt(s) && s >= 0 && s < this.symbols); }
  _feedbacks() {
    const n = this.length, out = [];
    for (let b = 0; b <= n; b++) for (let w = 0; w <= n - b; w++) if (!(b === n - 1 && w === 1)) out.push([b, w]);
    return out;
  }
  score(guess, secret) {
    const key = this._scoreKey(guess, secret), n = this.length + 1;
    return [Math.floor(key / n), key % n];
  }
  _feedbackKey(f) { return f[0] * (this.length + 1) + f[1]; }
  _groups(guess) {  // each symbol in place (position * symbols + symbol), then each with the times the guess holds it
    const { symbols } = this, times = new Map();
    guess.forEach((s) => times.set(s, (times.get(s) ?? 0) + 1));
    const held = [...times].map(([s, t]) => (guess.length + t - 1) * symbols + s);
    return Int32Array.from([...guess.map((s, p) => p * symbols + s), ...held]);
  }
  _groupRow(group, secrets) {  // right counts length + 1; the times in common, at most the times held
    const { symbols, length } = this, kind = Math.floor(group / symbols), symbol = group % symbols;
    if (kind < length) return secrets.map((c) => (c[kind] === symbol ? length + 1 : 0));
    return secrets.map((c) => Math.min(kind - length + 1, count(c, symbol)));
  }
  _scoreKey(guess, secret) {  // right, and the symbols both hold less the right (moved), as one int
    const counts = this.#counts ||= new Int32Array(this.symbols);
    let right = 0, common = 0;
    for (let i = 0; i < secret.length; i++) {
      if (guess[i] === secret[i]) right++;
      counts[secret[i]]++;
    }
    for (let i = 0; i < guess.length; i++) if (counts[guess[i]]-- > 0) common++;
    counts.fill(0);
    return right * (this.length + 1) + common - right;
  }
  parseCode(text) {  // digits; Mastermind's letters below
    const cleaned = text.trim().replace(/[\s,]+/g, "");
    if (!/^[0-9]+$/.test(cleaned)) fail(`${repr(text)} is not a code: write ${this.length} digits`);
    return this.checkCode([...cleaned].map(Number), text);
  }
  formatFeedback(f) { return `${f[0]}${this.#letters[0]}${f[1]}${this.#letters[1]}`; }
  parseFeedback(text) {
    const [first, second] = this.#letters;
    const cleaned = text.trim().toUpperCase();
    const numbers = cleaned.match(/^(\d+)\s*[\s,/-]\s*(\d+)$|^(\d)(\d)$/);
    const counted = cleaned.match(new RegExp(`^(?:(\\d+)\\s*${first})?\\s*(?:(\\d+)\\s*${second})?$`));
    let feedback;
    if (numbers) feedback = [Number(numbers[1] ?? numbers[3]), Number(numbers[2] ?? numbers[4])];
    else if (counted && cleaned) feedback = [Number(counted[1] || 0), Number(counted[2] || 0)];
    else if (cleaned && new RegExp(`^[${first}${second}]+$`).test(cleaned)) feedback = [count([...cleaned], first), count([...cleaned], second)];
    else if (["-", "0", "NONE"].includes(cleaned)) feedback = [0, 0];
    else fail(`${repr(text)} is not feedback for ${this.name}: write e.g. '2${first}1${second}' or '2 1'`);
    const [right, moved] = feedback, [rightName, movedName] = this.#names, n = this.length;
    const impossible = (why) => fail(`${repr(text)} is impossible: ${why}`);
    if (right + moved > n) impossible(`${right} ${rightName} + ${moved} ${movedName} exceed ${n} positions`);
    if (right === n - 1 && moved === 1) impossible(`with ${n - 1} ${rightName} the last symbol cannot be misplaced`);
    return feedback;
  }
}

export class Mastermind extends PegGame {  // its codes written in letters (or 1-based digits)
  static pegs = ["mastermind", "BW", "black white"];  // the name, the pegs' letters and names of each class
  constructor({ colours = 6, holes = 4, secret_repeats: secretRepeats = true, guess_repeats: guessRepeats = true, feedback }) {
    super(colours, holes, secretRepeats, guessRepeats);
    withRule(this, "pegs", feedback, "BW");
  }
  title() {
    const { secret_repeats: secrets, guess_repeats: guesses } = this._params, rules = secrets ? [] : ["distinct colours"];
    if (this.rule) rules.unshift(this.rule.said);
    if (!guesses) rules.push("guesses distinct");
    else if (!secrets) rules.push("guesses may repeat");
    return `Mastermind, ${this.colours} colours, ${this.holes} holes${rules.length ? ` (${rules.join(", ")})` : ""}`;
  }
  formatCode(code) { return letters(code); }
  parseCode(text) {
    const cleaned = text.trim().replace(/[\s,]+/g, "").toUpperCase(), { colours, holes } = this, last = LETTERS[colours - 1];
    const digits = /^[0-9]+$/.test(cleaned) && colours <= 9;  // 1-based colours
    if (!digits && !/^[A-Z]+$/.test(cleaned)) {
      fail(`${repr(text)} is not a code: write ${holes} letters A-${last}${colours <= 9 ? ` or digits 1-${colours}` : ""}`);
    }
    const code = [...cleaned].map((c) => (digits ? Number(c) - 1 : LETTERS.indexOf(c)));
    if (code.length !== holes) fail(`${repr(text)} has ${code.length} colours; this game has ${holes} holes`);
    if (code.some((c) => c < 0 || c >= colours)) fail(`${repr(text)} uses a colour outside A-${last}`);
    return code;
  }
}

export class Digits extends PegGame {  // Mastermind with the ten digits
  static pegs = ["digits", "SB", "strikes balls"];
  constructor({ length = 4 }) {
    requireInt("length", length, 1, 10);
    super(10, length, true, true);
    this._params = { length };
  }
  title() { return `Digits, ${this.holes} digits`; }
}

export class BullsCows extends PegGame {  // Mastermind of distinct digits
  static pegs = ["bulls-cows", "AB", "bulls cows"];
  constructor({ digits = 10, length = 4 }) {
    requireInt("digits", digits, 1, 10);
    requireInt("length", length, 1, digits);
    super(digits, length, false, false);
    this._params = { digits, length };
  }
  title() { return `Bulls and cows, ${this.holes} of ${this.colours} digits`; }
  _scoreKey(guess, secret) {  // bulls, and the digits both hold (each once) less the bulls, as one int
    let bulls = 0, common = 0;
    for (let i = 0; i < guess.length; i++) {
      if (guess[i] === secret[i]) bulls++;
      if (secret.includes(guess[i]) && guess.indexOf(guess[i]) === i) common++;
    }
    return bulls * (this.length + 1) + common - bulls;
  }
  parseCode(text) {
    const code = super.parseCode(text);
    if (new Set(code).size !== code.length) fail(`${repr(text)} repeats a digit; bulls-and-cows codes have distinct digits`);
    return code;
  }
}

// Twod's feedback [below, above, equal] by its digits: the words it is written as (the first of
// each is how it is written) and read as.
const TWOD_WORDS = { "<=": "100", ">=": "010", none: "000", "==": "111",
  le: "100", ge: "010", no: "000", neither: "000", eq: "111", "=": "111", win: "111" };

export class TwoD extends Game {
  constructor({ size = 5 }) {
    super();
    requireInt("size", size, 1, 256);
    Object.assign(this, { name: "twod", size, length: 2, symbols: size, win: [1, 1, 1], _params: { size } });
  }
  title() { return `Twod, ${this.size}x${this.size} grid`; }
  _secrets() { return codes(this.size, 2); }
  isSecret(code) { return code.length === 2 && code.every((s) => isInt(s) && s >= 0 && s < this.size); }  // every point
  _feedbacks() { return [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]]; }
  score([x, y], [sx, sy]) { return [+(sx <= x && sy <= y), +(sx >= x && sy >= y), +(x === sx && y === sy)]; }
  formatCode([x, y]) { return `${x},${y}`; }
  checkCode(code, text) {  // a point of the grid, or the grid's range said (as player/twod.py says it)
    const given = [...code], range = `x and y from 0 to ${this.size - 1}`;
    if (given.length !== 2) fail(`${shown(text, code)} is not a point x,y: two numbers, ${range}`);
    if (given.some((s) => !isInt(s) || s < 0 || s >= this.size)) fail(`${shown(text, code)} is off the grid: ${range}`);
    return given;
  }
  formatFeedback(f) { return Object.keys(TWOD_WORDS).find((word) => TWOD_WORDS[word] === f.join("")); }
  parseFeedback(text) {
    const cleaned = text.trim().toLowerCase();
    const digits = Object.hasOwn(TWOD_WORDS, cleaned) ? TWOD_WORDS[cleaned] : cleaned.replace(/[\s,]+/g, "");
    if (!/^[01]{3}$/.test(digits)) fail(`${repr(text)} is not twod feedback: write <=, >=, none or == (or 100, 010, 000, 111)`);
    return this.checkFeedback([...digits].map(Number), text);
  }
}

// A word feedback's marks, as they are typed or pasted (a letter in either case).
// player/words.py's marks, and no other: not W, which in Mastermind is a white peg (present elsewhere)
const WORD_MARKS = { "🟩": 2, "🟨": 1, "⬛": 0, "⬜": 0, g: 2, y: 1, b: 0, "-": 0, ".": 0, x: 0, 2: 2, 1: 1, 0: 0 };

// The letters a words game spells with (FORMAT.md §2.1, the alphabet rule of player/words.py): the
// alphabet, in code point order (a word's code is its letters' indices, so codes sort as words do),
// and the capital each letter is shown as. A tree of words a-z carries neither.
const AZ = "abcdefghijklmnopqrstuvwxyz";
const MAX_ALPHABET = 255;
const IS_LETTER = /^[\p{L}\p{M}]$/u;  // Unicode's letters and marks: a mark NFC leaves alone is a letter of its own
// A character as a message shows it: 'ñ' (U+00F1). (Python's messages add its Unicode name, which
// this player has no table of.)
const named = (c) => `${repr(c)} (U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")})`;
const lowerLetter = (c) => {  // a code point's lower form, where that is one code point (never a word's final sigma)
  const lower = c.toLowerCase();
  return [...lower].length === 1 ? lower : c;
};

// player/letters.py's checks of an alphabet and its capitals as a file carries them, in its order.
function readAlphabet(alphabet, capitals) {
  if (alphabet == null && capitals == null) return { letters: [...AZ], capitals: [...AZ.toUpperCase()] };
  if (typeof alphabet !== "string" || typeof capitals !== "string") fail("alphabet and capitals must both be text");
  const letters = [...alphabet], shown = [...capitals];
  const ordered = letters.every((c, i) => i === 0 || letters[i - 1].codePointAt(0) < c.codePointAt(0));
  if (!letters.length || letters.length > MAX_ALPHABET || !ordered) {
    fail(`alphabet must be 1 to ${MAX_ALPHABET} distinct letters in code point order`);
  }
  const odd = letters.find((c) => !IS_LETTER.test(c) || lowerLetter(c.normalize("NFC")) !== c);
  if (odd !== undefined) fail(`alphabet holds ${named(odd)}, which is not a letter in lower case and NFC`);
  if (shown.length !== letters.length || new Set(shown).size !== shown.length || !shown.every((c) => IS_LETTER.test(c))) {
    fail("capitals must be one distinct letter for each letter of the alphabet");
  }
  if (shown.some((c, i) => c !== letters[i] && letters.includes(c))) fail("a capital is another letter of the alphabet");
  return { letters, capitals: shown };
}

// Codes compared as their words are, by code point: the alphabet is in code point order.
const compareCodes = (a, b) => {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

// answer_weights read back (player/weights.py's carried_weights): one weight per answer word, each
// a positive decimal number written with the fewest digits that say it (1, 0.25), one space apart;
// kept exact as whole numbers in a common unit (digits scaled to the most places after the point).
const WEIGHT = /^(0|[1-9][0-9]*)(?:\.([0-9]*[1-9]))?$/;
function readWeights(text, count) {
  const items = typeof text === "string" ? text.split(" ") : [], found = items.map((item) => WEIGHT.exec(item));
  if (items.length !== count || found.some((f) => !f || f[0] === "0")) {
    fail(`answer_weights is not ${count} weights, one per answer word, as decimal text one space apart (e.g. '1 0.25 3')`);
  }
  const exact = found.map(([, whole, decimals = ""]) => [BigInt(whole + decimals), decimals.length]);
  const places = Math.max(...exact.map(([, p]) => p));
  return { numbers: items.map(Number), whole: exact.map(([digits, p]) => digits * 10n ** BigInt(places - p)) };
}

// A list of words a tree carries (FORMAT.md §2.1), as codes: words of length letters of the
// alphabet (code points), sorted by code point, distinct.
function carried(text, length, name, empty, game) {
  const words = text ? text.split(" ") : [];
  if (!words.length && !empty) fail(`${name} is empty`);
  const codes = words.map((w) => ([...w].length === length ? game._codeOf(w) : null));
  const ok = codes.every((c, i) => c !== null && (i === 0 || compareCodes(codes[i - 1], c) < 0));
  if (!ok) fail(`${name} is not a sorted list of distinct words of ${length} letters ${game._lettersSaid}`);
  return codes;
}

export class Words extends Game {
  #counts; #letterIndex; #codes; #weightOf;
  // Only a tree that carries its words (format 1.1) can be played here: a 1.0 tree names files.
  // A parameter not given is None, as in Python (== null: undefined or null).
  constructor({ answers, guesses, hard = false, length = 5, answers_sha256, guesses_sha256, answer_words, guess_words,
    alphabet, capitals, answer_weights, feedback, ultra_hard = false }, listDigest) {
    super();
    const { letters, capitals: shown } = readAlphabet(alphabet, capitals);  // checked first, as player/wordlists.py does
    requireInt("length", length, 1, 10);
    if (answer_words == null) {
      fail("the tree names its word list files (format 1.0): rewrite it with a guesstree that carries the words");
    }
    if (answers != null || guesses != null) fail("words takes its lists from files or from answer_words, not both");
    const lists = { answers_sha256, guesses_sha256, answer_words, guess_words };
    if (!Object.values(lists).every((v) => typeof v === "string")) fail("embedded word lists need answer_words, guess_words and both sha256 as text");
    // ultra-hard mode holds hard mode's rule and more: a guess that could be the answer keeps every hint
    const ultraHard = truthy(ultra_hard);
    Object.assign(this, { name: "words", hard: truthy(hard) || ultraHard, ultraHard, length, symbols: letters.length,
      win: new Array(length).fill(2) });
    this.alphabet = letters;  // the letters, in code order (code points); shown as their capitals
    this.capitals = shown;
    // each letter, and each capital, typed: its code (a capital that is its own letter is that letter)
    this.#codes = new Map(letters.map((c, i) => [c, i]));  // a letter's code (what carried words hold)
    this.#letterIndex = new Map([...shown.map((c, i) => [c, i]), ...this.#codes]);
    this._params = { hard: this.hard, length, answers_sha256, guesses_sha256, ...(letters.join("") === AZ ? {} : { alphabet, capitals }),
      answer_words, guess_words, ...(ultraHard ? { ultra_hard: true } : {}) };
    this._answers = carried(answer_words, length, "answer_words", false, this);
    if (listDigest(this._answers.map((w) => `${this.#word(w)}\n`).join("")) !== answers_sha256) fail("the answer words it carries do not match their sha256");
    this._guessWords = carried(guess_words, length, "guess_words", true, this);
    this.weights = null;  // each secret's weight (how likely it is), in the order of secrets(); null: every one weighs 1
    if (answer_weights != null) {
      const { numbers, whole } = readWeights(answer_weights, this._answers.length);
      if (numbers.some((w) => w !== 1)) {  // all 1: no weights (and a tree that says so is refused as not written so)
        this._params.answer_weights = answer_weights;
        this.weights = numbers;
        this.#weightOf = new Map(this._answers.map((code, i) => [key(code), whole[i]]));
      }
    }
    withRule(this, "marks", feedback, "GY");
  }
  // A secret's weight as a whole number, in a unit common to the game's weights (exact, for
  // comparing them); null in a game without weights.
  wholeWeight(code) { return this.#weightOf ? this.#weightOf.get(key(code)) ?? null : null; }
  get _lettersSaid() { return this.alphabet.join("") === AZ ? "a-z" : "of its alphabet"; }
  _codeOf(word) {  // a carried word's code, or null where a code point is not a letter of the alphabet
    const code = [];
    for (const c of word) {
      const at = this.#codes.get(c);
      if (at === undefined) return null;
      code.push(at);
    }
    return code;
  }
  #word(code) { return code.map((s) => this.alphabet[s]).join(""); }  // as the lists write it (lower form)
  // The code of a typed letter (the letter or its capital), or -1.
  letterOf(c) { return this.#letterIndex.get(c) ?? -1; }
  title() {
    const weighted = this.weights === null ? "" : ", weighted";
    const rule = this.rule ? `, ${this.rule.said}` : "";
    const mode = this.ultraHard ? ", ultra-hard mode" : this.hard ? ", hard mode" : "";
    return `Words of ${this.length} letters (${this._answers.length} answers${weighted}${mode}${rule})`;
  }
  _secrets() { return this._answers; }
  _guesses() {  // the answers and the other guesses, merged in canonical (code) order
    const out = [], a = this._answers, g = this._guessWords;
    let i = 0, j = 0;
    while (i < a.length || j < g.length) {
      const order = i === a.length ? 1 : j === g.length ? -1 : compareCodes(a[i], g[j]);
      out.push(order <= 0 ? a[i] : g[j]);
      if (order <= 0) i++;
      if (order >= 0) j++;
    }
    return out;
  }
  get restrictsGuesses() { return this.hard; }
  get hintRule() { return this.hard; }
  guessesAfter(history) {  // hard mode's rule at once: the letters fixed in place, and how often each must occur
    if (!this.hard || !history.length) return this.guesses();
    if (this.ultraHard) {  // the guesses each step's feedback keeps, as if they were secrets
      const keys = history.map(([played, feedback]) => [played, this._feedbackKey(feedback)]);
      return this.guesses().filter((g) => keys.every(([played, k]) => this._scoreKey(played, g) === k));
    }
    const { symbols } = this, fixed = new Array(this.length).fill(-1), need = new Int32Array(symbols), have = new Int32Array(symbols);
    for (const [played, feedback] of history) {
      have.fill(0);
      played.forEach((letter, p) => { if (feedback[p] === 2) fixed[p] = letter; if (feedback[p]) have[letter]++; });
      for (let l = 0; l < symbols; l++) need[l] = Math.max(need[l], have[l]);
    }
    const needed = [...need.keys()].filter((l) => need[l]);
    return this.guesses().filter((g) => fixed.every((l, p) => l < 0 || g[p] === l)
      && needed.every((l) => count(g, l) >= need[l]));
  }
  _feedbacks() {  // every mark of each letter, but all exact save one present
    const n = this.length;
    return codes(3, n).filter((f) => !(count(f, 2) === n - 1 && count(f, 1) === 1));
  }
  score(guess, secret) {  // the digits of _scoreKey, in base 3
    const f = [];
    for (let k = this._scoreKey(guess, secret), i = 0; i < guess.length; i++, k = Math.floor(k / 3)) f.unshift(k % 3);
    return f;
  }
  _feedbackKey(f) { return f.reduce((k, m) => k * 3 + m, 0); }
  _groups(guess) {  // each letter with the positions it holds, as one int: letter << length | a bit a position
    if (3 ** guess.length > 256) return null;  // the marks of a word in a byte
    const held = new Map();
    guess.forEach((letter, p) => held.set(letter, (held.get(letter) ?? 0) | (1 << p)));
    return Int32Array.from(held, ([letter, bits]) => (letter << guess.length) | bits);
  }
  _groupRow(group, secrets) {  // the marks of that letter at those positions, as _scoreKey gives them
    const n = this.length, letter = group >> n, positions = [...Array(n).keys()].filter((p) => (group >> p) & 1);
    return secrets.map((secret) => {
      let unmatched = count(secret, letter), value = 0;
      for (const p of positions) unmatched -= secret[p] === letter;
      for (const p of positions) {
        if (secret[p] === letter) value += 2 * 3 ** (n - 1 - p);
        else if (unmatched-- > 0) value += 3 ** (n - 1 - p);
      }
      return value;
    });
  }
  _scoreKey(guess, secret) {  // the official rule: a letter is present as often as the secret holds it unplaced
    const counts = this.#counts ||= new Int32Array(this.symbols), n = guess.length;
    let exact = 0, key = 0;
    for (let i = 0; i < n; i++) {
      if (guess[i] === secret[i]) exact |= 1 << i;
      else counts[secret[i]]++;
    }
    for (let i = 0; i < n; i++) {
      key *= 3;
      if (exact & (1 << i)) key += 2;
      else if (counts[guess[i]] > 0) { key += 1; counts[guess[i]]--; }
    }
    for (let i = 0; i < n; i++) counts[secret[i]] = 0;
    return key;
  }
  // Hard mode: greens stay in place, revealed letters are reused as often. Ultra-hard mode: the guess
  // could be the answer, each step's guess giving it that step's feedback (player/words.py's allows).
  allows(guess, history) {
    if (!this.hard) return null;
    for (let step = 0; step < history.length; step++) {
      const [played, feedback] = history[step], hard = `hard mode: guess ${step + 1}`;
      if (this.ultraHard) {
        const got = this.score(played, guess);
        if (got.join() === feedback.join()) continue;
        return `ultra-hard mode: ${this.formatCode(guess)} could not be the answer after guess ${step + 1} `
          + `(${this.formatCode(played)} ${this.formatFeedback(feedback)}): it would get ${this.formatFeedback(got)}`;
      }
      for (let p = 0; p < played.length; p++) {
        if (feedback[p] === 2 && guess[p] !== played[p]) return `${hard} fixed ${this.capitals[played[p]]} at position ${p + 1}`;
      }
      for (let letter = 0; letter < this.symbols; letter++) {
        const revealed = played.filter((l, p) => l === letter && feedback[p]).length;
        if (revealed && count(guess, letter) < revealed) {
          return `${hard} revealed ${this.capitals[letter]}${revealed > 1 ? ` ${revealed} times` : ""}, which this guess does not reuse`;
        }
      }
    }
    return null;
  }
  hostKey(f) {  // the fewest exact marks, then the fewest present ones, then the lower marks left to right
    return this.rule ? super.hostKey(f) : [count(f, 2), count(f, 1), ...f];
  }
  formatCode(code) { return code.map((s) => this.capitals[s]).join(""); }
  parseCode(text) {  // NFC, then each code point a letter of the alphabet or its capital (player/letters.py's read)
    const word = text.trim().normalize("NFC"), code = [...word].map((c) => this.letterOf(c)), stray = code.indexOf(-1);
    if (stray >= 0 || !word) {
      if (this._lettersSaid === "a-z") fail(`${repr(text)} is not a word: use the letters a-z`);
      const why = stray >= 0 ? `${named([...word][stray])} is not one of this game's letters (${this.alphabet.join(" ")})` : "no letters";
      fail(`${repr(text)} is not a word: ${why}`);
    }
    return this.checkCode(code, text);
  }
  formatFeedback(f) { return f.map((m) => "-YG"[m]).join(""); }
  parseFeedback(text) {
    const marks = [];
    for (const c of text) if (c.trim()) marks.push(WORD_MARKS[c] ?? WORD_MARKS[c.toLowerCase()] ?? -1);
    const n = this.length;
    if (/w/i.test(text)) fail(`${repr(text)}: W is no mark of word games (in Mastermind it means present); write Y for present, - for absent`);
    if (marks.length !== n || marks.includes(-1)) {
      fail(`${repr(text)} is not feedback for ${n}-letter words: write ${n} marks, G (exact), Y (present) or - (absent; also B, X or .), `
        + `e.g. 'GY-${"-".repeat(Math.max(0, n - 3))}', or 2/1/0, or the coloured squares`);
    }
    return this.checkFeedback(marks, text);
  }
}

export const GAMES = { mastermind: Mastermind, "bulls-cows": BullsCows, digits: Digits, twod: TwoD, words: Words };
const TAKES = {  // the keyword arguments each constructor takes; it lists the first group when refusing others
  mastermind: "colours holes secret_repeats guess_repeats feedback", "bulls-cows": "digits length", digits: "length", twod: "size",
  words: "answers guesses hard ultra_hard length feedback|answers_sha256 guesses_sha256 answer_words guess_words alphabet capitals answer_weights",
};

// make_game(name, **params): an unknown parameter is refused as Python's TypeError is.
export function makeGame(name, params, listDigest) {
  const takes = TAKES[name].split(/[| ]/), listed = TAKES[name].split("|")[0].split(" ");
  if (Object.keys(params).some((k) => !takes.includes(k))) {
    fail(`bad parameters for ${name}: ${Object.keys(params).join(", ")} (it takes ${listed.join(", ")})`);
  }
  return new GAMES[name](params, listDigest);
}
