// prepack: put the repository's shipped trees into the package (its "files" lists trees/).
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";

const from = new URL("../../../trees/", import.meta.url), to = new URL("../trees/", import.meta.url);
mkdirSync(to, { recursive: true });
const trees = readdirSync(from).filter((f) => f.endsWith(".msgpack.zst"));
for (const file of trees) copyFileSync(new URL(file, from), new URL(file, to));
console.log(`copied ${trees.length} trees into the package`);
