"use strict";
// The guesstree web player. The JavaScript package's core (player/js/src/games.js and core.js:
// Game, Tree, ...) is inlined just above this script by player/export.py, so this page plays with
// the very code of the package; the tree is embedded as the artifact's header and body (its
// arrays in base64). The person answers the guess shown, or types a guess of their own with its
// feedback; either way the page keeps the history, the secrets that fit it (Tree.candidates) and
// the next guess (Tree.suggest: the tree's while the history follows it).
const data = JSON.parse(document.getElementById("tree-data").textContent);
const bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const bodyOf = (embedded) => ({ ...embedded.body, guess: bytes(embedded.body.guess),
  edge_count: bytes(embedded.body.edge_count), edge_feedback: bytes(embedded.body.edge_feedback) });
const body = bodyOf(data);

// A plugin game's rules are not in the package: the page has its score table instead.
class TableGame extends Game {
  constructor(table, spec) {
    super();
    Object.assign(this, { name: table.name, length: table.length, symbols: table.symbols, win: table.win, table, spec });
    this.codeIndex = new Map(table.codes.map((c, i) => [c.join(","), i]));
    this.texts = new Map(table.code_texts.map((t, i) => [t.toUpperCase(), table.codes[i]]));
    // the letters the page's keyboards write, should the plugin's page be of letters: a-z, as before alphabets
    this.alphabet = [..."abcdefghijklmnopqrstuvwxyz"].slice(0, table.symbols);
    this.capitals = this.alphabet.map((c) => c.toUpperCase());
  }
  letterOf(c) { return this.alphabet.indexOf(c.toLowerCase()); }
  params() { return this.spec.params || {}; }
  title() { return this.table.title; }
  _secrets() { return this.table.codes.slice(0, this.table.secrets); }
  _guesses() { return this.table.codes; }  // the page knows the secrets and the tree's guesses only
  _feedbacks() { return this.table.feedbacks; }
  score(guess, secret) {
    const g = this.codeIndex.get(guess.join(",")), s = this.codeIndex.get(secret.join(","));
    if (g === undefined || s === undefined || s >= this.table.secrets) {
      throw new Error(`this page knows the plugin game's answers for its secrets and the tree's guesses only, not ${this.formatCode(guess)}`);
    }
    return this.table.feedbacks[this.table.scores[g * this.table.secrets + s]];
  }
  formatCode(code) {
    const i = this.codeIndex.get(code.join(","));
    return i === undefined ? code.join(",") : this.table.code_texts[i];
  }
  parseCode(text) {
    const code = this.texts.get(text.trim().toUpperCase());
    if (!code) throw new Error(`'${text.trim()}' is not a code of this game: write it as the guesses are written`);
    return code.slice();
  }
  formatFeedback(feedback) { return this.table.feedback_texts[this._feedbackIndex.get(feedback.join(","))]; }
  parseFeedback(text) {
    const cleaned = text.trim().toUpperCase();
    const i = this.table.feedback_texts.findIndex((t, k) => t.toUpperCase() === cleaned
      || this.table.feedbacks[k].join("") === cleaned.replace(/[\s,]+/g, ""));
    if (i < 0) throw new Error(`'${text.trim()}' is not feedback for ${this.name}: write e.g. ${this.table.feedback_texts[0]}`);
    return this.table.feedbacks[i].slice();
  }
}

// export.py wrote these words from a tree the Python player loaded, their sha256 checked.
const options = { name: "the embedded tree", listDigest: () => data.header.game.params.answers_sha256 };
if (data.table) options.game = new TableGame(data.table, data.header.game);
const tree = new Tree(data.header, body, options);
const game = tree.game;
// the opening book's trees of this game, which suggest follows after a first guess of one's own
// and the review reads (review.js)
const openingBook = bookOf((data.book || []).map((opening, i) => new Tree(opening.header, bodyOf(opening),
  { name: `the book's tree ${i + 1}`, game })));
tree.useBook(openingBook);
const FEEDBACKS = game.feedbacks();
const TEXTS = FEEDBACKS.map((f) => game.formatFeedback(f));
const WIN = FEEDBACKS.findIndex((f) => f.join(",") === game.win.join(","));
const indexOf = (feedback) => FEEDBACKS.findIndex((f) => f.join(",") === feedback.join(","));
const same = (a, b) => a.join(",") === b.join(",");

const PALETTE = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#fb8c00", "#8e24aa", "#00acc1", "#f5f5f5",
  "#6d4c41", "#ec407a", "#7cb342", "#3949ab", "#9e9e9e", "#26a69a", "#ffb300", "#5e35b1", "#c0ca33",
  "#d81b60", "#00897b", "#f4511e", "#546e7a", "#8d6e63", "#039be5", "#afb42b", "#ab47bc", "#212121"];
const MARKS = ["-", "Y", "G"];
const MARK_NAMES = ["grey, not in the word", "yellow, elsewhere in the word", "green, right place"];
const MAX_BUTTONS = 40;
const $ = (id) => document.getElementById(id);

let history = [];    // [guess, feedback] steps, as codes
let fits = [];       // the secrets that give every step of the history
let guess = null;    // the guess to play now (the last one once won)
let won = false;
let own = null;      // a guess of the person's own (words), shown for its letters to be coloured; null: the tree's
const shownGuess = () => own ?? guess;  // the guess the tiles, the buttons and the typed feedback answer

function update() {  // every guess of the history was checked when it was taken (playTyped)
  own = null;
  fits = tree.candidates(history, { anyGuess: true });
  won = history.length > 0 && same(history[history.length - 1][1], game.win);
  guess = won ? history[history.length - 1][0] : tree.suggest(history, { anyGuess: true });
}

