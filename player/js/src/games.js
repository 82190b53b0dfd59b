// The built-in games, as player/pegs.py, player/twod.py and player/words.py define them: the same
// secrets in the same canonical order, the same score, the same text forms and the same errors.
// A code is an array of symbol indices, a feedback an array of ints (e.g. [black, white]).
// No imports: the HTML export inlines this module with core.js.

export class Float {  // a msgpack float, kept apart from an int as Python keeps 1.0 apart from 1
  constructor(value) { this.value = value; }
}

export const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const ALPHABET = "abcdefghijklmnopqrstuvwxyz";

export const isInt = (v) => typeof v === "number" && Number.isInteger(v);
const num = (v) => (v instanceof Float ? v.value : typeof v === "boolean" ? Number(v) : v);
export const truthy = (v) => (v instanceof Float ? v.value !== 0 : Boolean(v));  // Python's bool()
export function pyEqual(a, b) {  // Python's == for the scalars a header holds (True == 1 == 1.0)
  const numeric = (v) => typeof v === "number" || typeof v === "boolean" || v instanceof Float;
  if (numeric(a) && numeric(b)) return num(a) === num(b);
  return a === b;
}
export const repr = (v) => {  // a value as Python would print it, for messages
  if (v === null || v === undefined) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return `'${v}'`;
  if (v instanceof Float) return Number.isInteger(v.value) ? `${v.value}.0` : String(v.value);
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  if (Array.isArray(v)) return `[${v.map(repr).join(", ")}]`;
  if (typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${repr(k)}: ${repr(x)}`).join(", ")}}`;
  return String(v);
};

function requireInt(name, value, low, high) {
  if (!isInt(value) || value < low || value > high) {
    throw new Error(`--${name.replace(/_/g, "-")} must be a whole number from ${low} to ${high}, not ${repr(value)}`);
  }
}

function product(symbols, length) {
  const out = [];
  const code = new Array(length).fill(0);
  if (length === 0) return [[]];
  for (;;) {
    out.push(code.slice());
    let i = length - 1;
    while (i >= 0 && code[i] === symbols - 1) code[i--] = 0;
    if (i < 0) return out;
    code[i]++;
  }
}

function permutations(symbols, length) {  // itertools.permutations(range(symbols), length)
  const out = [];
  const code = [];
  const used = new Array(symbols).fill(false);
  const go = () => {
    if (code.length === length) { out.push(code.slice()); return; }
    for (let s = 0; s < symbols; s++) {
      if (used[s]) continue;
      used[s] = true; code.push(s); go(); code.pop(); used[s] = false;
    }
  };
  go();
  return out;
}

const key = (code) => code.join(",");

export class Game {  // what every game shares; the built-in ones below fill in the rest
  constructor() { this._secrets = null; this._feedbacks = null; }
  secrets() { return this._secrets || (this._secrets = this.makeSecrets()); }  // canonical order; do not modify
  feedbacks() { return this._feedbacks || (this._feedbacks = this.makeFeedbacks()); }
  get feedbackIndex() {  // feedback key -> its index in feedbacks()
    if (!this._index) this._index = new Map(this.feedbacks().map((f, i) => [key(f), i]));
    return this._index;
  }
  isFeedback(feedback) { return this.feedbackIndex.has(key(feedback)); }
  allows() { return null; }  // why a guess may not follow a history, or null (hard mode narrows it)
  formatCode(code) { return this.symbols <= 10 ? code.join("") : code.join(","); }
  parseCode(text) {
    const cleaned = text.trim();
    const tokens = /[\s,]/.test(cleaned) ? cleaned.split(/[\s,]+/) : [...cleaned];
    const code = [];
    for (const t of tokens) {
      if (t === "") continue;
      if (!/^[+-]?\d+$/.test(t)) throw new Error(`${repr(text)} is not a code: expected ${this.length} numbers`);
      code.push(Number(t));
    }
    return this.checkCode(code, text);
  }
  checkCode(code, text) {
    const shown = text !== undefined ? repr(text) : `(${[...code].join(", ")})`;
    code = [...code];
    if (code.length !== this.length) throw new Error(`${shown} has ${code.length} symbols; this game's codes have ${this.length}`);
    const bad = code.find((s) => !isInt(s) || s < 0 || s >= this.symbols);
    if (bad !== undefined) throw new Error(`${shown} has an unknown symbol ${repr(bad)}`);
    return code;
  }
  formatFeedback(feedback) { return feedback.join(" "); }
  parseFeedback(text) {
    const feedback = [];
    for (const t of text.trim().split(/[\s,]+/)) {
      if (t === "") continue;
      if (!/^[+-]?\d+$/.test(t)) throw new Error(`${repr(text)} is not feedback for ${this.name}`);
      feedback.push(Number(t));
    }
    return this.checkFeedback(feedback, text);
  }
  checkFeedback(feedback, text) {
    feedback = Array.from(feedback);
    if (!this.isFeedback(feedback)) {
      throw new Error(`${text !== undefined ? repr(text) : `(${feedback.join(", ")})`} is feedback that cannot occur in ${this.name}`);
    }
    return feedback;
  }
  // score(guess, secret) as one int, and the same int of a feedback: filtering and counting parts
  // compare ints, and the games below compute them without building the feedback
  scoreKey(guess, secret) { return this.feedbackKey(this.score(guess, secret)); }
  feedbackKey(feedback) { return this.feedbackIndex.get(key(feedback)); }
}

class PegGame extends Game {
  makeFeedbacks() {
    const n = this.length, out = [];
    for (let b = 0; b <= n; b++) for (let w = 0; w <= n - b; w++) if (!(b === n - 1 && w === 1)) out.push([b, w]);
    return out;
  }
  formatFeedback(f) { return `${f[0]}${this.pegLetters[0]}${f[1]}${this.pegLetters[1]}`; }
  parseFeedback(text) {
    const [first, second] = this.pegLetters;
    const cleaned = text.trim().toUpperCase();
    const numbers = cleaned.match(/^(\d+)\s*[\s,/-]\s*(\d+)$/) || cleaned.match(/^(\d)(\d)$/);
    const counted = cleaned.match(new RegExp(`^(?:(\\d+)\\s*${first})?\\s*(?:(\\d+)\\s*${second})?$`));
    let feedback;
    if (numbers) feedback = [Number(numbers[1]), Number(numbers[2])];
    else if (counted && cleaned) feedback = [Number(counted[1] || 0), Number(counted[2] || 0)];
    else if (cleaned && new RegExp(`^[${first}${second}]+$`).test(cleaned)) {
      feedback = [[...cleaned].filter((c) => c === first).length, [...cleaned].filter((c) => c === second).length];
    } else if (["-", "0", "NONE"].includes(cleaned)) feedback = [0, 0];
    else throw new Error(`${repr(text)} is not feedback for ${this.name}: write e.g. '2${first}1${second}' or '2 1'`);
    const [right, moved] = feedback, [rightName, movedName] = this.pegNames, n = this.length;
    if (right + moved > n) throw new Error(`${repr(text)} is impossible: ${right} ${rightName} + ${moved} ${movedName} exceed ${n} positions`);
    if (right === n - 1 && moved === 1) throw new Error(`${repr(text)} is impossible: with ${n - 1} ${rightName} the last symbol cannot be misplaced`);
    return feedback;
  }
  feedbackKey(f) { return f[0] * (this.length + 1) + f[1]; }
}

export class Mastermind extends PegGame {
  constructor(params) {
    super();
    const { colours = 6, holes = 4, secret_repeats: secretRepeats = true, guess_repeats: guessRepeats = true } = params;
    requireInt("colours", colours, 1, 26);
    requireInt("holes", holes, 1, 12);
    if (!truthy(secretRepeats) && colours < holes) {
      throw new Error(`--no-secret-repeats needs at least as many colours as holes (${colours} < ${holes})`);
    }
    if (truthy(secretRepeats) && !truthy(guessRepeats)) {
      throw new Error("--no-guess-repeats needs --no-secret-repeats: a secret with a repeated colour could never be guessed");
    }
    this.name = "mastermind";
    this.colours = colours; this.holes = holes;
    this.secretRepeats = truthy(secretRepeats); this.guessRepeats = truthy(guessRepeats);
    this.length = holes; this.symbols = colours; this.win = [holes, 0];
    this.pegLetters = ["B", "W"]; this.pegNames = ["black", "white"];
  }
  params() {
    return { colours: this.colours, holes: this.holes, secret_repeats: this.secretRepeats, guess_repeats: this.guessRepeats };
  }
  title() {
    const rules = this.secretRepeats ? [] : ["distinct colours"];
    if (!this.guessRepeats) rules.push("guesses distinct");
    else if (!this.secretRepeats) rules.push("guesses may repeat");
    return `Mastermind, ${this.colours} colours, ${this.holes} holes${rules.length ? ` (${rules.join(", ")})` : ""}`;
  }
  makeSecrets() { return this.secretRepeats ? product(this.colours, this.holes) : permutations(this.colours, this.holes); }
  score(guess, secret) {
    const key = this.scoreKey(guess, secret), n = this.length + 1;
    return [Math.floor(key / n), key % n];
  }
  scoreKey(guess, secret) {
    const counts = this._counts || (this._counts = new Int32Array(this.symbols));
    let black = 0, common = 0;
    for (let i = 0; i < secret.length; i++) {
      if (guess[i] === secret[i]) black++;
      counts[secret[i]]++;
    }
    for (let i = 0; i < guess.length; i++) if (counts[guess[i]]-- > 0) common++;
    counts.fill(0);
    return black * (this.length + 1) + common - black;
  }
  formatCode(code) { return code.map((s) => LETTERS[s]).join(""); }
  parseCode(text) {
    const cleaned = text.trim().replace(/[\s,]+/g, "").toUpperCase();
    let code;
    if (/^[0-9]+$/.test(cleaned) && this.colours <= 9) code = [...cleaned].map((c) => Number(c) - 1);
    else if (cleaned && [...cleaned].every((c) => LETTERS.includes(c))) code = [...cleaned].map((c) => LETTERS.indexOf(c));
    else {
      throw new Error(`${repr(text)} is not a code: write ${this.holes} letters A-${LETTERS[this.colours - 1]}`
        + (this.colours <= 9 ? ` or digits 1-${this.colours}` : ""));
    }
    if (code.length !== this.holes) throw new Error(`${repr(text)} has ${code.length} colours; this game has ${this.holes} holes`);
    if (code.some((c) => c < 0 || c >= this.colours)) throw new Error(`${repr(text)} uses a colour outside A-${LETTERS[this.colours - 1]}`);
    return code;
  }
}

function parseDigits(text, game) {
  const cleaned = text.trim().replace(/[\s,]+/g, "");
  if (!/^[0-9]+$/.test(cleaned)) throw new Error(`${repr(text)} is not a code: write ${game.length} digits`);
  return game.checkCode([...cleaned].map(Number), text);
}

export class Digits extends Mastermind {
  constructor(params) {
    const { length = 4 } = params;
    requireInt("length", length, 1, 10);
    super({ colours: 10, holes: length });
    this.name = "digits";
    this.pegLetters = ["S", "B"]; this.pegNames = ["strikes", "balls"];
  }
  params() { return { length: this.holes }; }
  title() { return `Digits, ${this.holes} digits`; }
  formatCode(code) { return code.join(""); }
  parseCode(text) { return parseDigits(text, this); }
}

export class BullsCows extends PegGame {
  constructor(params) {
    super();
    const { digits = 10, length = 4 } = params;
    requireInt("digits", digits, 1, 10);
    requireInt("length", length, 1, digits);
    this.name = "bulls-cows";
    this.digits = digits; this.length = length; this.symbols = digits; this.win = [length, 0];
    this.pegLetters = ["A", "B"]; this.pegNames = ["bulls", "cows"];
  }
  params() { return { digits: this.digits, length: this.length }; }
  title() { return `Bulls and cows, ${this.length} of ${this.digits} digits`; }
  makeSecrets() { return permutations(this.digits, this.length); }
  score(guess, secret) {
    let bulls = 0, common = 0;
    for (let i = 0; i < guess.length; i++) {
      if (guess[i] === secret[i]) bulls++;
      if (secret.includes(guess[i]) && guess.indexOf(guess[i]) === i) common++;
    }
    return [bulls, common - bulls];
  }
  parseCode(text) {
    const code = parseDigits(text, this);
    if (new Set(code).size !== code.length) throw new Error(`${repr(text)} repeats a digit; bulls-and-cows codes have distinct digits`);
    return code;
  }
}

const TWOD_WORDS = [["1,0,0", "<="], ["0,1,0", ">="], ["0,0,0", "none"], ["1,1,1", "=="]];
const TWOD_ALIASES = { le: [1, 0, 0], ge: [0, 1, 0], no: [0, 0, 0], neither: [0, 0, 0], eq: [1, 1, 1], "=": [1, 1, 1], win: [1, 1, 1] };

export class TwoD extends Game {
  constructor(params) {
    super();
    const { size = 5 } = params;
    requireInt("size", size, 1, 256);
    this.name = "twod";
    this.size = size; this.length = 2; this.symbols = size; this.win = [1, 1, 1];
  }
  params() { return { size: this.size }; }
  title() { return `Twod, ${this.size}x${this.size} grid`; }
  makeSecrets() { return product(this.size, 2); }
  makeFeedbacks() { return [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 1, 1]]; }
  score(guess, secret) {
    const below = secret[0] <= guess[0] && secret[1] <= guess[1];
    const above = secret[0] >= guess[0] && secret[1] >= guess[1];
    return [Number(below), Number(above), Number(guess[0] === secret[0] && guess[1] === secret[1])];
  }
  formatCode(code) { return `${code[0]},${code[1]}`; }
  formatFeedback(f) { return TWOD_WORDS.find(([k]) => k === key(f))[1]; }
  parseFeedback(text) {
    const cleaned = text.trim().toLowerCase();
    const word = TWOD_WORDS.find(([, w]) => w === cleaned);
    if (word) return word[0].split(",").map(Number);
    if (Object.hasOwn(TWOD_ALIASES, cleaned)) return TWOD_ALIASES[cleaned].slice();
    const digits = cleaned.replace(/[\s,]+/g, "");
    if (/^[01]{3}$/.test(digits)) return this.checkFeedback([...digits].map(Number), text);
    throw new Error(`${repr(text)} is not twod feedback: write <=, >=, none or == (or 100, 010, 000, 111)`);
  }
}

