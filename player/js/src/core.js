// A loaded decision tree, built from an artifact's decoded header and body (trees/FORMAT.md §2-4),
// checked as player/tree.py checks it, answering nextGuess, path, candidates and suggest.
// No imports beyond games.js and advice.js: the HTML export inlines them and embeds the decoded tree.
import { Float, GAMES, isInt, makeGame, plainValue, pyEqual, repr } from "./games.js";
import { bestGuess, openings } from "./advice.js";

export { Float, GAMES, Game, makeGame, repr } from "./games.js";

export const MAX_NODES = 1 << 20;  // player/tree.py's cap: loading checks every node

export class FormatError extends Error {  // the file is not a usable artifact; the message names it and why
  name = "FormatError";
}

export class InconsistentHistory extends Error {  // the history leaves the tree, or no secret fits it
  name = "InconsistentHistory";
}

const STAT_COUNTS = ["secrets", "total", "worst", "determined_total", "determined_worst"];
const STAT_AVERAGES = ["average", "determined_average"], STAT_HISTOGRAMS = ["histogram", "determined_histogram"];
const STAT_WEIGHTED = ["weighted_total", "weighted_mean", "total_weight"];  // a weighted game's, all or none (FORMAT.md §2.3)
const STRATEGY_TYPES = { name: "str", candidates: "str", seed: "int", guess_sample: "int", secret_sample: "int" };
const PLAIN = "not a map of names to plain values", goneOn = (won) => `step ${won + 1}: the game was won at step ${won}, yet the history goes on`;

// Map keys that were not strings in the file are kept apart (see index.js: nonStringKey).
export const NON_STRING = "\u0000";
const isStringKey = (k) => !k.startsWith(NON_STRING);
export const isMap = (v) => v != null && Object.getPrototypeOf(v) === Object.prototype;  // a decoded map, not an array, bin or Float
const isScalar = (v) => v === null || ["boolean", "number", "string"].includes(typeof v) || v instanceof Float;
const typeName = (v) => (isInt(v) ? "int" : typeof v === "string" ? "str" : "other");
const isIterable = (v) => typeof v?.[Symbol.iterator] === "function" && typeof v !== "string";
const isSequence = (v) => typeof v === "string" || isIterable(v);
const list = (v) => (Array.isArray(v) ? v : [...v]);
const joined = (code) => code.join(",");
const largest = (values) => {  // an indexed loop: reduce or for-of, run once, are several times slower
  let top = 0;
  for (let i = 0; i < values.length; i++) if (values[i] > top) top = values[i];
  return top;
};

export const MAX_NOTICE_BYTES = 64 << 10;  // player/tree.py's cap: a notice is a licence

// The licence of the data the game embeds (a words tree's lists), or null.
function readNotice(header, fail) {
  const notice = header.notice;
  if (notice === undefined || notice === null) return null;
  if (!(typeof notice === "string" && notice.trim() && new TextEncoder().encode(notice).length <= MAX_NOTICE_BYTES)) {
    fail(`the header's notice is not a text of at most ${MAX_NOTICE_BYTES} bytes`);
  }
  return notice;
}

// How many guesses the tree was compiled with, where the game carries fewer; or null.
function readAllowedGuesses(header, fail) {
  const allowed = header.allowed_guesses;
  if (allowed === undefined || allowed === null) return null;
  if (!(isInt(allowed) && allowed >= 1 && allowed < 2 ** 32)) fail(`the header's allowed_guesses ${repr(allowed)} is not a count of guesses`);
  return allowed;
}

export class Tree {
  #win; #store; #feedbackIndex; #book = null;

  // header: the document's map (game, strategy, stats, producer); body: the body's map, with
  // `guess`, `edge_count`, `edge_feedback` as Uint8Array. listDigest(text) is the sha256 (hex)
  // of a words tree's canonical answer list, which index.js computes before (WebCrypto is async).
  // game: a game built elsewhere (the HTML page of a plugin game's tree), used as it is.
  constructor(header, body, { name = "<tree>", listDigest = () => undefined, game = null } = {}) {
    const fail = (reason) => { throw new FormatError(`${name}: ${reason}`); };
    Object.assign(this, { name, header, game: game || readGame(header, fail, listDigest),
      strategy: readStrategy(header, fail), stats: readStats(header, fail) });
    const producer = header.producer;
    if (typeof producer !== "string") fail(`the header's producer is ${repr(producer)}, not a string`);
    this.notice = readNotice(header, fail);
    this.allowedGuesses = readAllowedGuesses(header, fail);
    this.#readBody(body, fail);
  }