function onTree() {
  try { tree.nextGuess(history); return true; } catch (error) { return false; }
}

function el(tag, className, text) {
  const item = document.createElement(tag);
  if (className) item.className = className;
  if (text !== undefined) item.textContent = text;
  return item;
}

function textColour(hex) {
  const v = parseInt(hex.slice(1), 16);
  const luminance = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
  return luminance > 150 ? "#111" : "#fff";
}

function renderCode(code, big, feedback) {
  const text = game.formatCode(code);
  const box = el("span", big ? "code big" : "code");
  box.dataset.code = text;
  box.setAttribute("aria-label", text);
  if (data.kind === "pegs") {
    for (const letter of text) {
      const colour = PALETTE[(letter.charCodeAt(0) - 65) % PALETTE.length];
      const peg = el("span", "peg", letter);
      peg.style.background = colour;
      peg.style.color = textColour(colour);
      box.appendChild(peg);
    }
  } else if (data.kind === "digits") {
    for (const digit of text) box.appendChild(el("span", "tile", digit));
  } else if (data.kind === "letters") {  // with its feedback, each letter coloured by its mark, as in Wordle
    [...text].forEach((letter, i) => {
      const tile = el("span", feedback ? "tile mark" : "tile", letter);
      if (feedback) tile.dataset.mark = String(feedback[i]);
      box.appendChild(tile);
    });
  } else if (data.kind === "pair") {
    const [x, y] = text.split(",");
    const pair = el("span", "pair");
    pair.append(el("span", "axis", "x"), el("span", "tile", x), el("span", "axis", "y"), el("span", "tile", y));
    box.appendChild(pair);
  } else {
    box.appendChild(el("span", "plain", text));
  }
  return box;
}

function renderFeedback(index) {
  const box = el("span", "feedback-label");
  if (data.kind === "pegs") {
    // A key-peg panel as on the board: one slot per hole, black pegs first, then white.
    const holes = game.length;
    const keys = el("span", "keys");
    keys.style.gridTemplateColumns = `repeat(${Math.ceil(holes / 2)}, 9px)`;
    const [black, white] = FEEDBACKS[index];
    for (let i = 0; i < holes; i++) keys.appendChild(el("span", i < black ? "key black" : i < black + white ? "key white" : "key"));
    box.appendChild(keys);
  }
  box.appendChild(el("span", "", TEXTS[index]));
  return box;
}

function step(code, feedback) {  // one line of a history or a path
  const item = el("li");
  const index = indexOf(feedback);
  item.append(renderCode(code, false, data.kind === "letters" ? feedback : null));
  const label = el("span", "feedback", TEXTS[index]);
  label.title = data.describe[index];
  item.append(label);
  return item;
}

// Words: each letter of the guess is a button that cycles grey, yellow, green, as in Wordle.
function markTile(letter, i) {
  const tile = el("button", "tile mark", letter);
  tile.type = "button";
  const show = (mark) => {
    tile.dataset.mark = String(mark);
    tile.setAttribute("aria-label", `letter ${i + 1}, ${letter}: ${MARK_NAMES[mark]}`);
  };
  show(0);
  tile.addEventListener("click", () => show((Number(tile.dataset.mark) + 1) % 3));
  tile.addEventListener("keydown", (event) => {  // Enter submits the marks, as the help says; it does not recolour
    if (event.key !== "Enter") return;
    event.preventDefault();
    submitMarks();
  });
  return tile;
}

function submitMarks() {
  const marks = [...$("guess").querySelectorAll(".mark")].map((tile) => Number(tile.dataset.mark));
  try {
    play(shownGuess(), game.checkFeedback(marks, marks.map((m) => MARKS[m]).join("")));
  } catch (error) {
    say($("message"), error.message, "error");
  }
}

function say(target, text, kind) {
  target.textContent = text;
  target.className = kind || "";
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
}

// Take `feedback` for `played` (the guess shown, or one the person typed), unless no secret fits.
function play(played, feedback) {
  if (won) {
    say($("message"), "The game is over: undo, or start a new game.", "error");
    return;
  }
  const shown = game.formatCode(played), given = game.formatFeedback(feedback);
  const earlier = history.length ? " One of your earlier answers may be wrong: undo to change it." : "";
  const left = fits.filter((secret) => same(game.score(played, secret), feedback));
  if (!left.length) {
    say($("message"), same(feedback, game.win)
      ? `No secret fits: with your earlier answers, ${shown} cannot be your secret.${earlier}`
      : `No secret fits: no secret${history.length ? " that gives your earlier answers" : ""} gives ${given} to ${shown}.${earlier}`, "error");
    return;
  }
  history.push([played, feedback]);
  update();
  render();
  if (won) say($("message"), `Solved in ${plural(history.length, "guess")}: your secret is ${shown}.`, "success");
  else say($("message"), left.length === 1 ? "1 secret is still possible." : `${left.length} secrets are still possible.`);
}

// "crane GY---": a guess of the person's own and the feedback it got; the page carries on from it.
function playTyped(text) {
  const cleaned = text.trim();
  const space = cleaned.search(/\s/);
  if (space < 0) throw new Error(`write the guess you played, a space, then its feedback, e.g. ${game.formatCode(guess)} ${TEXTS[0]}`);
  const played = game.parseCode(cleaned.slice(0, space));
  const feedback = game.parseFeedback(cleaned.slice(space + 1));
  const unknown = $("any-guess").checked ? null : tree.unknownGuess(played);
  if (unknown) throw new Error(`${unknown}: a typo? Tick "any guess" to play it anyway.`);
  const refused = game.allows(played, history);
  if (refused) throw new Error(refused);
  play(played, feedback);
}

