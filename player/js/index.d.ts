// guesstree-player: read a guesstree artifact (trees/FORMAT.md) and play its tree, in Node 18+ and browsers.
export * from "./core.js";
import type { Tree } from "./core.js";

/** The package's version (guesstree's, which writes the trees). */
export const version: string;
export const FORMAT_NAME: "guesstree";
export const VERSION: [number, number];
export const MAX_BODY_BYTES: number;
export const MAX_FILE_BYTES: number;
export const MAX_STRUCTURE_BYTES: number;

/**
 * Read an artifact's bytes and check it as the Python reader does (one zstd frame with its size
 * and checksum, format and major version, body_sha256, the caps, the header and every node).
 * Async because the sha256 is WebCrypto's. Rejects with FormatError naming `name` and the reason.
 */
export function load(bytes: Uint8Array | ArrayBuffer, name?: string): Promise<Tree>;

/** load, with a sha256 that answers at once (bytes -> hex digest), such as Node's node:crypto. */
export function loadSync(bytes: Uint8Array | ArrayBuffer, name: string, sha256: (bytes: Uint8Array) => string): Tree;

/** A book of loaded trees (each found by its game and first guess), for Tree.useBook. */
/**
 * The adversarial host (Absurdle): the answer to guess that keeps the most of secrets (ties to the one
 * that tells least, game.hostKey) and the secrets it keeps, as player/host.py answers.
 */
export function hostAnswer(game: import("./core.js").Game, guess: import("./core.js").Code,
  secrets: import("./core.js").Code[]): [import("./core.js").Feedback, import("./core.js").Code[]];
export function bookOf(trees: Tree[]): import("./core.js").Book;

/** An interval [low, high]: equal ends where exact, high null where no upper bound is known. */
export type ReviewInterval = [number, number | null];

/** One move of a review (docs/tutorials/review.md, "The figures"). Totals are integers, the rest rounded to 4 decimals. */
export interface ReviewMove {
  step: number;
  guess: string;
  feedback: string;
  /** The secrets possible before the move, and after it (0 once won). */
  candidates: number;
  left: number;
  /** T(g), T* and T*(C'); null where no strategy wins within the depth limit. */
  total: ReviewInterval | null;
  best_total: ReviewInterval | null;
  left_total: ReviewInterval | null;
  expected: ReviewInterval | null;
  best_expected: ReviewInterval | null;
  loss: ReviewInterval | null;
  /** low null too where no upper bound of T*(C') is known. */
  luck: [number | null, number | null] | null;
  best: string[];
  best_complete: boolean;
  worst: number | null;
  best_worst: number | null;
  /** best, good, inaccuracy, mistake; over an interval "good to mistake", "good or worse". */
  verdict: string;
  exact: boolean;
}

/** A game's review, in the JSON shape of `guesstree review --json`. */
export interface Review {
  game: string;
  tree: string;
  max_depth: number | null;
  source: "tree and book";
  exact: boolean;
  /** What the compiler's install (the exhaustive search) would add, or null. */
  missing: string | null;
  moves: ReviewMove[];
  summary: {
    guesses: number;
    won: boolean;
    loss: [number | null, number | null];
    luck: [number | null, number | null];
    expected_start: ReviewInterval | null;
    verdicts: Record<string, number>;
  };
}

/**
 * Review a game of tree's from the tree and the book alone (docs/tutorials/review.md, rules 1-4):
 * each figure exact where the trees prove it, an interval elsewhere. maxDepth: the game to be won
 * within so many guesses (default: the tree's own max_depth, else none). Throws InconsistentHistory
 * naming the first step no secret fits, an Error for a guess that is not one of the game's (unless
 * anyGuess) or that hard mode's rule refuses.
 */
export function review(tree: Tree, book: import("./core.js").Book | null, steps: import("./core.js").History,
  options?: { maxDepth?: number | null; anyGuess?: boolean }): Review;

/** The inflated content of exactly one zstd frame that declares its size and a checksum. */
export function inflate(data: Uint8Array, fail?: (reason: string) => Error, limit?: number): Uint8Array;

/** Node only: the names of the trees shipped with the package, e.g. "wordle-salet-optimal-expected". */
export function shipped(): string[];
/** Node only: load the artifact at a path (messages name the file by it). */
export function loadFile(path: string | URL): Promise<Tree>;
/** Node only: load a shipped tree by name (with or without ".msgpack.zst"). */
export function loadShipped(name: string): Promise<Tree>;
/** Node only: the shipped opening book (trees/book/), which loadFile and loadShipped give every tree. */
export const shippedBook: import("./core.js").Book;
/** Node only: the opening book in a folder holding its BOOK.json (as trees/book/), for Tree.useBook. */
export function bookIn(folder: string | URL): import("./core.js").Book;