  guessOf(node) {
    return this.#store.guessOf(node);
  }

  // The opening book suggest follows after a first guess of one's own (player/book.py): a function
  // (game key, first guess as text) -> a loaded tree or null, as bookOf(trees) makes; null: none,
  // and then the rule alone (as Python's use_book = False). Node's loadFile and loadShipped give
  // every tree the shipped book; bookOf([]) is an empty book.
  useBook(book) {
    if (book !== null && typeof book !== "function") throw new TypeError(`useBook takes a function or null, not ${repr(book)}`);
    this.#book = book;
    return this;
  }

  edges(node) {  // [feedback, child] for each answer other than the win, in edge order
    return this.#store.edges(node).map(([index, child]) => [this.feedbacks[index], child]);
  }

  child(node, feedback) {
    return this.#child(node, joined(feedback));
  }

  #child(node, key) {  // key: the feedback's ints joined by commas
    const index = this.#feedbackIndex.get(key);
    return index === undefined ? null : this.#store.child(node, index);
  }

  #plays(node, guess) {
    return this.#store.plays(node, guess);
  }

  // The guess to play after history ([[guess, feedback], ...], oldest first, each as arrays of ints
  // or the game's text); null once the winning feedback was given to a guess that can be the secret
  // (one of the game's secrets, which gives every earlier answer).
  nextGuess(history) {
    const [node, left, won] = this.#follow(this.#steps(history));
    if (left) throw new InconsistentHistory(left);
    return won ? null : this.guessOf(node);
  }

  // Walk steps down the tree, as player/tree.py's _follow: [the node reached, why the history
  // leaves the tree or null, won]; where it leaves, the node is the last one it followed.
  #follow(steps) {
    let node = 0;
    for (let i = 0; i < steps.length; i++) {
      const [guess, feedback] = steps[i], step = i + 1;
      if (!this.#plays(node, guess)) return [node, `step ${step}: the tree plays ${this.#text(this.guessOf(node))} here, not ${this.#text(guess)}`];
      const key = joined(feedback);
      if (key === this.#win) {
        if (step < steps.length) return [node, goneOn(step)];
        // the tree's guess here is no secret, or not one the answers allow
        return this.#wins(steps) ? [node, null, true] : [node, this.#noSecret(steps)];
      }
      const next = this.#child(node, key);
      if (next === null) {
        this.#check(guess, feedback, step);  // an array the game cannot give is refused as its text is
        return [node, `step ${step}: no secret left gives ${this.#text(feedback, true)} to ${this.#text(guess)}`];
      }
      node = next;
    }
    return [node, null, false];
  }

  // The (guess, feedback) pairs of history as arrays of ints, text parsed; checked: the arrays also
  // checked as the game's text is (what candidates and suggest score must be a code and a feedback of the game).
  #steps(history, checked = false) {
    if (!isIterable(history)) {
      throw new TypeError(`history must be a list of (guess, feedback) pairs, not ${history === null ? "null" : typeof history}`);
    }
    const steps = [];
    for (const pair of history) steps.push(this.#step(pair, steps.length + 1, checked));
    return steps;
  }

  // An Error naming the step where guess is not a code of the game or feedback not one it can give.
  #check(guess, feedback, step) {
    try {
      this.game.checkCode(guess);
      this.game.checkFeedback(feedback);
    } catch (error) {
      throw new Error(`step ${step}: ${error.message}`);
    }
  }

  #step(pair, step, checked) {
    const items = isIterable(pair) ? list(pair) : null, [guess, feedback] = items ?? [], { game } = this;
    if (items?.length !== 2 || !isSequence(guess) || !isSequence(feedback)) {
      throw new TypeError(`step ${step}: expected a (guess, feedback) pair of int arrays or of the game's text, not ${repr(items ?? pair)}`);
    }
    try {
      return [typeof guess === "string" ? game.parseCode(guess) : checked ? game.checkCode(guess) : list(guess),
        typeof feedback === "string" ? game.parseFeedback(feedback) : checked ? game.checkFeedback(feedback) : list(feedback)];
    } catch (error) {
      throw new Error(`step ${step}: ${error.message}`);
    }
  }

  // The guesses and feedback the tree plays against secret (array of ints or the game's text), up to the win.
  path(secret) {
    secret = typeof secret === "string" ? this.game.parseCode(secret) : this.game.checkCode(secret);
    const played = [];
    for (let node = 0; node !== null; node = this.child(node, played.at(-1)[1])) {
      const guess = this.guessOf(node), feedback = this.game.score(guess, secret);
      played.push([guess, feedback]);
      if (joined(feedback) === this.#win) return played;
    }
    throw new InconsistentHistory(`the tree cannot play ${this.#text(secret)}: it has no answer after ${this.#played(played)}`);
  }

  // The game's secrets, in canonical order, that give every (guess, feedback) of history.
  // A guess the game does not allow (a typo, a non-word) is refused unless anyGuess.
  candidates(history, { anyGuess = false } = {}) {
    return this.#candidates(this.#allowed(this.#steps(history, true), anyGuess));
  }

  // Why guess is not one of the game's allowed guesses, or null (as player/tree.py's unknown_guess:
  // a tree that carries fewer guesses than it was compiled with cannot tell, and takes every code).
  unknownGuess(guess) {
    if (this.allowedGuesses !== null || this.game.isGuess(guess)) return null;
    return `${this.#text(guess)} is not one of the game's ${this.game.guesses().length} allowed guesses`;
  }

  #allowed(steps, anyGuess) {
    steps.forEach(([guess], i) => {
      const problem = anyGuess ? null : this.unknownGuess(guess);
      if (problem) throw new Error(`step ${i + 1}: ${problem} (anyGuess: true plays it anyway)`);
    });
    return steps;
  }

  #candidates(steps) {
    const { game } = this;
    const wanted = steps.map(([guess, feedback]) => [guess, game._feedbackKey(feedback)]);
    return game.secrets().filter((secret) => wanted.every(([guess, f]) => game._scoreKey(guess, secret) === f));
  }

  // The tree's guess while history follows the tree (null once won); off the tree, the guess of
  // player/advice.py's rule (advice.js), the same as the Python player's.
  suggest(history, { anyGuess = false } = {}) {
    const steps = this.#allowed(this.#steps(history, true), anyGuess);
    const [node, left, onTreeWon] = this.#follow(steps);
    if (!left) return onTreeWon ? null : this.guessOf(node);
    const { game } = this;
    const won = steps.findIndex(([, feedback]) => joined(feedback) === this.#win);
    if (won >= 0) {
      if (won !== steps.length - 1) throw new InconsistentHistory(goneOn(won + 1));
      if (!this.#wins(steps)) throw new InconsistentHistory(this.#noSecret(steps));
      return null;
    }
    // a history that a tree of the same game follows is one some secret gives: no candidates needed
    for (const [tree, to, back] of this.#book ? openings(this, steps[0][0], this.#book) : []) {
      const [node, left] = tree.#follow(steps.map(([g, f]) => [to(g), f]));
      if (!left) return back(tree.guessOf(node));
    }
    const C = this.#candidates(steps);
    if (!C.length) throw new InconsistentHistory(this.#noSecret(steps));
    return bestGuess(game, this.stats.worst, steps, C);
  }

  // Can the last guess of steps, answered with the win, be the secret: one of the game's secrets that
  // gives every earlier answer? (The win answers the secret alone: candidates for a score a step.)
  #wins(steps) {
    const { game } = this, secret = steps.at(-1)[0];
    return game.isSecret(secret) && steps.slice(0, -1).every(([guess, f]) => game._scoreKey(guess, secret) === game._feedbackKey(f));
  }

  #noSecret(steps) { return `no secret gives all these answers: ${this.#played(steps)}`; }

  // A code (or a feedback) for a message: in the game's text, or as ints where the game cannot
  // write it (a feedback the game never gives).
  #text(value, feedback = false) {
    try {
      const text = feedback ? this.game.formatFeedback(value) : this.game.formatCode(value);
      if (!feedback || !text.includes("undefined")) return text;
    } catch { /* written as ints below */ }
    return `(${[...value].join(", ")})`;
  }

  #played(steps) { return steps.map(([g, f]) => `${this.#text(g)} ${this.#text(f, true)}`).join(", "); }

  #readBody(body, fail) {
    const table = readTable(body.index ?? body, this.game, fail, body.index ? MAX_CHUNKED_NODES : MAX_NODES);
    this.feedbacks = table.feedbacks;
    this.#feedbackIndex = new Map(table.feedbacks.map((f, i) => [joined(f), i]));
    if (this.#feedbackIndex.size !== table.feedbacks.length) fail("the feedback table repeats a value");
    this.nodes = table.nodes;
    this.#win = joined(this.game.win);
    this.#store = body.index ? new Chunks(table, body, this.name) : whole(table, body, fail);
  }
}