// A guess of the person's own, written on the keyboard (or in #own-input): shown for its letters
// to be coloured, then played as any feedback for the guess shown is. Sent empty, it sends the marks.
function playOwn(text) {
  if (won) throw new Error("The game is over: undo, or start a new game.");
  if (!text.trim()) {
    if (own) submitMarks();
    else say($("message"), `Write a guess of your own on the keyboard, e.g. ${game.formatCode(guess)}, then press Enter.`, "error");
    return;
  }
  const played = game.parseCode(text);
  const unknown = $("any-guess").checked ? null : tree.unknownGuess(played);
  if (unknown) throw new Error(`${unknown}: a typo? Tick "any guess" to play it anyway.`);
  const refused = game.allows(played, history);
  if (refused) throw new Error(refused);
  own = played;
  render();
  say($("message"), `Colour the letters of ${game.formatCode(played)} as your feedback says, then press Enter.`);
}

function undo() {
  if (!history.length) {
    say($("message"), "Nothing to undo.");
    return;
  }
  const [played, feedback] = history.pop();
  update();
  render();
  say($("message"), `Took back ${game.formatFeedback(feedback)} for ${game.formatCode(played)}.`);
}

function restart() {
  history = [];
  update();
  render();
  say($("message"), "");
}

function render() {
  $("turn").textContent = won ? `Solved in ${plural(history.length, "guess")}` : `Guess ${history.length + 1}`;
  $("remaining").textContent = won ? "" : `${plural(fits.length, "secret")} possible`;
  $("source").textContent = own ? `Your own guess: colour its letters, then press Enter (the tree's guess was ${game.formatCode(guess)}).`
    : won || onTree() ? "" : "Off the tree: this guess is computed from the secrets still possible.";
  const shown = $("guess"), showing = shownGuess();
  if (data.kind === "letters" && !won) shown.replaceChildren(...showing.map((symbol, i) => markTile(game.capitals[symbol], i)));
  else shown.replaceChildren(...renderCode(showing, true).childNodes);
  shown.dataset.code = game.formatCode(showing);
  shown.dataset.step = String(history.length + (won ? 0 : 1));
  const offered = new Set(won ? [] : fits.map((secret) => indexOf(game.score(showing, secret))));
  for (const button of $("answers").querySelectorAll("button[data-feedback]")) {
    const impossible = !offered.has(Number(button.dataset.index));
    button.disabled = won || impossible;
    button.classList.toggle("impossible", impossible && !won);
  }
  if (data.kind === "letters") {
    $("marks-go").disabled = won;
    for (const id of ["own-input", "own-go"]) $(id).disabled = won;
    for (const key of $("own-picker").querySelectorAll("button")) key.disabled = won;
    renderKnown(OWN);
  }
  for (const id of ["feedback-input", "feedback-go", "played-input", "played-go"]) $(id).disabled = won;
  // the example follows the game: the guess shown, with a feedback that some secret still left gives it
  if (!won) $("played-input").placeholder = `${game.formatCode(guess)} ${game.formatFeedback(game.score(guess, fits[fits.length >> 1]))}`;
  $("undo").disabled = !history.length;
  $("history").replaceChildren(...history.map(([g, f]) => step(g, f)));
  document.body.dataset.state = won ? "won" : "playing";
}

function showPath(text) {
  const list = $("path");
  list.replaceChildren();
  let secret = null;
  try { secret = game.parseCode(text); } catch (error) { secret = null; }
  const answer = secret !== null && game.secrets().some((s) => same(s, secret));
  if (secret !== null && !answer && tree.allowedGuesses === null && game.isGuess(secret)) {
    say($("path-message"), `${game.formatCode(secret)} is an allowed guess but not one of the ${game.secrets().length} `
      + "possible secrets (the answers): no game ends on it.", "error");
    return;
  }
  if (!answer) {
    say($("path-message"), `"${text.trim()}" is not a secret of this game: write it as the guesses are written, e.g. ${game.formatCode(tree.guessOf(0))}.`, "error");
    return;
  }
  let path;
  try {
    path = tree.path(secret);
  } catch (error) {
    say($("path-message"), error.message, "error");
    return;
  }
  list.replaceChildren(...path.map(([g, f]) => step(g, f)));
  say($("path-message"), `The tree finds ${game.formatCode(secret)} in ${plural(path.length, "guess")}:`, "success");
}

// "You guess": the page hides one of the secrets at random, the person guesses, and each guess is
// scored by the game's rules (game.score); or, with "Absurdle", it hides none and answers each guess
// as an adversarial host (hostAnswer: the answer that keeps the most secrets). A hint is the tree's
// guess after the guesses so far (tree.suggest, as when the person plays their own guesses against the tree).
let hidden = null;   // the secret the person looks for (null against Absurdle)
let kept = null;     // against Absurdle: the secrets that still fit its answers
let tries = [];      // their [guess, feedback] steps
let ended = "";      // "", "won" or "revealed"

function newSecret() {
  const secrets = game.secrets(), absurdle = $("yg-absurdle").checked;
  hidden = absurdle ? null : secrets[Math.floor(Math.random() * secrets.length)];
  kept = absurdle ? secrets : null;
  tries = [];
  ended = "";
  $("yg-input").value = "";
  renderTries();
  say($("yg-message"), absurdle ? `Absurdle hides no secret but keeps as many of the ${plural(secrets.length, "secret")} as it can. Your first guess?`
    : `A secret is hidden: one of ${plural(secrets.length, "secret")}. Your first guess?`);
}

