// The JavaScript half of scripts/bench_advice.py: times Tree.suggest on the histories it is given
// and gives back its answers, to be compared with the Python player's.
//     node scripts/bench_advice.mjs JOB.json   (JOB: {"tree": path, "histories": [[[guess, feedback], ...], ...],
//                                                     "book": false for the rule alone})
import { readFileSync } from "node:fs";
import { loadFile } from "../player/js/src/node.js";

const job = JSON.parse(readFileSync(process.argv[2], "utf8"));
const tree = await loadFile(job.tree);
if (job.book === false) tree.useBook(null);
const answers = [], ms = [];
for (const history of job.histories) {
  const started = process.hrtime.bigint();
  const guess = tree.suggest(history, { anyGuess: true });
  ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  answers.push(guess);
}
process.stdout.write(JSON.stringify({ answers, ms }));