// The node count, code length and feedback table of a body (1.x) or an index (2.x), checked.
function readTable(body, game, fail, most) {
  const nodes = body.nodes, length = body.code_length, width = body.feedback_width;
  if (!isInt(nodes) || nodes < 1 || nodes > most) fail(`bad node count ${repr(nodes)} (this player reads 1 to ${most} nodes)`);
  if (length !== game.length) fail(`code length ${repr(length)} does not match the game's ${game.length}`);
  if (width !== 1 && width !== 2) fail(`bad feedback width ${repr(width)} (1 or 2 bytes)`);
  const feedbacks = body.feedbacks;
  if (!Array.isArray(feedbacks) || !feedbacks.length) fail("the feedback table is missing");
  const bad = feedbacks.find((item) => !Array.isArray(item) || !item.every(isInt) || !game._isFeedback(item));
  if (bad !== undefined) fail(`the feedback table holds ${repr(bad)}, which this game never gives`);
  const win = joined(game.win);
  return { nodes, length, width, feedbacks, symbols: game.symbols, winIndex: feedbacks.findIndex((f) => joined(f) === win) };
}

const uints = (data, width) => {  // little-endian uints of width bytes (1, 2 or 4)
  if (width === 1) return data;
  const out = width === 2 ? new Uint16Array(data.length / 2) : new Uint32Array(data.length / 4);
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (let b = width - 1; b >= 0; b--) v = v * 256 + data[width * i + b];
    out[i] = v;
  }
  return out;
};

