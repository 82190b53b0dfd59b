// Node's entry: everything of index.js, and the trees shipped with the package (read from disk),
// with the opening book (trees/book/, player/book.py) that suggest follows.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { FormatError, load, loadSync } from "./index.js";
import { gameKey } from "./advice.js";

export * from "./index.js";

const SUFFIX = ".msgpack.zst";

// The packed package holds the trees in its own trees/ (copied at pack time); a checkout reads
// the repository's trees/ folder.
function treesFolder() {
  for (const relative of ["../trees/", "../../../trees/"]) {
    const folder = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(folder) && readdirSync(folder).some((f) => f.endsWith(SUFFIX))) return folder;
  }
  throw new Error("the shipped trees are missing: neither the package's trees/ nor the repository's trees/ holds any");
}

// The names of the shipped trees (file names without .msgpack.zst), sorted.
export function shipped() {
  return readdirSync(treesFolder()).filter((f) => f.endsWith(SUFFIX)).map((f) => f.slice(0, -SUFFIX.length)).sort();
}

// Load the artifact at a path; messages name the file by its path.
export async function loadFile(path) {
  const shown = String(path);
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new FormatError(`${shown}: ${error.code === "ENOENT" ? "no such file" : `cannot be read (${error.code || error.message})`}`);
  }
  return (await load(bytes, shown)).useBook(shippedBook);
}

// Load a shipped tree by name (with or without .msgpack.zst).
export async function loadShipped(name) {
  const stem = String(name).endsWith(SUFFIX) ? String(name).slice(0, -SUFFIX.length) : String(name);
  const names = shipped();
  if (!names.includes(stem)) {
    throw new Error(`no shipped tree is called ${JSON.stringify(String(name))}; choose from ${names.join(", ")}`);
  }
  const file = `${stem}${SUFFIX}`;
  return (await load(readFileSync(treesFolder() + file), file)).useBook(shippedBook);
}

// The opening book in a folder (its BOOK.json, as player/book.py reads it): a lookup for
// Tree.useBook, which gives a game's tree for a first guess, read the first time it is asked for,
// or null where the book has none. A damaged index or tree is a FormatError naming it.
const BOOK_FORMAT = "guesstree-book", MAX_BOOK_BYTES = 1 << 20;
export function bookIn(folder) {
  const path = folder instanceof URL ? fileURLToPath(folder) : String(folder);
  const base = path.endsWith("/") ? path : `${path}/`, trees = new Map();
  const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
  let index = null;
  return (game, first) => {
    index ??= readBookIndex(`${base}BOOK.json`);
    const file = index.get(`${game} ${first}`);
    if (file === undefined) return null;
    if (!trees.has(file)) {
      let bytes;
      try {
        bytes = readFileSync(base + file);
      } catch (error) {
        throw new FormatError(`book/${file}: listed in BOOK.json but cannot be read (${error.code || error.message})`);
      }
      trees.set(file, loadSync(bytes, `book/${file}`, sha256));
    }
    return trees.get(file);
  };
}

// The shipped book (trees/book/), which loadFile and loadShipped give every tree.
let shipped_ = null;
export function shippedBook(game, first) {
  shipped_ ??= bookIn(`${treesFolder()}book/`);
  return shipped_(game, first);
}

function readBookIndex(path) {
  const index = new Map();
  if (!existsSync(path)) return index;
  const bytes = readFileSync(path), fail = (reason) => { throw new FormatError(`BOOK.json: ${reason}`); };
  if (bytes.length > MAX_BOOK_BYTES) fail(`larger than a book's index may be (${MAX_BOOK_BYTES} bytes)`);
  let document;
  try {
    document = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    fail(`not JSON (${error.message})`);
  }
  if (document?.format !== BOOK_FORMAT || !Array.isArray(document.openings)) fail(`not a ${BOOK_FORMAT} index`);
  document.openings.forEach((opening, i) => {
    const { file, first, game } = opening ?? {};
    if (!(typeof file === "string" && file.endsWith(SUFFIX) && !/[/\\]/.test(file) && typeof first === "string"
      && game && typeof game === "object")) fail(`opening ${i + 1} is not a file, a game and a first guess`);
    index.set(`${gameKey(game)} ${first}`, file);
  });
  return index;
}
