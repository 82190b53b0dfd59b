// guesstree-player/core: the games and the tree walk, with no dependency (what the HTML export inlines).

/** One symbol index per position (colour, digit, coordinate, letter), e.g. [0, 1, 2, 3] for ABCD. */
export type Code = number[];
/** The codemaker's answer, e.g. [2, 1] for 2B1W, [2, 1, 0, 0, 0] for G Y - - -. */
export type Feedback = number[];
/** One step of a game: a guess and its feedback, each as ints or as the game's text ("ABCD", "2B1W"). */
export type Step = [Code | string, Feedback | string];
/** The (guess, feedback) steps played, oldest first. */
export type History = Iterable<Step>;

/** A code-breaking game, rebuilt from the artifact's header; the same rules as the Python player's. */
export interface Game {
  readonly name: "mastermind" | "bulls-cows" | "digits" | "twod" | "words";
  /** Symbols per code. */
  readonly length: number;
  /** Symbols are 0 .. symbols - 1. */
  readonly symbols: number;
  /** The winning feedback. */
  readonly win: Feedback;
  /** Every possible secret, in canonical (lexicographic) order (the same array each call: do not modify it). */
  secrets(): Code[];
  /** The keyword arguments that rebuild the game, as the artifact writes them. */
  params(): Record<string, boolean | number | string | null>;
  /** A short name for people, e.g. "Mastermind, 6 colours, 4 holes". */
  title(): string;
  /** Every feedback that can occur, in canonical order (the win included). */
  feedbacks(): Feedback[];
  score(guess: Code, secret: Code): Feedback;
  /** Why guess may not follow history (hard-mode words), or null. */
  allows(guess: Code, history: [Code, Feedback][]): string | null;
  formatCode(code: Code): string;
  /** Throws Error naming what is wrong with the text. */
  parseCode(text: string): Code;
  /** Throws Error if code has the wrong length or an unknown symbol. */
  checkCode(code: Code): Code;
  formatFeedback(feedback: Feedback): string;
  /** Throws Error naming what is wrong with the text. */
  parseFeedback(text: string): Feedback;
  checkFeedback(feedback: Feedback): Feedback;
  /**
   * Each secret's weight (how likely it is), in the order of secrets(): a words tree compiled with
   * weighted answers (its answer_weights); null where every secret weighs 1, as in every other game.
   */
  readonly weights: number[] | null;
  /**
   * The game's feedback rule (trees/FORMAT.md §2.1, format 1.4), or null for the full score:
   * black pegs only ([black]), counts-only words ([in place, elsewhere]) or letters in common ([in common, won]).
   */
  readonly rule: { readonly family: "pegs" | "marks"; readonly said: string } | null;
  /** A secret's weight as a whole number in a unit common to the game's weights (exact, to compare them); null without weights. */
  wholeWeight(code: Code): bigint | null;
  /** How much a feedback tells, for an adversarial host choosing between answers that keep as many secrets: the least first. */
  hostKey(feedback: Feedback): number[];
}

/** A words game: its letters (any alphabet, a-z by default), shown as their capitals. */
export interface WordsGame extends Game {
  readonly name: "words";
  /** The letters, in code order (by code point): a code's symbols index it. */
  readonly alphabet: string[];
  /** How each letter is shown, e.g. "Ñ" for "ñ"; typed words take either form. */
  readonly capitals: string[];
  /** The code of a typed letter (a letter of the alphabet or its capital), or -1. */
  letterOf(character: string): number;
  /** Hard mode (also true in ultra-hard mode). */
  readonly hard: boolean;
  /** Ultra-hard mode (format 1.5): every guess could be the answer; allows() refuses any other with the reason. */
  readonly ultraHard: boolean;
}

export interface Stats {
  secrets: number;
  total: number;
  average: number;
  worst: number;
  /** guesses to win -> number of secrets */
  histogram: Record<number, number>;
  determined_total: number;
  determined_average: number;
  determined_worst: number;
  determined_histogram: Record<number, number>;
}

/** The file is not a usable artifact; the message names the file and the reason. */
export class FormatError extends Error {}
/** The history leaves the tree (another guess, feedback no secret left gives), or no secret fits it. */
export class InconsistentHistory extends Error {}

/** A loaded tree. Histories and codes are taken as arrays of ints or the game's text. */
export class Tree {
  /** Builds and checks a tree from a decoded artifact (header map, body map with Uint8Array arrays). */
  constructor(header: object, body: object, options?: { name?: string; listDigest?: (text: string) => string | undefined });
  readonly name: string;
  readonly game: Game;
  readonly strategy: Record<string, boolean | number | string | null>;
  readonly stats: Stats;
  /** The licence of the data the game embeds (a words tree's word lists), as the tree carries it; or null. */
  readonly notice: string | null;
  /** How many guesses the tree was compiled with, where its game carries fewer (a words tree: those it plays); or null. */
  readonly allowedGuesses: number | null;
  /** The feedback table of the body, in its order. */
  readonly feedbacks: Feedback[];
  readonly nodes: number;
  guessOf(node: number): Code;
  /** [feedback, child node] for each answer other than the win, in edge order. */
  edges(node: number): [Feedback, number][];
  child(node: number, feedback: Feedback): number | null;
  /** The guess to play after history; null once the winning feedback was given. Throws InconsistentHistory off the tree. */
  nextGuess(history: History): Code | null;
  /** The steps the tree plays against secret, up to the win. */
  path(secret: Code | string): [Code, Feedback][];
  /**
   * The secrets, in canonical order, that give every (guess, feedback) of history. Throws for a
   * guess that is not one of the game's allowed guesses, unless anyGuess.
   */
  candidates(history: History, options?: { anyGuess?: boolean }): Code[];
  /** Why guess is not one of the game's allowed guesses, or null. */
  unknownGuess(guess: Code): string | null;
  /**
   * The tree's guess while history follows the tree (null once won); off it, the opening book's
   * optimum for the first guess while the history follows it (player/book.py), else the guess of
   * player/advice.py's rule (the most parts over every allowed guess, with a look-ahead that keeps
   * the tree's worst case), the same as the Python player's. Throws InconsistentHistory when no
   * secret fits, and an Error for a guess the game does not allow, unless anyGuess.
   */
  suggest(history: History, options?: { anyGuess?: boolean }): Code | null;
  /**
   * The opening book suggest follows: (game key, first guess as the game writes it) -> a loaded
   * tree or null, as bookOf makes it; null for none. Node's loadFile and loadShipped give the
   * shipped book. Returns the tree.
   */
  useBook(book: Book | null): this;
}

/** A book's lookup: the tree of a game (its key) for a first guess (as the game writes it), or null. */
export type Book = (game: string, first: string) => Tree | null;

export const GAMES: Record<string, unknown>;
export const MAX_NODES: number;  // of a whole body (1.x)
export const MAX_CHUNKED_NODES: number, MAX_CHUNK_NODES: number, MAX_CHUNKS: number, MAX_CHUNK_BYTES: number;  // of a chunked one (2.0)
export function makeGame(name: string, params: Record<string, unknown>, listDigest?: (text: string) => string | undefined): Game;
