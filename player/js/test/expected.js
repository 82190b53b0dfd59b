// What the Python player answers, written by tests/test_js.py: from GUESSTREE_EXPECTED when it holds
// them (pytest runs these tests so), else by running that script now. Never skipped: without the
// Python player these tests fail, saying what is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const FILES = { paths: "paths.json", suggest: "suggest.json", hostile: join("hostile", "decisions.json"),
  chunked: join("chunked", "paths.json"), alphabets: join("alphabets", "expected.json") };

function python() {
  if (process.env.GUESSTREE_PYTHON) return process.env.GUESSTREE_PYTHON;
  const venv = join(REPO, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

// The folder that holds the expectations of `part` (paths, suggest, hostile, chunked or alphabets).
export function expected(part) {
  const given = process.env.GUESSTREE_EXPECTED;
  if (given && existsSync(join(given, FILES[part]))) return given;
  const folder = mkdtempSync(join(tmpdir(), "guesstree-js-"));
  const run = spawnSync(python(), [join(REPO, "tests", "test_js.py"), "--write", folder, "--part", part], { encoding: "utf8" });
  if (run.status !== 0) {
    throw new Error(`the Python player could not write the expected ${part} (${python()} tests/test_js.py; `
      + `set GUESSTREE_PYTHON to a Python with guesstree installed):\n${run.stderr || run.error}`);
  }
  return folder;
}

export const readJson = (folder, part) => JSON.parse(readFileSync(join(folder, FILES[part]), "utf8"));