// Consecutive nodes, base on, with their edges, edgeBase on (edge e leads to node e + 1), checked as
// player/body.py's Piece checks them: the whole tree of a 1.x body, or one chunk of a 2.x one.
class Piece {
  constructor(table, guess, counts, edgeFeedback, base, edgeBase, fail) {
    const nodes = counts.length, { length } = table;
    if (guess.length !== nodes * length) fail(`${guess.length} guess symbols for ${nodes} nodes of ${length}`);
    const top = largest(guess);
    if (top >= table.symbols) fail(`a guess uses symbol ${top}, beyond the game's ${table.symbols}`);
    const first = new Uint32Array(nodes + 1);  // node base + k -> its first edge
    let total = edgeBase;
    first[0] = total;
    for (let k = 0; k < nodes; k++) first[k + 1] = total += counts[k];
    if (total - edgeBase !== edgeFeedback.length) {
      fail(`the edge counts of nodes ${base} to ${base + nodes - 1} add up to ${total - edgeBase}, but ${edgeFeedback.length} edges leave them`);
    }
    if (largest(edgeFeedback) >= table.feedbacks.length) fail("an edge names a feedback beyond the feedback table");
    // The parent of child: the p with first[p] <= child - 1 < first[p + 1].
    const parent = (child) => base + first.findLastIndex((f, p) => p < nodes && f <= child - 1);
    // Node n's parent comes before it exactly when its first edge is at least n; otherwise an edge leads back (a cycle).
    for (let k = base ? 0 : 1; k < nodes; k++) {
      if (first[k] < base + k) fail(`node ${parent(base + k)}: its child ${base + k} would come before it or be itself (a cycle)`);
    }
    const winEdge = edgeFeedback.indexOf(table.winIndex);  // -1 if none
    if (winEdge >= 0) fail(`node ${parent(edgeBase + winEdge + 1)}: an edge follows the winning feedback`);
    Object.assign(this, { base, length, guess, first, edgeFeedback, bytes: guess.byteLength + first.byteLength + edgeFeedback.byteLength });
  }

