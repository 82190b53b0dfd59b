"""A tree's nodes as trees/FORMAT.md lays them out: the parallel arrays of §3, whole (1.x) or in
chunks read when a lookup first needs them (2.x, §10), each checked before it answers anything.

Every check runs over whole arrays in C (sum, max, accumulate, map), not a Python loop per node:
a 6x4 tree loads in under a millisecond, and a hostile one cannot stall the reader.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import accumulate, compress, islice
from operator import lt, sub

from .artifact import Chunked
from .format import FormatError
from .frames import inflate
from .games import Code, Feedback, Game
from .uints import unpack_uints

MAX_NODES = 1 << 20  # a whole body (1.x): loading checks every node, well under a second
MAX_CHUNKED_NODES = (1 << 32) - 1  # a chunked body: each chunk is checked when it is first read
MAX_CHUNK_NODES = 1 << 20  # nodes per chunk
MAX_CHUNKS = 1 << 20  # chunks in a file: 2^32 nodes in chunks of 4096
MAX_CHUNK_BYTES = 16 << 20  # a chunk's inflated size
CACHE_BYTES = 32 << 20  # chunks kept decoded, at most this many bytes, the least recently used dropped first


class Table:
    """What every node's arrays refer to: the node count, the code length, the feedback table."""

    def __init__(self, body: dict, game: Game, fail, most: int):
        nodes, length, width = body.get("nodes"), body.get("code_length"), body.get("feedback_width")
        if type(nodes) is not int or not 1 <= nodes <= most:
            raise fail(f"bad node count {nodes!r} (this player reads 1 to {most} nodes)")
        if type(length) is not int or length != game.length:
            raise fail(f"code length {length!r} does not match the game's {game.length}")
        if type(width) is not int or width not in (1, 2):
            raise fail(f"bad feedback width {width!r} (1 or 2 bytes)")
        feedbacks = body.get("feedbacks")
        if not isinstance(feedbacks, list) or not feedbacks:
            raise fail("the feedback table is missing")
        known = game.feedback_set
        self.feedbacks: list[Feedback] = []
        for item in feedbacks:
            if not (isinstance(item, list) and all(type(x) is int for x in item)) or tuple(item) not in known:
                raise fail(f"the feedback table holds {item!r}, which this game never gives")
            self.feedbacks.append(tuple(item))
        if len(set(self.feedbacks)) != len(self.feedbacks):
            raise fail("the feedback table repeats a value")
        self.nodes, self.length, self.width, self.symbols = nodes, length, width, game.symbols
        self.win_index = self.feedbacks.index(game.win) if game.win in self.feedbacks else -1


class Piece:
    """Consecutive nodes, ``base`` on, with their edges, ``edge_base`` on (edge ``e`` leads to node
    ``e + 1``), checked: the whole tree of a 1.x body, or one chunk of a 2.x one."""

    __slots__ = ("base", "length", "guess", "first", "edge_feedback")

    def __init__(self, table: Table, guess: bytes, counts: array, edge_feedback: array,
                 base: int, edge_base: int, fail):
        nodes, length = len(counts), table.length
        if len(guess) != nodes * length:
            raise fail(f"{len(guess)} guess symbols for {nodes} nodes of {length}")
        if guess.translate(None, bytes(range(min(table.symbols, 256)))):
            raise fail(f"a guess uses symbol {max(guess)}, beyond the game's {table.symbols}")
        if sum(counts) != len(edge_feedback):
            raise fail(f"the edge counts of nodes {base} to {base + nodes - 1} add up to {sum(counts)}, "
                       f"but {len(edge_feedback)} edges leave them")
        if edge_feedback and max(edge_feedback) >= len(table.feedbacks):
            raise fail("an edge names a feedback beyond the feedback table")
        first = array("I", accumulate(counts, initial=edge_base))  # node base + k -> its first edge

        def parent(child: int) -> int:
            return base + bisect_right(first, child - 1) - 1

        # Node n's parent comes before it exactly when its first edge is at least n; otherwise
        # some node's edge leads back to itself or to an earlier node, and the "tree" has a cycle.
        skip = 1 if base == 0 else 0  # the root has no parent
        early = next(compress(range(base + skip, base + nodes),
                              map(lt, islice(first, skip, nodes), range(base + skip, base + nodes))), None)
        if early is not None:
            raise fail(f"node {parent(early)}: its child {early} would come before it or be itself (a cycle)")
        if table.win_index in edge_feedback:
            raise fail(f"node {parent(edge_base + edge_feedback.index(table.win_index) + 1)}: "
                       "an edge follows the winning feedback")
        # Two sibling edges with one feedback are left to the verifier: lookups take the first,
        # so the tree stays safe to walk, and checking every node here would cost more than the rest.
        self.base, self.length, self.guess, self.first, self.edge_feedback = base, length, guess, first, edge_feedback

    @property
    def bytes(self) -> int:
        """What the piece's arrays take in memory."""
        return len(self.guess) + self.first.itemsize * len(self.first) + self.edge_feedback.itemsize * len(self.edge_feedback)

    def guess_of(self, node: int) -> Code:
        at = (node - self.base) * self.length
        return tuple(self.guess[at:at + self.length])

    def child(self, node: int, index: int) -> int | None:
        local, edge_feedback, shift = node - self.base, self.edge_feedback, self.first[0]
        for e in range(self.first[local] - shift, self.first[local + 1] - shift):
            if edge_feedback[e] == index:
                return e + shift + 1
        return None

    def edges(self, node: int) -> list[tuple[int, int]]:
        """``(feedback index, child)`` of each edge of ``node``, in edge order."""
        local, shift = node - self.base, self.first[0]
        return [(self.edge_feedback[e - shift], e + 1) for e in range(self.first[local], self.first[local + 1])]