const EMOJI = { "🟩": "2", "🟨": "1", "⬛": "0", "⬜": "0" };
const MARK_LETTERS = { g: "2", y: "1", b: "0", "-": "0", ".": "0", x: "0", w: "0" };

function carried(text, length, name, empty) {
  const words = text ? text.split(" ") : [];
  if (!words.length && !empty) throw new Error(`${name} is empty`);
  const ok = words.every((w, i) => w.length === length && /^[a-z]*$/.test(w) && (i === 0 || words[i - 1] < w));
  if (!ok) throw new Error(`${name} is not a sorted list of distinct words of ${length} letters a-z`);
  return words;
}

export class Words extends Game {
  // Only a tree that carries its words (format 1.1) can be played here: a 1.0 tree names files.
  constructor(params, listDigest) {
    super();
    const { answers = null, guesses = null, hard = false, length = 5, answers_sha256: answersSha = null,
      guesses_sha256: guessesSha = null, answer_words: answerWords = null, guess_words: guessWords = null } = params;
    requireInt("length", length, 1, 10);
    if (answerWords === null) {
      throw new Error("the tree names its word list files (a format 1.0 words tree), which this player cannot read: "
        + "rewrite it with a guesstree that carries the words");
    }
    if (answers !== null || guesses !== null) throw new Error("words takes its lists from files or from answer_words, not both");
    if (![answersSha, guessesSha, answerWords, guessWords].every((v) => typeof v === "string")) {
      throw new Error("embedded word lists need answer_words, guess_words and both sha256 as text");
    }
    this.name = "words";
    this.hard = truthy(hard); this.length = length; this.symbols = 26; this.win = new Array(length).fill(2);
    this.answersSha256 = answersSha; this.guessesSha256 = guessesSha;
    this.answerWords = answerWords; this.guessWords = guessWords;
    this.answers = carried(answerWords, length, "answer_words", false);
    if (listDigest(this.answers.map((w) => `${w}\n`).join("")) !== answersSha) {
      throw new Error("the answer words it carries do not match their sha256");
    }
    const extra = carried(guessWords, length, "guess_words", true);
    this.words = [...new Set([...this.answers, ...extra])].sort();
  }
  params() {
    return { hard: this.hard, length: this.length, answers_sha256: this.answersSha256, guesses_sha256: this.guessesSha256,
      answer_words: this.answerWords, guess_words: this.guessWords };
  }
  title() { return `Words of ${this.length} letters (${this.answers.length} answers${this.hard ? ", hard mode" : ""})`; }
  makeSecrets() { return this.answers.map((w) => [...w].map((c) => ALPHABET.indexOf(c))); }
  makeFeedbacks() {
    const n = this.length, out = [];
    for (let i = 0; i < 3 ** n; i++) {
      const f = [];
      for (let v = i, j = 0; j < n; j++, v = Math.floor(v / 3)) f.unshift(v % 3);
      const exact = f.filter((m) => m === 2).length, present = f.filter((m) => m === 1).length;
      if (!(exact === n - 1 && present === 1)) out.push(f);
    }
    return out;
  }
  score(guess, secret) {
    const n = guess.length, result = new Array(n).fill(0), unmatched = new Array(26).fill(0);
    for (let i = 0; i < n; i++) {
      if (guess[i] === secret[i]) result[i] = 2;
      else unmatched[secret[i]]++;
    }
    for (let i = 0; i < n; i++) {
      if (result[i] !== 2 && unmatched[guess[i]] > 0) { result[i] = 1; unmatched[guess[i]]--; }
    }
    return result;
  }
  feedbackKey(f) { return f.reduce((k, m) => k * 3 + m, 0); }
  scoreKey(guess, secret) {  // the score in base 3, built without arrays
    const counts = this._counts || (this._counts = new Int32Array(26)), n = guess.length;
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
  allows(guess, history) {  // hard mode: greens stay in place, revealed letters are reused as often
    if (!this.hard) return null;
    for (let step = 0; step < history.length; step++) {
      const [played, feedback] = history[step];
      for (let p = 0; p < played.length; p++) {
        if (feedback[p] === 2 && guess[p] !== played[p]) {
          return `hard mode: guess ${step + 1} fixed ${LETTERS[played[p]]} at position ${p + 1}`;
        }
      }
      const revealed = new Array(26).fill(0), have = new Array(26).fill(0);
      played.forEach((letter, p) => { if (feedback[p]) revealed[letter]++; });
      guess.forEach((letter) => { have[letter]++; });
      for (let letter = 0; letter < 26; letter++) {
        if (revealed[letter] && have[letter] < revealed[letter]) {
          const times = revealed[letter] > 1 ? ` ${revealed[letter]} times` : "";
          return `hard mode: guess ${step + 1} revealed ${LETTERS[letter]}${times}, which this guess does not reuse`;
        }
      }
    }
    return null;
  }
  formatCode(code) { return code.map((c) => LETTERS[c]).join(""); }
  parseCode(text) {
    const word = text.trim().toLowerCase();
    if (!word || ![...word].every((c) => ALPHABET.includes(c))) throw new Error(`${repr(text)} is not a word: use the letters a-z`);
    return this.checkCode([...word].map((c) => ALPHABET.indexOf(c)), text);
  }
  formatFeedback(f) { return f.map((m) => "-YG"[m]).join(""); }
  parseFeedback(text) {
    const marks = [];
    for (const c of text) {
      if (c.trim() === "") continue;
      const digit = EMOJI[c] || MARK_LETTERS[c.toLowerCase()] || c;
      marks.push(digit === "2" ? 2 : digit === "1" ? 1 : digit === "0" ? 0 : -1);
    }
    if (marks.length !== this.length || marks.includes(-1)) {
      const n = this.length;
      throw new Error(`${repr(text)} is not feedback for ${n}-letter words: write ${n} marks, G (exact), Y (present) or - (absent), `
        + `e.g. 'GY-${"-".repeat(n - 3)}', or 2/1/0, or the coloured squares`);
    }
    return this.checkFeedback(marks, text);
  }
}

export const GAMES = { mastermind: Mastermind, "bulls-cows": BullsCows, digits: Digits, twod: TwoD, words: Words };
const TAKES = {  // the keyword arguments each constructor takes, and the options it lists when refusing others
  mastermind: [["colours", "holes", "secret_repeats", "guess_repeats"]], "bulls-cows": [["digits", "length"]],
  digits: [["length"]], twod: [["size"]],
  words: [["answers", "guesses", "hard", "length"], ["answers_sha256", "guesses_sha256", "answer_words", "guess_words"]],
};

// make_game(name, **params): an unknown parameter is refused as Python's TypeError is.
export function makeGame(name, params, listDigest) {
  const [options, more = []] = TAKES[name];
  if (Object.keys(params).some((k) => !options.includes(k) && !more.includes(k))) {
    throw new Error(`bad parameters for ${name}: ${Object.keys(params).join(", ")} (it takes ${options.join(", ")})`);
  }
  return new GAMES[name](params, listDigest);
}