function tryGuess(text) {
  if (ended) throw new Error(`The game is over: press "New secret" to play again.`);
  const played = game.parseCode(text);
  const unknown = tree.unknownGuess(played);
  if (unknown) throw new Error(`${unknown}: a typo?`);
  const shown = game.formatCode(played);
  const before = tries.findIndex(([g]) => same(g, played));  // it would tell nothing new: not counted
  if (before >= 0) {
    throw new Error(`You already guessed ${shown} (guess ${before + 1}, ${game.formatFeedback(tries[before][1])}): not counted.`);
  }
  const refused = game.allows(played, tries);
  if (refused) throw new Error(refused);
  let feedback;
  if (kept) [feedback, kept] = hostAnswer(game, played, kept);
  else feedback = game.score(played, hidden);
  tries.push([played, feedback]);
  if (same(feedback, game.win)) {
    ended = "won";
    say($("yg-message"), `You found ${shown} in ${plural(tries.length, "guess")} (the tree finds it in ${tree.path(played).length}).`, "success");
  } else {
    const left = tree.candidates(tries, { anyGuess: true }).length;
    say($("yg-message"), `${shown} gets ${game.formatFeedback(feedback)}: ${plural(left, "secret")} still fit${left === 1 ? "s" : ""}.`);
  }
  renderTries();
}

function hint() {
  if (ended) {
    say($("yg-message"), `The game is over: press "New secret" to play again.`, "error");
    return;
  }
  const next = game.formatCode(tree.suggest(tries, { anyGuess: true }));
  const left = tree.candidates(tries, { anyGuess: true }).length;
  say($("yg-message"), `Hint: the tree would guess ${next} (${plural(left, "secret")} still fit${left === 1 ? "s" : ""}).`);
  $("yg-message").dataset.hint = next;
}

function reveal() {
  if (!ended) ended = "revealed";
  say($("yg-message"), kept ? `Absurdle holds no secret: ${plural(kept.length, "secret")} still fit its answers `
    + `(${kept.slice(0, 5).map((s) => game.formatCode(s)).join(", ")}${kept.length > 5 ? ", ..." : ""}).`
    : `The secret is ${game.formatCode(hidden)}.`);
  renderTries();
}

function renderTries() {
  $("yg-history").replaceChildren(...tries.map(([g, f]) => step(g, f)));
  renderEndReview();
  $("you-guess").dataset.state = ended || "guessing";
  delete $("yg-message").dataset.hint;
  for (const id of ["yg-input", "yg-go", "yg-hint", "yg-reveal"]) $(id).disabled = Boolean(ended);
  for (const key of $("yg-picker").querySelectorAll("button")) key.disabled = Boolean(ended);
  renderWriting();
  renderKnown();
}

// -- the review of a game (review.js: from the tree and the book this page carries) -----------------
// After a game of "You guess" (won or shown), the guesses played against the secret's answers; in
// its own tab, a history typed in. One table: each move's figures, a bound marked as such.
const REVIEW_COLUMNS = [["#", "the move"], ["Guess", "your guess and its feedback"], ["Secrets", "the secrets possible before and after it"],
  ["Expected", "the guesses still needed on average, this one included: after your guess / after the best one"],
  ["Loss", "what your guess cost, in guesses on average"], ["Best", "the best guess (… where others may tie)"],
  ["Worst", "the most guesses optimal play can take from here, this one included: after yours / after the best one"],
  ["Luck", "how many guesses fewer than the average answer to your guess this answer left: above 0 is lucky"], ["Verdict", ""]];

function renderEndReview() {
  const out = $("yg-review");
  out.hidden = !ended || !tries.length;
  if (out.hidden) {
    out.replaceChildren();
    return;
  }
  try {
    out.replaceChildren(el("h2", "", "Review of your game"), ...reviewTable(review(tree, openingBook, tries)));
  } catch (error) {
    out.replaceChildren(el("p", "error", error.message));
  }
}

// "crane -Y--- moist ---YY": guesses and feedback in turn, separated by spaces.
function typedGame(text) {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const example = `${game.formatCode(tree.guessOf(0))} ${TEXTS[0]}`;
  if (!words.length) throw new Error(`type the guesses you played, each followed by its feedback, e.g. ${example}`);
  if (words.length % 2) throw new Error(`${words.at(-1)} has no feedback: write each guess followed by its feedback, e.g. ${example}`);
  return Array.from({ length: words.length / 2 }, (_, i) => [words[2 * i], words[2 * i + 1]]);
}

function reviewTyped() {
  const depth = $("review-depth").value.trim();
  const result = review(tree, openingBook, typedGame($("review-input").value), { maxDepth: depth ? Number(depth) : null });
  $("review-out").replaceChildren(...reviewTable(result));
  const { guesses, won } = result.summary;
  say($("review-message"), `${plural(guesses, "move")} reviewed${won ? ", the game won" : ""}.`, "success");
}

// A figure for people: 4 decimals at most; an interval as its ends, "≥ x" where no upper end is known.
function shownNumber(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(4).replace(/0+$/, "");
}

function shownFigure(pair) {
  if (pair === null) return "none";
  const [low, high] = pair;
  if (low !== null && low === high) return shownNumber(low);
  if (high === null) return low === null ? "?" : `≥ ${shownNumber(low)}`;
  return low === null ? `≤ ${shownNumber(high)}` : `${shownNumber(low)}–${shownNumber(high)}`;
}

const isBound = (pair) => pair !== null && pair[0] !== pair[1];