  guessOf(node) {
    const h = this.length, at = (node - this.base) * h, code = new Array(h);
    for (let i = 0; i < h; i++) code[i] = this.guess[at + i];
    return code;
  }

  plays(node, guess) {
    const h = this.length, at = (node - this.base) * h;
    if (guess.length !== h) return false;
    for (let i = 0; i < h; i++) if (this.guess[at + i] !== guess[i]) return false;
    return true;
  }

  child(node, index) {
    const { first, edgeFeedback } = this, local = node - this.base, shift = first[0];
    for (let e = first[local] - shift; e < first[local + 1] - shift; e++) if (edgeFeedback[e] === index) return e + shift + 1;
    return null;
  }

  edges(node) {  // [feedback index, child] of each edge, in edge order
    const { first, edgeFeedback } = this, local = node - this.base, shift = first[0], out = [];
    for (let e = first[local]; e < first[local + 1]; e++) out.push([edgeFeedback[e - shift], e + 1]);
    return out;
  }
}

function whole(table, body, fail) {  // the nodes of a 1.x body: one piece, checked whole
  const array = (k, itemWidth) => {  // a body array of uints, itemWidth bytes each (little-endian)
    const data = body[k];
    if (!(data instanceof Uint8Array) || data.length % itemWidth) fail(`body array '${k}' is missing or malformed`);
    return uints(data, itemWidth);
  };
  const { nodes, length, width } = table;
  const guess = array("guess", 1), counts = array("edge_count", width), edgeFeedback = array("edge_feedback", width);
  if (guess.length !== nodes * length) fail(`${guess.length} guess symbols for ${nodes} nodes of ${length}`);
  if (counts.length !== nodes || edgeFeedback.length !== nodes - 1) {
    fail(`${counts.length} edge counts and ${edgeFeedback.length} edges for ${nodes} nodes`);
  }
  let total = 0;
  for (let k = 0; k < nodes; k++) total += counts[k];
  if (total !== nodes - 1) fail(`the edge counts add up to ${total}, but ${nodes} nodes need ${nodes - 1} edges`);
  return new Piece(table, guess, counts, edgeFeedback, 0, 0, fail);
}

export const MAX_CHUNKED_NODES = 2 ** 32 - 1, MAX_CHUNK_NODES = 1 << 20, MAX_CHUNKS = 1 << 20, MAX_CHUNK_BYTES = 16 << 20;
const CACHE_BYTES = 32 << 20;  // chunks kept decoded, at most this many bytes, the least recently used dropped first

// The nodes of a 2.x body (trees/FORMAT.md §10), as player/body.py's Chunks: the index checked on
// opening, each chunk when first read (chunked.inflate: index.js's, which checks the frame), the
// most recently used kept decoded, up to CACHE_BYTES. chunked: { index, data, start, inflate }.
class Chunks {
  #cache = new Map();  // oldest use first
  #cached = 0;  // their bytes

