"""Build every shipped tree into trees/ and write trees/MANIFEST.json.

    python scripts/build_trees.py                      # rebuild everything
    python scripts/build_trees.py --only mastermind-c6-h4-entropy
    python scripts/build_trees.py --check              # rebuild in a temp dir, compare bytes
    python scripts/build_trees.py --book               # the opening book: trees/book/ and its BOOK.json
    python scripts/build_trees.py --book --check       # rebuild the book in a temp dir, compare bytes
    python scripts/build_trees.py --rankings           # trees/book/RANKINGS.json: proven first guesses, second guesses

The manifest lists, per artifact, its file name, sha256, size, game and strategy specs and
statistics, all read back from the artifacts themselves. Nothing in it depends on the time
or the machine, so the same sources give the same files.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from guesstree.compiler import Options, build, save
from guesstree.compiler.builder.writer import default_path
from guesstree.player.artifact import FormatError, decode, encode, write_atomic
from guesstree.player.games import make_game
from guesstree.player.manifest import FORMAT, entries_of
from guesstree.player.wordlists import words_of_length

ROOT = Path(__file__).resolve().parent.parent
TREES_DIR = ROOT / "trees"
MANIFEST = "MANIFEST.json"
BOOK_DIR, BOOK_INDEX = "book", "BOOK.json"
SUFFIX = ".msgpack.zst"
CLASSIC = {"colours": 6, "holes": 4}
WORDLE_LISTS = ROOT / "tests" / "data" / "wordle"  # the original lists (12972 guesses, 2315 answers)
WORDLE = {"answers": str(WORDLE_LISTS / "wordlist_orig_hidden"), "guesses": str(WORDLE_LISTS / "wordlist_orig_all")}
WORDLE_NOTICE = WORDLE_LISTS / "LICENSE"  # the lists' MIT notice, which every tree that embeds them carries
DEBIAN_LISTS = Path("/usr/share/dict")  # Debian's word lists of many languages (w* packages)


@dataclass(frozen=True)
class DebianWords:
    """The words of one length of a Debian word list (``package``'s ``/usr/share/dict/LANGUAGE``), as a
    list file of their own: a dictionary holds words of every length, a game's list one; words that
    are not all letters (``l'eau``, ``e-mail``) are left out. Written to a scratch folder when a build
    needs them (the tree carries its words: the file is not shipped)."""

    language: str
    package: str
    length: int

    def path(self) -> Path:
        source = DEBIAN_LISTS / self.language
        if not source.exists():
            raise SystemExit(f"{source}: missing; this tree's words come from Debian's {self.package} "
                             f"(apt-get install -y {self.package})")
        words = words_of_length(str(source), self.length)
        path = Path(tempfile.gettempdir()) / "guesstree-lists" / f"{self.language}-{self.length}.txt"
        path.parent.mkdir(exist_ok=True)
        write_atomic(path, "".join(word + "\n" for word in words).encode())
        return path


SPANISH = DebianWords("spanish", "wspanish", 5)
SPANISH_NOTICE = TREES_DIR / "notices" / "wspanish.txt"  # public domain, its source named


@dataclass(frozen=True)
class Shipped:
    """One shipped artifact: the game and the options that build it."""

    game: str
    params: dict
    options: Options
    named: str | None = None  # a file name for people, instead of compile's default
    notice: Path | None = None  # the licence of the data the tree embeds (compile --notice)
    words: DebianWords | None = None  # the answers, where they come from a Debian word list

    def game_params(self) -> dict:
        return self.params if self.words is None else {**self.params, "answers": str(self.words.path())}

    @property
    def file(self) -> str:
        return self.named or default_path(make_game(self.game, **self.game_params()), self.options).name

    @property
    def name(self) -> str:
        return self.file.removesuffix(SUFFIX)


SHIPPED = [
    Shipped("mastermind", CLASSIC, Options("first", candidates="consistent")),
    *(Shipped("mastermind", CLASSIC, Options(strategy, candidates="all"))
      for strategy in ("entropy", "worst-entropy", "minimax", "most-parts", "expected-size")),
    Shipped("mastermind", {**CLASSIC, "secret_repeats": False}, Options("entropy")),
    Shipped("bulls-cows", {"digits": 10, "length": 4}, Options("entropy")),
    Shipped("bulls-cows", {"digits": 10, "length": 4}, Options("minimax")),
    Shipped("twod", {"size": 5}, Options("entropy")),
    Shipped("digits", {"length": 4}, Options("entropy")),
    Shipped("mastermind", {"colours": 8, "holes": 5, "secret_repeats": True, "guess_repeats": True}, Options("entropy")),
    # the trees people come for: proven optimal, ready to embed
    Shipped("mastermind", CLASSIC, Options("optimal-expected")),
    Shipped("mastermind", CLASSIC, Options("fewest-at-worst")),  # 539 secrets at 5 (Slovesnov), total 5627
    Shipped("mastermind", {"colours": 7, "holes": 4}, Options("optimal-expected")),  # Ville 2013: 11228
    Shipped("bulls-cows", {"digits": 10, "length": 4}, Options("optimal-expected")),  # Tanaka 1996: 26274
    Shipped("bulls-cows", {"digits": 10, "length": 4}, Options("fewest-at-worst")),  # 50 secrets at 7 (Slovesnov), total 26450
    # the full proofs over all 12972 first guesses (13 and 11 min here); their bodies are the trees that
    # --first salet builds
    Shipped("words", WORDLE, Options("optimal-expected"), "wordle-salet-optimal-expected.msgpack.zst", WORDLE_NOTICE),
    Shipped("words", {**WORDLE, "hard": True}, Options("optimal-expected", max_depth=6),
            "wordle-hard-salet-optimal-expected-depth6.msgpack.zst", WORDLE_NOTICE),
    # ultra-hard mode (every guess could be the answer): 8119, worst 8; the full proof takes about 2 min here
    Shipped("words", {**WORDLE, "ultra_hard": True}, Options("optimal-expected"),
            "wordle-ultra-salet-optimal-expected.msgpack.zst", WORDLE_NOTICE),
    # words beyond a-z: the five-letter words of Debian's Spanish list (4752, public domain), Ñ and accents kept;
    # the least total after CERTA, most-parts' first guess (17890, proven; 13 s here; entropy's tree takes 18254)
    Shipped("words", {}, Options("optimal-expected", first="certa"), "words-es-certa-optimal-expected.msgpack.zst",
            SPANISH_NOTICE, words=SPANISH),
    # records (trees/RECORDS.md, scripts/records.py): proven optima of small and medium games
    # 4x5: optimal-worst's tree has both the least total (3954, what optimal-expected proves) and the least worst
    # case (5), where optimal-expected's own tree takes 6; not found in the literature we searched
    Shipped("mastermind", {"colours": 4, "holes": 5}, Options("optimal-worst")),
    Shipped("mastermind", {"colours": 8, "holes": 4}, Options("optimal-expected")),  # 20471: not found in the literature we searched
    # 20473 with every secret within 6, where optimal-expected's tree takes 7 for 14: not found in the literature we searched
    Shipped("mastermind", {"colours": 8, "holes": 4}, Options("optimal-worst")),
    # 34666: not found in the literature we searched; 70 min and 4316 CPU-s here (with --checkpoint, resumed once)
    Shipped("mastermind", {"colours": 9, "holes": 4}, Options("optimal-expected")),
    Shipped("mastermind", {"colours": 3, "holes": 6}, Options("optimal-expected")),  # 2649: not found in the literature we searched
    Shipped("mastermind", {"colours": 6, "holes": 4, "secret_repeats": False, "guess_repeats": False},
            Options("optimal-expected")),  # 1446: not found in the literature we searched
    Shipped("mastermind", {"colours": 8, "holes": 4, "secret_repeats": False, "guess_repeats": False},
            Options("optimal-expected")),  # 7817 (= Bulls and Cows 4 of 8): not found in the literature we searched
    Shipped("bulls-cows", {"digits": 10, "length": 3}, Options("optimal-expected")),  # 3575: not found in the literature we searched
    Shipped("bulls-cows", {"digits": 9, "length": 4}, Options("optimal-expected")),  # 14914: not found in the literature we searched
]


# The opening book (trees/book/, player/book.py): each game's optimum after the first guesses people
# play, which suggest follows once a person has opened with one of them. For the peg games, one tree
# per class of first guesses (its first code: player.book.class_of); for the words games, popular
# openers, each the least total that wins every answer within 6 (SLATE's unbounded optimum takes 7
# for one; in hard mode, only openers that can be won within 6).
WORDLE_OPENERS = ("crane", "slate", "trace", "crate", "adieu", "audio", "roate", "stare", "raise", "arise")
HARD_OPENERS = ("crane", "stare", "adieu")
BOOK = [
    *(Shipped("mastermind", CLASSIC, Options("optimal-expected", first=first))
      for first in ("AAAA", "AAAB", "AABB", "AABC", "ABCD")),
    Shipped("bulls-cows", {"digits": 10, "length": 4}, Options("optimal-expected", first="0123")),
    *(Shipped("words", WORDLE, Options("optimal-expected", first=first, max_depth=6),
              f"wordle-{first}-optimal-expected-depth6.msgpack.zst", WORDLE_NOTICE) for first in WORDLE_OPENERS),
    *(Shipped("words", {**WORDLE, "hard": True}, Options("optimal-expected", first=first, max_depth=6),
              f"wordle-hard-{first}-optimal-expected-depth6.msgpack.zst", WORDLE_NOTICE) for first in HARD_OPENERS),
]


def carry_played(path: Path) -> None:
    """Rewrite a words tree of the book to carry only the guesses it plays, saying how many it was
    compiled with (trees/FORMAT.md §2.1, ``allowed_guesses``): the tree it follows carries the rest.
    Wordle's book trees: 31 KB -> 17 KB each."""
    from guesstree.player.header import build as build_header
    from guesstree.player.tree import Tree

    header, body = decode(path.read_bytes(), str(path))
    tree = Tree(header, body, str(path))
    played = {tree.guess_of(node) for node in range(tree.nodes)}
    carried = build_header(tree.game.portable(played), tree.strategy, tree.stats, tree.notice,
                           allowed_guesses=len(tree.game.guesses), producer=tree.producer)
    write_atomic(path, encode(carried, body))


def book_text(directory: Path) -> str:
    """trees/book/BOOK.json: the book's trees as ``player.book`` finds them (every file must exist)."""
    from guesstree.player.book import FORMAT as BOOK_FORMAT, game_key
    from guesstree.player.tree import load

    openings = []
    for tree in BOOK:
        path = directory / tree.file
        loaded = load(path)
        openings.append({"file": tree.file, "game": game_key(loaded.header["game"]),
                         "first": loaded.game.format_code(loaded.guess_of(0)), "total": loaded.stats.total,
                         "worst": loaded.stats.worst})
    document = {"format": BOOK_FORMAT, "rebuild": "python scripts/build_trees.py --book", "openings": openings}
    return json.dumps(document, indent=1) + "\n"


def build_one(tree: Shipped, directory: Path) -> Path:
    started = time.perf_counter()
    built = build(make_game(tree.game, **tree.game_params()), tree.options)
    path = save(built, directory / tree.file, tree.notice.read_text() if tree.notice else None)
    s = built.stats
    print(f"{tree.file}: {built.nodes} nodes, total {s['total']}, average {s['average']:.3f}, "
          f"worst {s['worst']} ({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return path


def manifest_text(directory: Path) -> str:
    """The manifest of the shipped set as found in ``directory`` (every file must exist), in build order."""
    entries = entries_of(directory, [tree.file for tree in SHIPPED])
    document = {"format": FORMAT, "rebuild": "python scripts/build_trees.py", "trees": entries}
    return json.dumps(document, indent=2) + "\n"


def select(only: list[str] | None) -> list[Shipped]:
    if not only:
        return SHIPPED
    by_name = {tree.name: tree for tree in SHIPPED}
    wanted = [name.removesuffix(SUFFIX) for name in only]
    unknown = [name for name in wanted if name not in by_name]
    if unknown:
        raise SystemExit(f"unknown tree: {unknown[0]!r}; choose from {', '.join(by_name)}")
    return [by_name[name] for name in dict.fromkeys(wanted)]


def describe_difference(shipped: bytes, rebuilt: bytes) -> str:
    """Say whether the tree itself changed, or only the compressed bytes."""
    try:
        old_header, old_body = decode(shipped, "shipped")
    except FormatError as error:
        return f"the shipped file does not load ({error})"
    new_header, new_body = decode(rebuilt, "rebuilt")
    if old_body != new_body:
        return "the tree body differs"
    changed = sorted(key for key in set(old_header) | set(new_header) if old_header.get(key) != new_header.get(key))
    if changed:
        return f"the header differs in {', '.join(changed)}"
    return "same content, different compressed bytes (another zstd version?)"


def check(trees: list[Shipped], directory: Path) -> int:
    """Rebuild ``trees`` in a temporary directory; 1 if anything differs from ``directory``."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="guesstree-check-") as temporary:
        scratch = Path(temporary)
        for tree in trees:
            rebuilt = build_one(tree, scratch).read_bytes()
            shipped_path = directory / tree.file
            if not shipped_path.exists():
                problems.append(f"{tree.file}: not shipped")
            elif shipped_path.read_bytes() != rebuilt:
                problems.append(f"{tree.file}: differs from a rebuild: "
                                f"{describe_difference(shipped_path.read_bytes(), rebuilt)}")
        if trees == SHIPPED:
            expected = {tree.file for tree in SHIPPED}
            for stray in sorted(p.name for p in directory.glob(f"*{SUFFIX}") if p.name not in expected):
                problems.append(f"{stray}: shipped, but not built by this script")
            manifest = directory / MANIFEST
            if not manifest.exists():
                problems.append(f"{MANIFEST}: missing")
            elif manifest.read_text() != manifest_text(scratch):
                problems.append(f"{MANIFEST}: differs from the rebuilt trees' manifest")
    for problem in problems:
        print(f"DIFFERENT {problem}", file=sys.stderr)
    if not problems:
        print(f"ok: {len(trees)} trees rebuilt byte for byte", file=sys.stderr)
    return 1 if problems else 0


# The proven rankings of first guesses (trees/book/RANKINGS.json), which guesstree review reads: the
# best first guesses of a game whose whole tree is shipped, exactly, and a floor on every other's
# total (all its ties with the best, and the popular first guesses' totals, with no search).
RANKED = [("words", WORDLE, None, 10), ("words", {**WORDLE, "hard": True}, 6, 10)]  # game, params, max depth, top
# ... and, in a peg game whose first guesses are all alike, every class of second guesses after each answer
SECONDS = [("bulls-cows", {}, None, "bulls-cows-d10-l4-optimal-expected")]  # game, params, max depth, its tree
RANKINGS = "RANKINGS.json"


def proven_rankings() -> list[dict]:
    """RANKINGS.json's rankings, each as ``guesstree openers GAME ... --top K [--max-depth N]`` proves it."""
    from guesstree.compiler import rank_openers
    from guesstree.player.book import game_key

    rankings = []
    for name, params, max_depth, top in RANKED:
        game = make_game(name, **params)
        ranking = rank_openers(game, top=top, max_depth=max_depth)
        options = " ".join(f"--{key}" if value is True else f"--{key} {Path(value).relative_to(ROOT)}"
                           for key, value in params.items())
        rankings.append({"game": game_key(game.portable().spec()), "max_depth": max_depth,
                         "command": f"guesstree openers {name} {options} --top {top}"
                                    + ("" if max_depth is None else f" --max-depth {max_depth}"),
                         "openers": [{"guess": opener.code, "total": opener.total, "worst": opener.worst}
                                     for opener in ranking.best]})
    return rankings


def second_tables() -> list[dict]:
    """RANKINGS.json's tables of second guesses, as ``compiler.review.second_guesses`` computes them."""
    from guesstree.compiler.review import second_guesses
    from guesstree.player import load_shipped
    from guesstree.player.book import class_of, game_key

    tables = []
    for name, params, max_depth, shipped in SECONDS:
        game = make_game(name, **params)
        first = game.format_code(class_of(load_shipped(shipped).guess_of(0), game.symbols)[0])
        tables.append({"game": game_key(game.portable().spec()), "max_depth": max_depth, "first": first,
                       "answers": second_guesses(game, first, max_depth)})
    return tables


def rankings_text(rankings: list[dict], seconds: list[dict]) -> str:
    document = {"format": "guesstree-rankings", "rebuild": "python scripts/build_trees.py --rankings",
                "meaning": "rankings: per game and depth limit, its best first guesses with their exact totals and "
                           "worst cases; every other first guess needs at least the last one's total. seconds: per "
                           "answer to a first guess (the first code of its class), every class of second guesses "
                           "(its lowest guess) with its exact total and worst case",
                "rankings": rankings, "seconds": seconds}
    return json.dumps(document, indent=1) + "\n"


def build_book(folder: Path) -> None:
    """The opening book's trees and its index into ``folder``."""
    folder.mkdir(exist_ok=True)
    for tree in BOOK:
        path = build_one(tree, folder)
        if tree.game == "words":
            carry_played(path)
    write_atomic(folder / BOOK_INDEX, book_text(folder).encode())


def check_book(folder: Path) -> int:
    """Rebuild the opening book in a temporary directory; 1 if any file differs from ``folder``'s."""
    with tempfile.TemporaryDirectory(prefix="guesstree-check-book-") as temporary:
        scratch = Path(temporary) / BOOK_DIR
        build_book(scratch)
        names = sorted({p.name for p in scratch.iterdir()} | {p.name for p in folder.iterdir()})
        problems = [name for name in names if not (folder / name).exists() or not (scratch / name).exists()
                    or (folder / name).read_bytes() != (scratch / name).read_bytes()]
    for name in problems:
        print(f"DIFFERENT {BOOK_DIR}/{name}", file=sys.stderr)
    if not problems:
        print(f"ok: the book's {len(names)} files rebuilt byte for byte", file=sys.stderr)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="rebuild only these trees (file names, suffix optional)")
    parser.add_argument("--check", action="store_true", help="rebuild in a temporary directory and compare bytes; exit 1 on any difference")
    parser.add_argument("--list", action="store_true", help="print the shipped trees' names and exit")
    parser.add_argument("--book", action="store_true", help="build the opening book into the trees directory's book/")
    parser.add_argument("--rankings", action="store_true", help=f"prove the first-guess rankings into book/{RANKINGS}")
    parser.add_argument("--seconds-only", action="store_true",
                        help="with --rankings: only the tables of second guesses (the rankings kept as they are)")
    parser.add_argument("--trees", type=Path, default=TREES_DIR, help=f"the trees directory (default {TREES_DIR})")
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(tree.name for tree in SHIPPED))
        return 0
    if args.rankings:
        path = args.trees / BOOK_DIR / RANKINGS
        rankings = json.loads(path.read_text())["rankings"] if args.seconds_only else proven_rankings()
        write_atomic(path, rankings_text(rankings, second_tables()).encode())
        print(f"wrote {args.trees / BOOK_DIR / RANKINGS}", file=sys.stderr)
        return 0
    if args.book:
        if args.check:
            return check_book(args.trees / BOOK_DIR)
        build_book(args.trees / BOOK_DIR)
        print(f"wrote {args.trees / BOOK_DIR / BOOK_INDEX}", file=sys.stderr)
        return 0
    trees = select(args.only)
    if args.check:
        return check(trees, args.trees)
    for tree in trees:
        build_one(tree, args.trees)
    missing = [tree.file for tree in SHIPPED if not (args.trees / tree.file).exists()]
    if missing:
        print(f"{MANIFEST} not written: {', '.join(missing)} not built yet", file=sys.stderr)
        return 1
    write_atomic(args.trees / MANIFEST, manifest_text(args.trees).encode())
    print(f"wrote {args.trees / MANIFEST}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