function figureCell(pairs, joiner = " / ") {
  const cell = el("td", "number", pairs.map(shownFigure).join(joiner));
  if (pairs.some(isBound)) {
    cell.classList.add("bound");
    cell.title = "a bound: the tree and the book do not settle this figure";
  }
  return cell;
}

function reviewRow(move) {
  const row = el("tr");
  Object.assign(row.dataset, { step: String(move.step), verdict: move.verdict, exact: String(move.exact) });
  const played = game.parseCode(move.guess), feedback = game.parseFeedback(move.feedback);
  const guessCell = el("td", "played");
  guessCell.append(renderCode(played, false, data.kind === "letters" ? feedback : null));  // words: the tiles' colours
  if (data.kind !== "letters") guessCell.append(el("span", "feedback", move.feedback));
  guessCell.title = `${move.guess} ${move.feedback}`;
  const best = move.best.length ? `${move.best.join(", ")}${move.best_complete ? "" : "\u00a0…"}` : "?";
  const worst = (value) => (value === null ? "?" : String(value));
  row.append(el("td", "", String(move.step)), guessCell, el("td", "number", `${move.candidates} → ${move.left}`),
    figureCell([move.expected, move.best_expected]), figureCell([move.loss]), el("td", "best-guesses", best),
    el("td", "number", `${worst(move.worst)} / ${worst(move.best_worst)}`), figureCell([move.luck]),
    el("td", move.verdict.includes(" ") ? "verdict" : `verdict verdict-${move.verdict}`, move.verdict));  // a band proven, coloured
  return row;
}

function reviewTable(result) {
  const { summary } = result, table = el("table", "review-table");
  const head = el("tr");
  head.append(...REVIEW_COLUMNS.map(([name, meaning]) => {
    const cell = el("th", "", name);
    if (meaning) cell.title = meaning;
    return cell;
  }));
  const body = el("tbody");
  body.append(...result.moves.map(reviewRow));
  const total = el("tr", "total");
  const counted = Object.entries(summary.verdicts).map(([verdict, count]) => `${count} ${verdict}`).join(", ");
  const all = el("td", "", `In all: ${plural(summary.guesses, "guess")}${summary.won ? ", won" : ""}`);
  all.colSpan = 3;
  const start = figureCell([summary.expected_start]);
  start.title = "the best expected at the start";
  total.append(all, start, figureCell([summary.loss]), el("td"), el("td"), figureCell([summary.luck]), el("td", "verdicts", counted));
  const thead = el("thead"), tfoot = el("tfoot");
  thead.append(head);
  tfoot.append(total);
  table.append(thead, body, tfoot);
  const scroll = el("div", "review-scroll");
  scroll.append(table);
  const legend = el("p", "muted legend", "Expected: the guesses still needed on average, this one included, after your guess "
    + "and after the best one; loss: what your guess cost, in guesses on average; worst: the most guesses after yours and "
    + "after the best; luck: how many guesses fewer than the average answer yours left (above 0: lucky). Verdicts by the "
    + "loss: best 0, good below 0.05, inaccuracy below 0.2, mistake. The figures come from the tree and the opening book this page "
    + "carries: a figure written \"≥ x\" or \"x–y\" is a bound, \"?\" is not known, and \"…\" after a best guess means others may tie. "
    + "guesstree review with the compiler's install gives exact figures.");
  legend.dataset.exact = String(result.exact);
  return [scroll, legend];
}

function setUpReview() {
  $("review-input").placeholder = `${game.formatCode(tree.guessOf(0))} ${TEXTS[0]} …`;
  if (tree.strategy.max_depth != null) $("review-depth").value = String(tree.strategy.max_depth);
  $("review-form").addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      reviewTyped();
    } catch (error) {
      $("review-out").replaceChildren();
      say($("review-message"), error.message, "error");
    }
  });
}

// The picker writes the guess as the person would type it, into #yg-input (which the physical
// keyboard writes as before): colour pegs for Mastermind, digits for the digit games, a keyboard
// for words, the grid's points for twod; each game's symbol is one key. The holes above it show
// the guess being written, symbol by symbol. A words game has a second keyboard in the play tab,
// for a guess of the person's own (#own-input): its letters, then its marks on the tiles.
const PICKED = { pegs: true, digits: true, letters: true };  // the kinds written one symbol a key
const HOLES = { ...PICKED, pair: true };  // the kinds whose guess being written is shown
// Keyboards whose rows the on-screen keys follow, for the letters they hold: QWERTY (with Spanish
// Ñ where its keyboards have it), and Ukrainian and Russian ЙЦУКЕН in one. The game's other
// letters follow in rows of their own, in the alphabet's order.
const LAYOUTS = [["qwertyuiop", "asdfghjklñ", "zxcvbnm"], ["йцукенгшщзхїъ", "фівапролджєыэ", "ячсмитьбюґё"]];
const ROW = 11;  // letters in a row of their own, at most
// the peg games whose guesses hold each symbol once at most (bulls and cows, Mastermind --no-guess-repeats)
const DISTINCT = (data.kind === "pegs" || data.kind === "digits") && game.length > 1 && !game.isGuess(new Array(game.length).fill(0));
const MAX_GRID = 12;  // twod's grid as buttons up to 12 x 12 points; a larger one is typed

// Where a picker writes, and what it shows: "You guess"'s field, or the play tab's own guess.
const YOU_GUESS = { input: "yg-input", picker: "yg-picker", holes: "yg-holes", prefix: "yg",
  over: () => Boolean(ended), steps: () => tries, enter: () => $("yg-form").requestSubmit() };