def whole(table: Table, body: dict, fail) -> Piece:
    """The nodes of a 1.x body: one piece, checked whole."""
    width = table.width
    arrays = {}
    for key, item_width in (("guess", 1), ("edge_count", width), ("edge_feedback", width)):
        data = body.get(key)
        if not isinstance(data, bytes) or len(data) % item_width:
            raise fail(f"body array {key!r} is missing or malformed")
        arrays[key] = data
    nodes = table.nodes
    if len(arrays["guess"]) != nodes * table.length:
        raise fail(f"{len(arrays['guess'])} guess symbols for {nodes} nodes of {table.length}")
    counts, edge_feedback = unpack_uints(arrays["edge_count"], width), unpack_uints(arrays["edge_feedback"], width)
    if len(counts) != nodes or len(edge_feedback) != nodes - 1:
        raise fail(f"{len(counts)} edge counts and {len(edge_feedback)} edges for {nodes} nodes")
    if sum(counts) != nodes - 1:
        raise fail(f"the edge counts add up to {sum(counts)}, but {nodes} nodes need {nodes - 1} edges")
    return Piece(table, arrays["guess"], counts, edge_feedback, 0, 0, fail)


class Chunks:
    """The nodes of a 2.x body: its index checked on opening, each chunk when first read, the
    most recently used kept decoded, up to ``CACHE_BYTES``."""

    def __init__(self, table: Table, chunked: Chunked, name: str):
        def fail(reason: str) -> FormatError:
            return FormatError(f"{name}: {reason}")

        index, nodes = chunked.index, table.nodes
        size = index.get("chunk_nodes")
        if type(size) is not int or not 1 <= size <= MAX_CHUNK_NODES:
            raise fail(f"bad chunk size {size!r} (1 to {MAX_CHUNK_NODES} nodes a chunk)")
        count = -(-nodes // size)
        if count > MAX_CHUNKS:
            raise fail(f"{count} chunks of {size} nodes, more than the {MAX_CHUNKS} this player reads")
        columns = {}
        for key in ("chunk_size", "chunk_first_edge", "chunk_checksum"):
            data = index.get(key)
            if not isinstance(data, bytes) or len(data) != 4 * count:
                raise fail(f"the index's {key} is not {count} entries of 4 bytes ({count} chunks of {size} nodes)")
            columns[key] = data
        sizes, first = unpack_uints(columns["chunk_size"], 4), unpack_uints(columns["chunk_first_edge"], 4)
        first.append(nodes - 1)
        offsets = array("Q", accumulate(sizes, initial=chunked.start))
        if offsets[-1] != chunked.source.size:
            raise fail(f"the index's chunks take {offsets[-1] - chunked.start} bytes, "
                       f"but {chunked.source.size - chunked.start} follow the document")
        # Each chunk's first edge, edges and inflated size, checked over whole arrays (in C: an
        # index of a million one-node chunks costs no Python loop).
        edges = array("q", map(sub, islice(first, 1, None), first))
        starts = range(0, nodes, size)
        wrong = next(compress(range(count), map(lt, first, starts)), None)
        if wrong is None and min(edges) < 0:
            wrong = edges.index(min(edges))
        most = len(table.feedbacks) - 1
        if wrong is None and (max(edges) > size * most or edges[-1] > (nodes - starts[-1]) * most):
            wrong = next(c for c in range(count) if edges[c] > min(size, nodes - starts[c]) * most)
        if wrong is not None:  # first[0] >= 0 is the root's
            raise fail(f"the index's chunk {wrong} starts at edge {first[wrong]}, which its nodes "
                       f"{starts[wrong]} to {min(starts[wrong] + size, nodes) - 1} cannot have")
        if first[0] != 0:
            raise fail(f"the index's first chunk starts at edge {first[0]}, not 0")
        self.chunk_first, self.chunk_edges = first, edges  # of each chunk
        # the largest: the last chunk, or the one of the most edges among the others (all full)
        biggest = max(sorted({count - 1, edges.index(max(edges[:-1] or edges))}), key=lambda c: self._inflated(c, size, table))
        if self._inflated(biggest, size, table) > MAX_CHUNK_BYTES:
            raise fail(f"the index's chunk {biggest} would inflate to {self._inflated(biggest, size, table)} bytes, "
                       f"more than the {MAX_CHUNK_BYTES} allowed")
        self.table, self.source, self.offsets, self.size, self.name = table, chunked.source, offsets, size, name
        self.checksums = columns["chunk_checksum"]
        self._cache: dict[int, Piece] = {}  # oldest use first
        self._cached = 0  # their bytes
        self.piece(0)  # the root's chunk: a file whose first lookup would fail is refused now

    def piece(self, c: int) -> Piece:
        cache = self._cache
        piece = cache.pop(c, None)
        if piece is None:
            piece = self._read(c)
            self._cached += piece.bytes
            while self._cached > CACHE_BYTES and cache:
                self._cached -= cache.pop(next(iter(cache))).bytes
        cache[c] = piece
        return piece

    def _read(self, c: int) -> Piece:
        name, table = f"{self.name}: chunk {c}", self.table

        def fail(reason: str) -> FormatError:
            return FormatError(f"{name}: {reason}")

        start, held, edge_base = c * self.size, min(self.size, table.nodes - c * self.size), self.chunk_first[c]
        inflated = self._inflated(c, self.size, table)
        frame = self.source.read(self.offsets[c], self.offsets[c + 1] - self.offsets[c])
        if frame[-4:] != self.checksums[4 * c:4 * c + 4]:
            raise fail("its checksum is not the index's (the file is damaged or was altered)")
        raw = inflate(frame, name, inflated, "a chunk")
        if len(raw) != inflated:
            raise fail(f"it holds {len(raw)} bytes, not the {inflated} of its nodes and edges")
        width, guesses = table.width, held * table.length
        counts = unpack_uints(raw[guesses:guesses + held * width], width)
        edge_feedback = unpack_uints(raw[guesses + held * width:], width)
        return Piece(table, raw[:guesses], counts, edge_feedback, start, edge_base, fail)

    def _inflated(self, c: int, size: int, table: Table) -> int:
        """Chunk ``c``'s inflated bytes: its nodes' guesses and edge counts, its edges' feedbacks."""
        return min(size, table.nodes - c * size) * (table.length + table.width) + self.chunk_edges[c] * table.width

    def guess_of(self, node: int) -> Code:
        return self.piece(node // self.size).guess_of(node)

    def child(self, node: int, index: int) -> int | None:
        return self.piece(node // self.size).child(node, index)

    def edges(self, node: int) -> list[tuple[int, int]]:
        return self.piece(node // self.size).edges(node)


def read_body(body: dict | Chunked, game: Game, name: str) -> tuple[Table, Piece | Chunks]:
    """The table and the nodes of a body as ``artifact.read`` gives it, checked."""
    def fail(reason: str) -> FormatError:
        return FormatError(f"{name}: {reason}")

    if isinstance(body, Chunked):
        table = Table(body.index, game, fail, MAX_CHUNKED_NODES)
        return table, Chunks(table, body, name)
    table = Table(body, game, fail, MAX_NODES)
    return table, whole(table, body, fail)
