// Node's entry: everything of index.js, and the trees shipped with the package (read from disk).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { FormatError, load } from "./index.js";

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
  return load(bytes, shown);
}

// Load a shipped tree by name (with or without .msgpack.zst).
export async function loadShipped(name) {
  const stem = String(name).endsWith(SUFFIX) ? String(name).slice(0, -SUFFIX.length) : String(name);
  const names = shipped();
  if (!names.includes(stem)) {
    throw new Error(`no shipped tree is called ${JSON.stringify(String(name))}; choose from ${names.join(", ")}`);
  }
  const file = `${stem}${SUFFIX}`;
  return load(readFileSync(treesFolder() + file), file);
}