const OWN = { input: "own-input", picker: "own-picker", holes: null, prefix: "own",
  over: () => won, steps: () => history, enter: () => $("own-form").requestSubmit() };

function keyText(symbol) {  // what a key adds to the typed guess
  if (data.kind === "pegs") return LETTERS[symbol];
  if (data.kind === "letters") return game.alphabet[symbol];
  return String(symbol);
}

function keyLabel(symbol) {  // what a key shows: a letter as words are shown (its capital)
  return data.kind === "letters" ? game.capitals[symbol] : keyText(symbol).toUpperCase();
}

// A Mastermind guess is written in letters or, up to 9 colours, in 1-based digits, never both
// (as Game.parseCode reads it): a field that holds digits only is read as digits.
function inDigits(text) {
  const chars = [...text.replace(/[\s,]+/g, "")];
  return data.kind === "pegs" && game.symbols <= 9 && chars.length > 0 && chars.every((c) => /[0-9]/.test(c));
}

function addedText(symbol, pad = YOU_GUESS) {  // what a key adds to the field: in the field's own writing, so that the holes agree
  return inDigits($(pad.input).value) ? String(symbol + 1) : keyText(symbol);
}

// The symbols of a guess being written, as far as they go: a symbol, or null for a character
// that is none of the game's (shown as such, for the game's parser to name when it is sent).
// A word's letters are its code points once composed (NFC), as Game.parseCode reads them.
function writtenSymbols(text) {
  const chars = [...text.replace(/[\s,]+/g, "").normalize("NFC")];
  const digits = inDigits(text);
  return chars.map((c) => {
    let symbol = -1;
    if (data.kind === "pegs") symbol = digits ? Number(c) - 1 : LETTERS.indexOf(c.toUpperCase());
    else if (data.kind === "digits") symbol = /[0-9]/.test(c) ? Number(c) : -1;
    else if (data.kind === "letters") symbol = game.letterOf(c);
    return symbol >= 0 && symbol < game.symbols ? symbol : null;
  }).map((symbol, i) => [symbol, chars[i]]);
}

function hole(symbol, char) {  // one hole of the guess being written: empty, a symbol, or a stray character
  if (data.kind === "pegs") {
    const peg = el("span", "peg", char === undefined ? "" : symbol === null ? char : LETTERS[symbol]);
    if (char === undefined) peg.classList.add("hole");
    else if (symbol === null) peg.classList.add("stray");
    else {
      peg.style.background = PALETTE[symbol % PALETTE.length];
      peg.style.color = textColour(PALETTE[symbol % PALETTE.length]);
    }
    return peg;
  }
  const tile = el("span", "tile", char === undefined ? "" : symbol === null ? char : keyLabel(symbol));
  if (char === undefined) tile.classList.add("hole");
  else if (symbol === null) tile.classList.add("stray");
  return tile;
}

function renderWriting(pad = YOU_GUESS) {
  const text = $(pad.input).value, picker = $(pad.picker);
  if (PICKED[data.kind] && pad.holes) {
    const written = writtenSymbols(text);
    const holes = written.map(([symbol, char]) => hole(symbol, char));
    for (let i = written.length; i < game.length; i++) holes.push(hole(null, undefined));
    $(pad.holes).replaceChildren(...holes);
  }
  if (data.kind === "pair") {  // the point chosen, once it is one
    let point = null;
    try { point = game.parseCode(text); } catch (error) { point = null; }
    $(pad.holes).replaceChildren(...(point ? renderCode(point, true).childNodes : [hole(null, undefined), hole(null, undefined)]));
  }
  for (const point of picker.querySelectorAll(".point")) {
    const chosen = point.dataset.key === text.replace(/\s+/g, "");
    point.classList.toggle("chosen", chosen);
    point.setAttribute("aria-pressed", String(chosen));
  }
  if (DISTINCT) {  // bulls and cows: a digit written is not offered again
    const written = new Set(writtenSymbols(text).map(([symbol]) => symbol));
    for (const key of picker.querySelectorAll("button[data-symbol]")) {
      key.disabled = pad.over() || written.has(Number(key.dataset.symbol));
    }
  }
}

// What the guesses so far have shown: each letter's best mark (green, yellow, grey), as
// Wordle's keyboard shows it; the grid's points that no longer fit.
function renderKnown(pad = YOU_GUESS) {
  const picker = $(pad.picker);
  if (data.kind === "letters") {
    const best = new Map();
    for (const [played, feedback] of pad.steps()) {
      played.forEach((letter, i) => best.set(letter, Math.max(best.get(letter) ?? 0, feedback[i])));
    }
    for (const key of picker.querySelectorAll("button[data-symbol]")) {
      const mark = best.get(Number(key.dataset.symbol));
      if (mark === undefined) delete key.dataset.mark;
      else key.dataset.mark = String(mark);
      const letter = key.textContent;
      key.setAttribute("aria-label", mark === undefined ? letter : `${letter}, ${MARK_NAMES[mark]}`);
    }
  } else if (data.kind === "pair") {
    const fit = new Set(tree.candidates(pad.steps(), { anyGuess: true }).map((code) => code.join(",")));
    for (const point of picker.querySelectorAll(".point")) {  // said as well as shown
      const out = !fit.has(point.dataset.key);
      point.classList.toggle("out", out);
      point.setAttribute("aria-label", `point ${point.dataset.key}${out ? ", ruled out" : ""}`);
    }
  }
}

function write(text, pad = YOU_GUESS) {  // a key pressed or clicked: its symbol after the others, while a hole is left
  if (pad.over()) return;
  const input = $(pad.input);
  if (data.kind === "pair") input.value = text;
  else if (writtenSymbols(input.value).length < game.length) input.value = (input.value + text).normalize("NFC");
  input.dispatchEvent(new Event("input"));  // as typing in the field would
}

