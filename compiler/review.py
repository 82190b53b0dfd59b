"""A game's review by the exhaustive search: every figure of ``player.review`` exact and the tied
best guesses all found, where the search finishes within its time (``seconds`` a move: its guess's
worth and the position it leads to).

    from guesstree.compiler.review import review
    report = review(make_game("mastermind", colours=3, holes=3), [("AAB", "1B1W"), ("ABC", "3B")])
    report.to_dict()

The search answers a position's least total (``Space.total_below``), a guess's (``guess_total``),
and, by the canonical optimal tree below a guess (``TotalSearch.optimal_guess`` at each node),
its worst case. It starts from what the tree and the book already say (``player.worth.TreeFacts``),
so a position they settle costs nothing but the tied best guesses; the first guesses' ties come
from the proven rankings shipped beside the book (``RANKINGS.json``) or a peg game's classes. A search still running when
the move's time is up is stopped (its stop flag, which Ctrl-C sets too); the move keeps the
facts' bounds, and ``Review.notes`` says so.
"""
from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from guesstree.player.games import Code
from guesstree.player.review import Review, checked_steps, reviewed, tree_name
from guesstree.player.worth import NEVER, Best, Span, Steps, TreeFacts, Worth

from .exact import solver_of
from .search.problem import Stopped
from .search.table import INF, UNLIMITED

DEFAULT_SECONDS = 5.0
RANKINGS = "RANKINGS.json"  # the book's folder's proven rankings of first guesses (scripts/build_trees.py --rankings)
MAX_RANKINGS_BYTES = 1 << 20


def _rankings() -> dict | None:
    """RANKINGS.json beside the shipped book, read whole once (None where there is none); a file
    that is not a JSON object of at most ``MAX_RANKINGS_BYTES`` is refused by name (``FormatError``)."""
    from guesstree.player.data import trees_folder

    path = trees_folder() / "book" / RANKINGS
    return _read_rankings(str(path)) if path.is_file() else None


@functools.lru_cache(maxsize=4)
def _read_rankings(path: str) -> dict:
    from guesstree.player.format import FormatError

    data = Path(path).read_bytes()
    try:
        if len(data) > MAX_RANKINGS_BYTES:
            raise ValueError(f"larger than {MAX_RANKINGS_BYTES} bytes")
        document = json.loads(data)
        if not isinstance(document, dict):
            raise ValueError("not a JSON object")
    except ValueError as error:  # (json's errors, UnicodeDecodeError too)
        raise FormatError(f"book/{RANKINGS}: not a ranking of first guesses ({error})") from None
    return document


def proven_openers(tree, max_depth: int | None) -> tuple[dict[Code, tuple[Span, int | None]], int] | None:
    """What the shipped rankings (``RANKINGS.json`` beside the book) prove of ``tree``'s game's first
    guesses within ``max_depth``: by guess, the best few's totals and worst cases, and the least
    total any other first guess can have; None where no ranking covers it. A ranking made with no
    depth limit serves a limit too: a guess's total is exact there where its tree fits within the
    limit, else a lower bound, and so is the floor of the others."""
    from guesstree.player.book import game_key
    from guesstree.player.format import FormatError

    document = _rankings()
    if document is None:
        return None
    try:
        key = game_key(tree.header.get("game"))
        fitting = [ranking for ranking in document["rankings"]
                   if ranking["game"] == key and ranking["max_depth"] in (max_depth, None)]
        for ranking in sorted(fitting, key=lambda ranking: ranking["max_depth"] != max_depth)[:1]:  # its own limit's first
            made, ranked = ranking["max_depth"], {}
            for opener in ranking["openers"]:
                total, worst = int(opener["total"]), int(opener["worst"])
                fits = made == max_depth or worst <= max_depth
                ranked[tree.game.parse_code(opener["guess"])] = (Span(total, total if fits else None),
                                                                 worst if fits else None)
            return ranked, max(span.low for span, _ in ranked.values())
    except (ValueError, KeyError, TypeError) as error:
        raise FormatError(f"book/{RANKINGS}: not a ranking of first guesses ({error})") from None
    return None