  constructor(table, chunked, name) {
    const fail = (reason) => { throw new FormatError(`${name}: ${reason}`); };
    const { index, data, start: documentEnd } = chunked, { nodes, width, length } = table;
    const size = index.chunk_nodes;
    if (!isInt(size) || size < 1 || size > MAX_CHUNK_NODES) fail(`bad chunk size ${repr(size)} (1 to ${MAX_CHUNK_NODES} nodes a chunk)`);
    const count = Math.ceil(nodes / size), columns = {};
    if (count > MAX_CHUNKS) fail(`${count} chunks of ${size} nodes, more than the ${MAX_CHUNKS} this player reads`);
    for (const key of ["chunk_size", "chunk_first_edge", "chunk_checksum"]) {
      const column = index[key];
      if (!(column instanceof Uint8Array) || column.length !== 4 * count) {
        fail(`the index's ${key} is not ${count} entries of 4 bytes (${count} chunks of ${size} nodes)`);
      }
      columns[key] = column;
    }
    const sizes = uints(columns.chunk_size, 4), first = new Float64Array(count + 1);  // each chunk's first edge
    first.set(uints(columns.chunk_first_edge, 4));
    first[count] = nodes - 1;
    const offsets = new Float64Array(count + 1);  // where each chunk starts, and the end
    offsets[0] = documentEnd;
    for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c] + sizes[c];
    if (offsets[count] !== data.length) {
      fail(`the index's chunks take ${offsets[count] - documentEnd} bytes, but ${data.length - documentEnd} follow the document`);
    }
    const most = table.feedbacks.length - 1;
    const inflated = (c) => Math.min(size, nodes - c * size) * (length + width) + (first[c + 1] - first[c]) * width;
    for (let c = 0; c < count; c++) {
      const from = c * size, held = Math.min(size, nodes - from), edges = first[c + 1] - first[c];
      if (first[c] < from || edges < 0 || edges > held * most) {  // first[0] >= 0 is the root's
        fail(`the index's chunk ${c} starts at edge ${first[c]}, which its nodes ${from} to ${from + held - 1} cannot have`);
      }
    }
    if (first[0] !== 0) fail(`the index's first chunk starts at edge ${first[0]}, not 0`);
    let biggest = 0;  // the first of the largest, as Python finds it
    for (let c = 1; c < count; c++) if (inflated(c) > inflated(biggest)) biggest = c;
    if (inflated(biggest) > MAX_CHUNK_BYTES) {
      fail(`the index's chunk ${biggest} would inflate to ${inflated(biggest)} bytes, more than the ${MAX_CHUNK_BYTES} allowed`);
    }
    this.first = first;
    this.inflated = inflated;
    Object.assign(this, { table, data, offsets, size, name, inflate: chunked.inflate, checksums: columns.chunk_checksum });
    this.piece(0);  // the root's chunk: a file whose first lookup would fail is refused now
  }

  piece(c) {
    let piece = this.#cache.get(c);
    if (piece) {
      this.#cache.delete(c);
    } else {
      piece = this.#read(c);
      this.#cached += piece.bytes;
      for (const [old, dropped] of this.#cache) {
        if (this.#cached <= CACHE_BYTES) break;
        this.#cache.delete(old);
        this.#cached -= dropped.bytes;
      }
    }
    this.#cache.set(c, piece);
    return piece;
  }

  #read(c) {
    const name = `${this.name}: chunk ${c}`, fail = (reason) => { throw new FormatError(`${name}: ${reason}`); };
    const { table, size } = this, from = c * size, held = Math.min(size, table.nodes - from), edgeBase = this.first[c];
    const inflated = this.inflated(c);
    const frame = this.data.subarray(this.offsets[c], this.offsets[c + 1]);
    if (frame.length < 4 || [0, 1, 2, 3].some((i) => frame[frame.length - 4 + i] !== this.checksums[4 * c + i])) {
      fail("its checksum is not the index's (the file is damaged or was altered)");
    }
    const raw = this.inflate(frame, (reason) => new FormatError(`${name}: ${reason}`), inflated);
    if (raw.length !== inflated) fail(`it holds ${raw.length} bytes, not the ${inflated} of its nodes and edges`);
    const { width } = table, guesses = held * table.length;
    const counts = uints(raw.subarray(guesses, guesses + held * width), width), edgeFeedback = uints(raw.subarray(guesses + held * width), width);
    return new Piece(table, raw.subarray(0, guesses), counts, edgeFeedback, from, edgeBase, fail);
  }

  guessOf(node) { return this.piece(Math.floor(node / this.size)).guessOf(node); }
  plays(node, guess) { return this.piece(Math.floor(node / this.size)).plays(node, guess); }
  child(node, index) { return this.piece(Math.floor(node / this.size)).child(node, index); }
  edges(node) { return this.piece(Math.floor(node / this.size)).edges(node); }
}

