// prepack: put into the package what it ships from the repository: the shipped trees and the
// opening book (its "files" lists trees/, the book is trees/book/), guesstree's licence, and beside the trees the notice of the word lists that the
// Wordle trees embed (each of those trees carries it in its header too: trees/FORMAT.md).
// postpack (--remove): take the copies away again, so that a checkout reads the repository's own
// trees/ (src/node.js looks in the package's trees/ first) and no stale copy outlives a rename.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";

const repository = new URL("../../../", import.meta.url), here = new URL("../", import.meta.url);
const from = new URL("trees/", repository), to = new URL("trees/", here);
if (process.argv.includes("--remove")) {
  rmSync(to, { recursive: true, force: true });
  rmSync(new URL("LICENSE", here), { force: true });
} else {
  mkdirSync(to, { recursive: true });
  const trees = readdirSync(from).filter((f) => f.endsWith(".msgpack.zst"));
  for (const file of trees) copyFileSync(new URL(file, from), new URL(file, to));
  const book = new URL("book/", from), bookTo = new URL("book/", to);  // the opening book and its index
  mkdirSync(bookTo, { recursive: true });
  const opening = readdirSync(book).filter((f) => f.endsWith(".msgpack.zst") || f === "BOOK.json");
  for (const file of opening) copyFileSync(new URL(file, book), new URL(file, bookTo));
  copyFileSync(new URL("LICENSE", repository), new URL("LICENSE", here));
  copyFileSync(new URL("tests/data/wordle/LICENSE", repository), new URL("WORDLISTS-LICENSE", to));
  console.error(`copied ${trees.length} trees, the book's ${opening.length} files, LICENSE and trees/WORDLISTS-LICENSE into the package`);
}