function unwrite(pad = YOU_GUESS) {  // backspace: the last symbol written goes (a letter: its code point, once composed)
  if (pad.over()) return;
  const input = $(pad.input);
  input.value = data.kind === "pair" ? "" : input.value.normalize("NFC").replace(/[^\s,][\s,]*$/u, "");
  input.dispatchEvent(new Event("input"));
}

function pickerKey(className, text, label, action) {
  const key = el("button", className, text);
  key.type = "button";
  if (label) key.setAttribute("aria-label", label);
  key.addEventListener("click", action);
  return key;
}

function symbolKey(symbol, pad) {
  const text = keyText(symbol), label = keyLabel(symbol);
  const key = pickerKey(data.kind === "pegs" ? "peg pick" : "tile pick", label,
    data.kind === "pegs" ? `colour ${text}` : label, () => write(addedText(symbol, pad), pad));
  key.dataset.key = text;
  key.dataset.symbol = String(symbol);
  if (data.kind === "pegs") {
    key.style.background = PALETTE[symbol % PALETTE.length];
    key.style.color = textColour(PALETTE[symbol % PALETTE.length]);
  }
  return key;
}

function editKeys(pad) {
  const back = pickerKey("edit", "⌫", "delete the last symbol", () => unwrite(pad));
  back.id = `${pad.prefix}-back`;
  const enter = pickerKey("edit enter", "Enter", pad === OWN ? "Enter: colour its letters" : "Enter: guess it", pad.enter);
  enter.id = `${pad.prefix}-enter`;
  return [back, enter];
}

// The rows of a words game's keyboard: the letters its words use, by the layout that holds most
// of them, then the others in rows of their own.
function keyboardRows() {
  const used = new Set(game.guesses().flat()), letters = game.alphabet.filter((_, symbol) => used.has(symbol));
  const held = (layout) => letters.filter((letter) => layout.some((row) => row.includes(letter))).length;
  const layout = LAYOUTS.reduce((best, other) => (held(other) > held(best) ? other : best), LAYOUTS[0]);
  const rows = layout.map((row) => [...row].filter((letter) => letters.includes(letter)));
  const others = letters.filter((letter) => !rows.flat().includes(letter));
  for (let i = 0; i < others.length; i += ROW) rows.push(others.slice(i, i + ROW));
  return rows.filter((row) => row.length).map((row) => row.map((letter) => game.alphabet.indexOf(letter)));
}

function buildPicker(pad = YOU_GUESS) {
  const picker = $(pad.picker);
  if (data.kind === "pegs" || data.kind === "digits") {
    const row = el("div", "picker-row");
    for (let symbol = 0; symbol < game.symbols; symbol++) row.appendChild(symbolKey(symbol, pad));
    row.append(...editKeys(pad));
    picker.appendChild(row);
  } else if (data.kind === "letters") {  // the letters the game's words use, as on a keyboard
    const rows = keyboardRows();
    rows.forEach((symbols, i) => {
      const row = el("div", "picker-row keyboard");
      const [back, enter] = i === rows.length - 1 ? editKeys(pad) : [];
      if (enter) row.appendChild(enter);
      for (const symbol of symbols) row.appendChild(symbolKey(symbol, pad));
      if (back) row.appendChild(back);
      picker.appendChild(row);
    });
  } else if (data.kind === "pair" && game.size <= MAX_GRID) {  // y grows upwards, as on a chart
    const grid = el("div", "grid");
    grid.style.gridTemplateColumns = `auto repeat(${game.size}, 1fr)`;
    for (let y = game.size - 1; y >= 0; y--) {
      grid.appendChild(el("span", "axis", String(y)));
      for (let x = 0; x < game.size; x++) {
        const point = pickerKey("point", "", `point ${x},${y}`, () => write(`${x},${y}`, pad));
        point.dataset.key = `${x},${y}`;
        point.title = `${x},${y}`;
        grid.appendChild(point);
      }
    }
    grid.appendChild(el("span", "axis", "y/x"));
    for (let x = 0; x < game.size; x++) grid.appendChild(el("span", "axis", String(x)));
    const row = el("div", "picker-row");
    row.append(...editKeys(pad).slice(1));
    picker.append(grid, row);
  } else {
    return;
  }
  picker.hidden = false;
  // A click on a key leaves the focus where it was (the input, or nowhere), so that the physical
  // keyboard's Enter sends the guess rather than pressing the key clicked last again.
  picker.addEventListener("mousedown", (event) => {
    if (event.target.closest("button")) event.preventDefault();
  });
}