function readGame(header, fail, listDigest) {
  const spec = header.game;
  if (!isMap(spec) || typeof spec.name !== "string") fail("the header has no usable game spec");
  const gameName = spec.name, params = Object.hasOwn(spec, "params") ? spec.params : {};
  if (!isMap(params) || !Object.entries(params).every(([k, v]) => isStringKey(k) && isScalar(v))) {
    fail(`the game's parameters ${repr(params)} are ${PLAIN}`);
  }
  if (!Object.hasOwn(GAMES, gameName)) {
    fail(gameName.includes(":") ? `the game is the plugin '${gameName}', which only the Python player runs` : `unknown game '${gameName}'`);
  }
  let game;
  try {
    game = makeGame(gameName, params, listDigest);
  } catch (error) {
    fail(`cannot rebuild the game '${gameName}': ${error.message}`);
  }
  const rebuilt = game.params();
  const stray = Object.keys(params).find((k) => !Object.hasOwn(rebuilt, k) || !pyEqual(rebuilt[k], params[k]));
  if (stray !== undefined) fail(`the game '${gameName}' does not take ${stray}=${repr(params[stray])} as written`);
  return game;
}

function readStrategy(header, fail) {
  const strategy = header.strategy;
  const ok = isMap(strategy) && typeof strategy.name === "string" && Object.entries(strategy).every(
    ([k, v]) => isStringKey(k) && isScalar(v) && (!Object.hasOwn(STRATEGY_TYPES, k) || typeName(v) === STRATEGY_TYPES[k]));
  if (!ok) fail(`the header's strategy ${repr(strategy)} is ${PLAIN}`);
  return plain(strategy);
}

function readStats(header, fail) {
  const stats = header.stats, statistic = (k) => `the statistic '${k}' is`;
  if (!isMap(stats) || [...STAT_COUNTS, ...STAT_AVERAGES, ...STAT_HISTOGRAMS].some((k) => !Object.hasOwn(stats, k))) {
    fail("the header's statistics are missing or incomplete");
  }
  for (const k of STAT_COUNTS) {
    if (!isInt(stats[k]) || stats[k] < 0) fail(`${statistic(k)} ${repr(stats[k])}, not a whole number`);
  }
  for (const k of STAT_AVERAGES) {
    const value = plainValue(stats[k]);  // false, "1" and NaN are not finite numbers
    if (!(Number.isFinite(value) && value >= 0)) fail(`${statistic(k)} ${repr(stats[k])}, not a number`);
  }
  const weighted = STAT_WEIGHTED.filter((k) => Object.hasOwn(stats, k));
  if (weighted.length && weighted.length < STAT_WEIGHTED.length) {
    fail(`the header's statistics have '${weighted[0]}' but not '${STAT_WEIGHTED.find((k) => !weighted.includes(k))}'`);
  }
  for (const k of weighted) {
    const value = plainValue(stats[k]);  // an int or a float, finite and positive (not a bool)
    if (!(typeof value === "number" && Number.isFinite(value) && value > 0)) fail(`${statistic(k)} ${repr(stats[k])}, not a positive number`);
  }
  const out = plain(stats);
  for (const k of STAT_HISTOGRAMS) {  // stored as [[guesses, secrets], ...]
    const pairs = stats[k];
    if (!Array.isArray(pairs) || !pairs.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => isInt(x) && x >= 0))) {
      fail(`${statistic(k)} not a list of [guesses, secrets] pairs`);
    }
    if (pairs.some((p, i) => i > 0 && pairs[i - 1][0] >= p[0])) fail(`${statistic(k)} not in increasing order of guesses`);
    out[k] = Object.fromEntries(pairs);
  }
  return out;
}

function plain(map) {  // a header map as a program reads it: string keys, floats as numbers
  const out = {};
  for (const [k, v] of Object.entries(map)) if (isStringKey(k)) out[k] = plainValue(v);
  return out;
}