def proven_seconds(tree, max_depth: int | None) -> tuple[Code, dict[Code, dict[Code, tuple[int, int]]]] | None:
    """What RANKINGS.json proves of a peg game's second guesses within ``max_depth``: the first
    guess it was made after (the first code of its class), and by each answer to it, the exact total
    and worst case of each class of second guesses (by the lowest guess of the class, the search's
    group); None where no table covers ``tree``'s game."""
    from guesstree.player.book import game_key
    from guesstree.player.format import FormatError

    document = _rankings()
    if document is None:
        return None
    try:
        key, game = game_key(tree.header.get("game")), tree.game
        for table in document.get("seconds", []):
            if table["game"] == key and table["max_depth"] == max_depth:
                return game.parse_code(table["first"]), {
                    game.parse_feedback(answer["feedback"]): {game.parse_code(entry["guess"]): (int(entry["total"]),
                                                                                          int(entry["worst"]))
                                                            for entry in answer["classes"]}
                    for answer in table["answers"]}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise FormatError(f"book/{RANKINGS}: not a table of second guesses ({error})") from None
    return None


class OutOfTime(Exception):
    """The move's time is up: what is not known yet stays as the facts' bounds."""


class SearchedFacts:
    """``TreeFacts`` made exact by the exhaustive search of ``game``, within ``seconds`` a move."""

    def __init__(self, game, facts: TreeFacts, max_depth: int | None, seconds: float):
        self.game, self.facts, self.max_depth, self.seconds = game, facts, max_depth, seconds
        self.solver = solver_of(game)
        self.space = self.solver.space
        self.secret_index = {code: index for index, code in enumerate(game.secrets)}
        self.guess_index = {code: index for index, code in enumerate(game.guesses)}
        self.ranking = None if facts.tree is None else proven_openers(facts.tree, max_depth)
        self.second_table = None if facts.tree is None or not game.permutable else proven_seconds(facts.tree, max_depth)
        self._seconds: dict[tuple, dict[Code, tuple[int, int]]] = {}  # by answer to the first guess: each guess's
        self.notes: list[str] = []
        self._start()

    # -- running within the move's time --------------------------------------------------------------

    def _start(self) -> None:
        """A move's searches start: they have ``seconds`` from now."""
        self.deadline, self.timed_out = time.monotonic() + self.seconds, False

    def _searched(self, run):
        """``run()`` stopped at the deadline (``OutOfTime``); Ctrl-C still stops it as Ctrl-C does."""
        left = self.deadline - time.monotonic()
        if self.timed_out or left <= 0:
            raise OutOfTime
        stop = self.space.stop

        def expire():
            self.timed_out = True
            stop[0] = 1

        timer = threading.Timer(left, expire)
        timer.start()
        try:
            return run()
        except Stopped:
            if not self.timed_out:
                raise KeyboardInterrupt from None
            raise OutOfTime from None
        finally:
            timer.cancel()
            stop[0] = 0

    def _each(self, work, items: list) -> list:
        """``work(space, item)`` for every item, on as many threads as the space has rows of counters
        (the compiled searches release the GIL; each thread counts on its own row, all share the
        table and the stop flag), in the items' order."""
        threads = min(len(items), len(self.space.counters) - 1)
        if threads <= 1:
            return [work(self.space, item) for item in items]
        views = [self.space.view(row) for row in range(1, threads + 1)]
        with ThreadPoolExecutor(threads) as pool:
            shares = [pool.submit(lambda view, share: [work(view, item) for item in share], view, items[start::threads])
                      for start, view in enumerate(views)]
            done = [share.result() for share in shares]
        return [done[index % threads][index // threads] for index in range(len(items))]

    # -- the figures -----------------------------------------------------------------------------------

    def _node(self, steps: Steps, candidates: Sequence[Code]):
        """The position as the search sees it, or None where a guess of the history is none of the game's."""
        played = tuple(self.guess_index.get(guess, -1) for guess, _ in steps)
        if -1 in played:
            return None
        index = np.array(sorted(self.secret_index[code] for code in candidates), dtype=np.int64)
        budget = UNLIMITED if self.max_depth is None else self.max_depth - len(steps)
        return index, played, budget

    def best(self, steps: Steps, candidates: list[Code]) -> Best:
        known = self.facts.best(steps, candidates)
        node = self._node(steps, candidates)
        if known.complete or node is None:
            return known
        if known.total.exact and not steps:  # the whole game's optimum, which the tree proved
            tied = self._first_ties(candidates, known.total.low)
            if tied is None:
                self.notes.append(f"the first guesses tied with the tree's were not all settled within {self.seconds:g} s "
                                  "(--seconds gives the search longer; guesstree openers ranks them)")
                return known
            return Best(known.total, tied, True, known.worst)
        second = self._second(steps)
        if second is not None:  # after a peg game's first guess: the proven table of second guesses
            symmetry, worths = second
            best = min(total for total, _ in worths.values())
            tied = self._in_order([self.guess_index[symmetry.back(code)] for code, (total, _) in worths.items()
                                   if total == best], node[0])
            first = self.game.guesses[tied[0]]
            return Best(Span(best, best), tuple(self.game.guesses[guess] for guess in tied), True,
                        worths[symmetry.forward(first)][1])
        index, played, budget = node
        if not steps:
            self._start()  # (elsewhere the position shares the time of the move that led to it)
        best = known.total.low if known.total.exact else None
        try:
            if best is None:
                best = self._searched(lambda: self.space.total_below(index, played, budget, INF + 1))
            if best >= INF:
                return Best(Span(NEVER, NEVER), (), True, None)
            tied = self._searched(lambda: self._tied(index, played, budget, best))
            worst = self._searched(lambda: self._worst_after(index, played, tied[0], budget))
        except OutOfTime:
            self._late(max(len(steps), 1))
            if known.total.exact or best is None:
                return known
            return Best(Span(best, best), known.guesses, False, known.worst)  # the least total, its guesses unsearched
        return Best(Span(best, best), tuple(self.game.guesses[guess] for guess in tied), True, worst)

    def worth(self, steps: Steps, candidates: list[Code], guess: Code) -> Worth:
        self._start()  # a move's time starts with its guess's worth; the position it leads to shares it
        known = self.facts.worth(steps, candidates, guess)
        if not steps and self.ranking is not None:  # a first guess: the proven ranking's total, or its floor
            ranked, floor = self.ranking
            if guess in ranked and ranked[guess][0].exact:
                return Worth(*ranked[guess])
            known = Worth(known.total.meet(ranked[guess][0] if guess in ranked else Span(floor, None)), known.worst)
        second = self._second(steps)
        if second is not None and second[0].forward(guess) in second[1]:
            total, worst = second[1][second[0].forward(guess)]
            return Worth(Span(total, total), worst)
        node = self._node(steps, candidates)
        code = self.guess_index.get(guess)
        if node is None or code is None or (known.total.exact and known.worst is not None):
            return known
        index, played, budget = node
        try:
            total = known.total.low if known.total.exact else self._searched(
                lambda: self._guess_total(index, played, code, budget))
            if total >= INF:
                return Worth(Span(NEVER, NEVER))
            worst = self._searched(lambda: self._worst_after(index, played, code, budget))
        except OutOfTime:
            self._late(len(steps) + 1)
            return known
        return Worth(Span(total, total), worst)

    def _second(self, steps: Steps):
        """After a first guess whose class the table of second guesses was made for (``proven_seconds``):
        the symmetry that carries the game to the table's first guess, and each guess's exact total
        and worst case there, by the answer given (every guess: its class's); else None."""
        from guesstree.player.book import class_of

        if self.second_table is None or len(steps) != 1:
            return None
        first, answers = self.second_table
        canonical, symmetry = class_of(steps[0][0], self.game.symbols)
        table = answers.get(steps[0][1])
        if canonical != first or table is None:
            return None
        if steps[0][1] not in self._seconds:
            played = (self.guess_index[first],)
            self._seconds[steps[0][1]] = {self.game.guesses[image]: table[rep] for rep in table
                                          for image in self.space.symmetry.images(self.guess_index[rep], played)}
        worths = self._seconds[steps[0][1]]
        if len(worths) != len(self.game.guesses):
            return None  # (a table that leaves a guess out settles nothing)
        return symmetry, worths

    def _in_order(self, guesses, index: np.ndarray) -> list[int]:
        """``guesses`` (indices) in the order an optimal tree prefers them at the node of the secrets
        ``index``: one that may be the secret first, then the lowest."""
        candidate = set(self.space.secret_guess[index].tolist())
        return sorted(set(guesses), key=lambda guess: (guess not in candidate, guess))

    def _first_ties(self, candidates: list[Code], best: int) -> tuple[Code, ...] | None:
        """Every first guess whose total is the game's optimum ``best`` (which a tree proved), in the
        optimal tree's order, from what is proven of the first guesses: the shipped ranking's (every
        guess it leaves out needs more than its last); else, in a game with symmetries, each class's
        total (the book's tree for it); else by the search within the time. None where that is not enough."""
        guesses = self.game.guesses
        index = np.arange(self.space.n_secrets, dtype=np.int64)
        budget = UNLIMITED if self.max_depth is None else self.max_depth
        self._start()
        tied: list[int] = []
        if self.ranking is not None:
            ranked, floor = self.ranking
            if floor <= best or any(total.low == best and not total.exact for total, _ in ranked.values()):
                return None  # a guess outside the ranking may tie, or one within it
            tied = [self.guess_index[code] for code, (total, _) in ranked.items() if total.low == best]
        elif len(lowest := self.space.mask(())):
            for guess in np.flatnonzero(lowest).tolist():
                total = self.facts.worth([], candidates, guesses[guess]).total
                try:
                    found = total.low if total.exact else self._searched(
                        functools.partial(self.space.guess_total, index, (), guess, budget, best + 1))
                except OutOfTime:
                    return None
                if found == best:
                    tied.extend(self.space.symmetry.images(guess, ()))
        else:
            try:
                tied = self._searched(lambda: self._tied(index, (), budget, best))
            except OutOfTime:
                return None
        return tuple(guesses[guess] for guess in self._in_order(tied, index))

    def _late(self, move: int) -> None:
        note = (f"move {move}: the search did not finish within {self.seconds:g} s; what it did not "
                "settle is the tree's and the book's bounds (--seconds gives it longer)")
        if note not in self.notes:
            self.notes.append(note)

    def _guess_total(self, index: np.ndarray, played: tuple, guess: int, budget: int) -> int:
        """``T(g)``: a guess for every secret here, and the least total of each part it leaves, the
        parts searched on threads (largest first)."""
        after = played + (guess,)
        parts = [np.sort(part) for part in self.space.split(guess, index)]
        totals = self._each(lambda space, part: space.total_below(part, after, budget - 1, INF + 1), parts)
        return min(len(index) + sum(totals), INF)

    def _tied(self, index: np.ndarray, played: tuple, budget: int, best: int) -> list[int]:
        """Every guess allowed here whose total is ``best``, in the canonical order of the optimal
        tree's choice (a possible secret first, then the lowest): the lowest of each symmetry class
        searched, with the classes of those tied taken whole."""
        space = self.space
        allowed = np.arange(space.n_guesses, dtype=np.int64)
        if space.hint_rule is not None:
            allowed = allowed[space.hint_rule.allowed(space.state(index, played))]
        lowest = space.mask(played)
        searched = allowed[lowest[allowed]] if len(lowest) else allowed
        bounds, parts, is_candidate, _ = space.bounds(index, searched, budget)
        useful = (parts > 1) | is_candidate
        hopeful = [int(guess) for guess, bound, use in zip(searched, bounds, useful) if use and bound <= best]
        totals = self._each(lambda space, guess: space.guess_total(index, played, guess, budget, best + 1), hopeful)
        tied = [guess for guess, total in zip(hopeful, totals) if total == best]
        if len(lowest):
            tied = list({image for guess in tied for image in space.symmetry.images(guess, played)} & set(allowed.tolist()))
        return self._in_order(tied, index)

    def _worst_after(self, index: np.ndarray, played: tuple, guess: int, budget: int) -> int:
        """The depth of the canonical optimal tree below ``guess`` at this node, the guess counting 1."""
        choose = self.solver.total.optimal_guess
        deepest = 1
        stack = [(index, played, guess, budget, 1)]
        while stack:
            index, played, guess, budget, depth = stack.pop()
            deepest = max(deepest, depth)
            after = played + (guess,)
            for part in self.space.split(guess, index):
                if len(part) == 1:
                    deepest = max(deepest, depth + 1)
                    continue
                part = np.sort(part)
                stack.append((part, after, choose(part, after, budget - 1), budget - 1, depth + 1))
        return deepest

    def close(self) -> None:
        self.solver.close()


def review(game, history, max_depth: int | None = None, seconds: float = DEFAULT_SECONDS, tree=None,
           any_guess: bool = False) -> Review:
    """The review of ``history`` ((guess, feedback) pairs as the game writes them, oldest first) in
    ``game`` (or a tree's game: pass the ``Tree``), by the exhaustive search, exact wherever it
    finishes within ``seconds`` a move (its guess's worth and the position it leads to; the first
    position has as long of its own); ``tree`` (a ``Tree`` of the game, with its book) settles
    what it can first. ``max_depth``: the depth limit of the review (default: the tree's own). A
    history no secret fits, or a guess the game does not allow (unless ``any_guess``), raises
    ``ValueError`` naming its first such step."""
    from guesstree.player.tree import Tree

    if isinstance(game, Tree):
        game, tree = game.game, game
    if not (seconds > 0):
        raise ValueError(f"seconds must be above 0, not {seconds}")
    if max_depth is None and tree is not None:
        max_depth = tree.strategy.get("max_depth")
    if max_depth is not None and max_depth < 1:
        raise ValueError(f"max_depth must be at least 1, not {max_depth}")
    steps = checked_steps(game, history, any_guess)
    searched = SearchedFacts(game, TreeFacts(game, tree, max_depth), max_depth, seconds)
    try:
        done = reviewed(game, steps, searched, tree=None if tree is None else tree_name(tree),
                        max_depth=max_depth, source="exact search")
    finally:
        searched.close()
    done.notes = searched.notes
    return done


def second_guesses(game, first: str, max_depth: int | None = None, most: int | None = None) -> list[dict]:
    """What ``proven_seconds`` reads, by the search: for each answer to the first guess ``first``
    (the first code of its class) that leaves at most ``most`` secrets (None: each), the exact total
    and worst case of every class of second guesses, each by its lowest guess
    (``scripts/build_trees.py --rankings`` writes them)."""
    searched = SearchedFacts(game, TreeFacts(game, None, max_depth), max_depth, DEFAULT_SECONDS)
    try:
        space, opener = searched.space, searched.guess_index[game.parse_code(first)]
        budget = UNLIMITED if max_depth is None else max_depth - 1
        answers = []
        for feedback in game.feedbacks():
            candidates = [index for index, secret in enumerate(game.secrets) if game.score(game.guesses[opener], secret) == feedback]
            if feedback == game.win or not candidates or (most is not None and len(candidates) > most):
                continue
            index, played = np.array(candidates, dtype=np.int64), (opener,)
            classes = [{"guess": game.format_code(game.guesses[guess]),
                        "total": searched._guess_total(index, played, guess, budget),
                        "worst": searched._worst_after(index, played, guess, budget)}
                       for guess in np.flatnonzero(space.mask(played)).tolist()]
            answers.append({"feedback": game.format_feedback(feedback), "classes": classes})
        return answers
    finally:
        searched.close()