// The physical keyboard, when the focus is in no field: a key of the picker writes its symbol,
// Backspace deletes, Enter guesses (in #yg-input, typing works as in any field); in the play tab
// of a words game, the same for the guess of one's own. A key held down repeats as in a field,
// but for Enter: a repeat would send the guess again. A key that composes a character (an input
// method's, a dead key's) is the input method's, not a symbol.
function typedOnPage(event) {
  const pad = !$("you-guess").hidden ? YOU_GUESS : !$("play").hidden && data.kind === "letters" ? OWN : null;
  if (!pad || pad.over() || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.isComposing || event.keyCode === 229) return;
  const target = event.target;
  if (target.closest("input, textarea, select, summary")) return;
  if (target.closest("button") && (event.key === "Enter" || event.key === " ")) return;  // the button's own
  if (event.key === "Enter" && event.repeat) {
    event.preventDefault();
    return;
  }
  if (event.key === "Enter") pad.enter();
  else if (event.key === "Backspace") unwrite(pad);
  else {
    // Mastermind's colours may be typed as 1-based digits, as in the field; a word's letter in either case
    const typed = data.kind === "pegs" && /^[1-9]$/.test(event.key) && game.symbols <= 9 ? LETTERS[Number(event.key) - 1] : event.key;
    const symbol = data.kind === "letters" ? game.letterOf(typed.normalize("NFC")) : -1;  // the letter or its capital, only
    const key = [...$(pad.picker).querySelectorAll("button[data-symbol]")].find((button) => (data.kind === "letters"
      ? Number(button.dataset.symbol) === symbol : button.dataset.key === typed.toLowerCase() || button.dataset.key === typed.toUpperCase()));
    if (!key || key.disabled) return;
    write(addedText(Number(key.dataset.symbol), pad), pad);
  }
  event.preventDefault();
}

function setUpYouGuess() {
  $("yg-form").addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      tryGuess($("yg-input").value);
      $("yg-input").value = "";
      renderWriting();
    } catch (error) {
      say($("yg-message"), error.message, "error");
    }
  });
  $("yg-input").addEventListener("input", () => renderWriting());
  $("yg-input").addEventListener("keydown", (event) => {  // a held Enter sends the guess once, as on the page
    if (event.key === "Enter" && event.repeat) event.preventDefault();
  });
  $("yg-hint").addEventListener("click", hint);
  $("yg-reveal").addEventListener("click", reveal);
  $("yg-new").addEventListener("click", newSecret);
  $("yg-absurdle").addEventListener("change", newSecret);
  $("yg-input").placeholder = game.formatCode(tree.guessOf(0));
  $("yg-holes").hidden = !HOLES[data.kind];
  buildPicker();
  document.addEventListener("keydown", typedOnPage);
  newSecret();
}

// The page's four parts as tabs, so that each is one click away, however long another grows; the
// address's #play, #you-guess, #lookup or #review opens one.
function showPanel(id) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.dataset.panel === id;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.dataset.panel).hidden = !on;
  }
  document.body.dataset.panel = id;
}

function setUpTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  for (const tab of tabs) {
    tab.addEventListener("click", () => {
      showPanel(tab.dataset.panel);
      try { window.history.replaceState(null, "", `#${tab.dataset.panel}`); } catch (error) { /* a file: address may refuse it */ }
    });
    tab.addEventListener("keydown", (event) => {  // the arrows move between the tabs, Home and End to the ends
      const at = tabs.indexOf(tab);
      const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (to === undefined) return;
      const next = tabs[(to + tabs.length) % tabs.length];
      next.click();
      next.focus();
      event.preventDefault();
    });
  }
  const asked = () => tabs.find((tab) => `#${tab.dataset.panel}` === location.hash);
  showPanel(asked()?.dataset.panel ?? "play");
  // an address changed after load (a link, the address bar) opens its tab too; any other is no tab's
  window.addEventListener("hashchange", () => {
    if (asked()) showPanel(asked().dataset.panel);
  });
}

function setUp() {
  $("title").textContent = data.title;
  const s = tree.stats;
  const weighted = s.weighted_mean == null ? "" : ` (${s.weighted_mean.toFixed(3)} weighted by how likely each secret is)`;
  $("summary").textContent = `${s.secrets} secrets · ${s.average.toFixed(3)} guesses on average${weighted} · worst case ${s.worst}`;
  $("help").textContent = data.help;
  const buttons = $("answers");
  if (data.kind === "letters") {
    $("help").textContent += " Or click each letter of the guess to colour it (grey, yellow, green) and press Enter.";
    const enter = el("button", "enter", "Enter");
    enter.type = "button";
    enter.id = "marks-go";
    enter.addEventListener("click", submitMarks);
    buttons.appendChild(enter);
  }
  const many = FEEDBACKS.length > MAX_BUTTONS;  // e.g. 238 for five-letter words: typed, or the tiles
  if (many) $("feedback-input").placeholder = TEXTS[0].replace(/./g, "-").replace(/^--/, "GY");
  TEXTS.forEach((text, index) => {
    if (many) return;
    const button = el("button", index === WIN ? "win" : "");
    button.type = "button";
    button.dataset.feedback = text;
    button.dataset.index = String(index);
    button.title = data.describe[index];
    button.setAttribute("aria-label", `${text}: ${data.describe[index]}`);
    button.appendChild(renderFeedback(index));
    button.addEventListener("click", () => play(shownGuess(), FEEDBACKS[index]));
    buttons.appendChild(button);
  });
  const form = (id, input, action) => $(id).addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      action($(input).value);
      $(input).value = "";
    } catch (error) {
      say($("message"), error.message, "error");
    }
  });
  form("typed", "feedback-input", (text) => play(shownGuess(), game.parseFeedback(text)));
  form("played", "played-input", playTyped);
  if (data.kind === "letters") {  // a guess of one's own on the game's keyboard, its letters then coloured
    form("own-form", "own-input", playOwn);
    $("own-form").hidden = false;
    $("own-input").placeholder = game.formatCode(tree.guessOf(0));
    buildPicker(OWN);
  }
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("path-form").addEventListener("submit", (event) => {
    event.preventDefault();
    showPath($("secret-input").value);
  });
  if (tree.notice !== null) {  // the licence of the words the page embeds travels with it
    $("notice-text").textContent = tree.notice;
    $("notice").hidden = false;
  }
  setUpTabs();
  setUpYouGuess();
  setUpReview();
  update();
  render();
}

setUp();
