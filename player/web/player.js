"use strict";
// The guesstree web player. The tree is embedded as parallel arrays (see player/export.py:
// page_data): node k's guess is guesses[k]; its edges are first[k] .. first[k+1]-1, edge e
// carries feedback edges[e] and leads to node e + 1; wins[k] is "1" where the guess can be the
// secret. No game rules run here: every answer is a lookup in the tree, and the answers offered
// at node k are its edges' feedbacks, plus the win where wins[k] is "1".
(function () {
  const data = JSON.parse(document.getElementById("tree-data").textContent);
  const n = data.guesses.length;
  const first = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) first[k + 1] = first[k] + data.counts[k];
  const parent = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) for (let e = first[k]; e < first[k + 1]; e++) parent[e + 1] = k;
  const possible = new Int32Array(n);  // secrets still possible at each node
  for (let k = n - 1; k >= 0; k--) {
    if (data.wins[k] === "1") possible[k] += 1;
    if (k > 0) possible[parent[k]] += possible[k];
  }
  const PALETTE = ["#e53935", "#1e88e5", "#43a047", "#fdd835", "#fb8c00", "#8e24aa", "#00acc1", "#f5f5f5",
    "#6d4c41", "#ec407a", "#7cb342", "#3949ab", "#9e9e9e", "#26a69a", "#ffb300", "#5e35b1", "#c0ca33",
    "#d81b60", "#00897b", "#f4511e", "#546e7a", "#8d6e63", "#039be5", "#afb42b", "#ab47bc", "#212121"];
  const $ = (id) => document.getElementById(id);

  let nodes = [0];    // the node of each guess shown so far
  let answers = [];   // the feedback index given to each guess
  let won = false;

  function child(node, feedback) {
    for (let e = first[node]; e < first[node + 1]; e++) if (data.edges[e] === feedback) return e + 1;
    return -1;
  }

  function fits(node) {  // the feedback indexes some secret still possible at node gives its guess
    const found = new Set(data.edges.slice(first[node], first[node + 1]));
    if (data.wins[node] === "1") found.add(data.win);
    return found;
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

  function renderCode(text, big) {
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
      const holes = data.values[data.win][0];
      const keys = el("span", "keys");
      keys.style.gridTemplateColumns = `repeat(${Math.ceil(holes / 2)}, 9px)`;
      const [black, white] = data.values[index];
      for (let i = 0; i < holes; i++) keys.appendChild(el("span", i < black ? "key black" : i < black + white ? "key white" : "key"));
      box.appendChild(keys);
    }
    box.appendChild(el("span", "", data.feedbacks[index]));
    return box;
  }

  // Words: each letter of the guess is a button that cycles grey, yellow, green, as in Wordle.
  const MARKS = ["-", "Y", "G"];
  const MARK_NAMES = ["grey, not in the word", "yellow, elsewhere in the word", "green, right place"];

  function markTile(letter, i) {
    const tile = el("button", "tile mark", letter);
    tile.type = "button";
    const show = (mark) => {
      tile.dataset.mark = String(mark);
      tile.setAttribute("aria-label", `letter ${i + 1}, ${letter}: ${MARK_NAMES[mark]}`);
    };
    show(0);
    tile.addEventListener("click", () => show((Number(tile.dataset.mark) + 1) % 3));
    return tile;
  }

  function submitMarks() {
    const marks = [...$("guess").querySelectorAll(".mark")].map((tile) => Number(tile.dataset.mark));
    const index = data.values.findIndex((v) => v.join("") === marks.join(""));
    if (index < 0 && !won) {
      say($("message"), `${marks.map((m) => MARKS[m]).join("")} cannot occur in this game.`, "error");
      return;
    }
    answer(index);
  }

  function say(target, text, kind) {
    target.textContent = text;
    target.className = kind || "";
  }

  function plural(count, word) {
    return `${count} ${word}${count === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;
  }

  function current() {
    return nodes[nodes.length - 1];
  }

  function answer(index) {
    const node = current();
    const guess = data.guesses[node];
    const given = data.feedbacks[index];
    const earlier = answers.length ? " One of your earlier answers may be wrong: undo to change it." : "";
    if (won) {
      say($("message"), "The game is over: undo, or start a new game.", "error");
      return;
    }
    if (index === data.win) {
      if (data.wins[node] !== "1") {
        say($("message"), `No secret fits: with your earlier answers, ${guess} cannot be your secret.${earlier}`, "error");
        return;
      }
      answers.push(index);
      won = true;
      render();
      say($("message"), `Solved in ${plural(answers.length, "guess")}: your secret is ${guess}.`, "success");
      return;
    }
    const next = child(node, index);
    if (next < 0) {
      say($("message"), `No secret fits: no secret${answers.length ? " that gives your earlier answers" : ""} gives ${given} to ${guess}.${earlier}`, "error");
      return;
    }
    answers.push(index);
    nodes.push(next);
    render();
    const left = possible[next];
    say($("message"), left === 1 ? "1 secret is still possible." : `${left} secrets are still possible.`);
  }

  function undo() {
    if (!answers.length) {
      say($("message"), "Nothing to undo.");
      return;
    }
    const index = answers.pop();
    const node = won ? current() : nodes[nodes.length - 2];
    if (won) won = false; else nodes.pop();
    render();
    say($("message"), `Took back ${data.feedbacks[index]} for ${data.guesses[node]}.`);
  }

  function restart() {
    nodes = [0];
    answers = [];
    won = false;
    render();
    say($("message"), "");
  }

  function render() {
    const node = current();
    const step = nodes.length;
    $("turn").textContent = won ? `Solved in ${plural(step, "guess")}` : `Guess ${step}`;
    $("remaining").textContent = won ? "" : `${plural(possible[node], "secret")} possible`;
    const guess = $("guess");
    if (data.kind === "letters" && !won) guess.replaceChildren(...[...data.guesses[node]].map(markTile));
    else guess.replaceChildren(...renderCode(data.guesses[node], true).childNodes);
    guess.dataset.code = data.guesses[node];
    guess.dataset.step = String(step);
    const offered = fits(node);
    for (const button of $("answers").querySelectorAll("button[data-feedback]")) {
      const impossible = !offered.has(Number(button.dataset.index));
      button.disabled = won || impossible;
      button.classList.toggle("impossible", impossible && !won);
    }
    if (data.kind === "letters") $("marks-go").disabled = won;
    $("feedback-input").disabled = won;
    $("feedback-go").disabled = won;
    $("undo").disabled = !answers.length;
    const history = $("history");
    history.replaceChildren();
    answers.forEach((index, i) => {
      const item = el("li");
      item.append(renderCode(data.guesses[nodes[i]], false), el("span", "feedback", data.feedbacks[index]));
      history.appendChild(item);
    });
    document.body.dataset.state = won ? "won" : "playing";
  }

  const MAX_BUTTONS = 40;

  function normal(text) {
    return text.toUpperCase().replace(/[\s()]+/g, "");
  }

  function typedFeedback(text) {
    let wanted = normal(text);
    if (data.kind === "letters") {  // GYBBB, gy-.., coloured squares: all mean GY---
      wanted = wanted.replace(/🟩/gu, "G").replace(/🟨/gu, "Y").replace(/[⬛⬜BX.W]/gu, "-")
        .replace(/2/g, "G").replace(/1/g, "Y").replace(/0/g, "-");
    }
    const found = data.feedbacks.findIndex((f) => normal(f) === wanted);
    if (found >= 0) return found;
    if (data.kind === "letters" && /^[GY-]+$/.test(wanted) && wanted.length === data.feedbacks[0].length) {
      throw new Error(`${wanted} cannot occur in this game.`);
    }
    const digits = text.replace(/[\s,/-]+/g, "");
    if (/^\d+$/.test(digits) && data.values.every((v) => v.every((x) => x < 10))) {  // the values themselves: "21" or "2 1" for 2B1W, "100" for twod's <=
      const index = data.values.findIndex((v) => v.join("") === digits);
      if (index >= 0) return index;
    }
    // Two counts however written: "2 1", "2,1", "21", "2b1w" (a typo'd letter is forgiven).
    let numbers = text.match(/\d+/g) || [];
    if (numbers.length === 1 && numbers[0].length === 2) numbers = [...numbers[0]];
    if (numbers.length === 2 && data.values[0].length === 2) {
      const pair = numbers.map(Number);
      const index = data.values.findIndex((v) => v[0] === pair[0] && v[1] === pair[1]);
      if (index >= 0) return index;
      throw new Error(`${text.trim()} cannot occur in this game.`);
    }
    throw new Error(`"${text.trim()}" is not feedback for this game: use the buttons, or write e.g. ${data.feedbacks[0]}.`);
  }

  let secretNodes = null;  // typed secret (normalised) -> the node where it wins

  function showPath(text) {
    if (secretNodes === null) {
      secretNodes = new Map();
      for (let k = 0; k < n; k++) if (data.wins[k] === "1") secretNodes.set(normal(data.guesses[k]), k);
    }
    const list = $("path");
    list.replaceChildren();
    let typed = normal(text);
    if (data.kind === "pegs" && data.symbols <= 9 && /^[1-9]+$/.test(typed)) {  // 1123 is AABC, as in guesstree solve
      typed = [...typed].map((d) => String.fromCharCode(64 + Number(d))).join("");
    }
    let node = secretNodes.get(typed);
    if (node === undefined) {
      say($("path-message"), `"${text.trim()}" is not a secret of this game: write it as the guesses are written, e.g. ${data.guesses[0]}.`, "error");
      return;
    }
    const steps = [[node, data.win]];
    while (node > 0) {
      steps.unshift([parent[node], data.edges[node - 1]]);
      node = parent[node];
    }
    for (const [k, index] of steps) {
      const item = el("li");
      item.append(renderCode(data.guesses[k], false), el("span", "feedback", data.feedbacks[index]));
      list.appendChild(item);
    }
    say($("path-message"), `The tree finds ${data.guesses[steps[steps.length - 1][0]]} in ${plural(steps.length, "guess")}:`, "success");
  }

  function setUp() {
    $("title").textContent = data.title;
    const s = data.stats;
    $("summary").textContent = `${s.secrets} secrets · ${s.average.toFixed(3)} guesses on average · worst case ${s.worst}`;
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
    const many = data.feedbacks.length > MAX_BUTTONS;  // e.g. 238 for five-letter words: type them
    if (many) $("feedback-input").placeholder = data.feedbacks[0].replace(/./g, "-").replace(/^--/, "GY");
    data.feedbacks.forEach((text, index) => {
      if (many && index !== data.win) return;
      const button = el("button", index === data.win ? "win" : "");
      button.type = "button";
      button.dataset.feedback = text;
      button.dataset.index = String(index);
      button.title = data.describe[index];
      button.setAttribute("aria-label", `${text}: ${data.describe[index]}`);
      button.appendChild(renderFeedback(index));
      button.addEventListener("click", () => answer(index));
      buttons.appendChild(button);
    });
    $("typed").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("feedback-input");
      try {
        answer(typedFeedback(input.value));
        input.value = "";
      } catch (error) {
        say($("message"), error.message, "error");
      }
    });
    $("undo").addEventListener("click", undo);
    $("restart").addEventListener("click", restart);
    $("path-form").addEventListener("submit", (event) => {
      event.preventDefault();
      showPath($("secret-input").value);
    });
    render();
  }

  setUp();
})();
