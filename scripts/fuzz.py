"""Fuzz the artifact reader with hostile inputs for a while; print what happened as JSON.

    python scripts/fuzz.py --seconds 60 --seed 1

Each input is one of several kinds (truncation, bit flips, random bytes, splices, msgpack field
mutations re-encoded with a correct sha256, version changes, game specs and plugin paths, zstd
and msgpack bombs, edge-count tampering); it is loaded with ``player.loads`` and, if it loads,
verified. The exit status is 1 if any input raised anything but ``FormatError`` (or made the
verifier crash), took longer than ``--time-bound`` seconds to load, or ran a plugin it named.

    python scripts/fuzz.py --corpus DIR --count 600 --seed 1

writes ``--count`` such inputs to ``DIR`` instead, with ``DIR/decisions.json``: for each file the
Python reader's decision (``loaded`` or ``refused``, and its message) and the decision expected of
the JavaScript reader (``player/js``), the same except for a plugin game, which only Python runs.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import struct
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import msgpack
import zstandard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from guesstree import player  # noqa: E402
from guesstree.player import FormatError  # noqa: E402
from guesstree.player.artifact import (MAX_BODY_BYTES, MAX_STRUCTURE_BYTES, InMemory, encode_chunked,  # noqa: E402
                                       frame_length, pack_uints, unpack_uints)
from guesstree.player.verify import verify  # noqa: E402

BASES = [  # small trees of every built-in game, so that mutations reach each game's checks
    ("mastermind", {"colours": 4, "holes": 3}, "entropy"),
    ("mastermind", {"colours": 6, "holes": 4}, "entropy"),
    ("mastermind", {"colours": 5, "holes": 3, "secret_repeats": False}, "minimax"),
    ("bulls-cows", {"digits": 6, "length": 3}, "entropy"),
    ("digits", {"length": 2}, "first"),
    ("twod", {"size": 6}, "entropy"),
    ("words", {"answers": str(Path(__file__).resolve().parent.parent / "tests" / "data" / "words-small.txt"),
               "hard": True}, "entropy"),
]
DANGEROUS_PLUGINS = ["shutil:rmtree", "os:remove", "os:rmdir", "subprocess:run", "antigravity:x", "this:x",
                     "guesstree.player.games:make_game", "guesstree.player.games:Mastermind", "no_such_module:f", ":f", ".x:f"]


# -- encoding --------------------------------------------------------------------
def unpack(data: bytes) -> tuple[dict, dict]:
    document = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data), raw=False, strict_map_key=False)
    return document, msgpack.unpackb(document["body"], raw=False, strict_map_key=False)


def pack(document: dict, body: dict | None = None, sha: bool = True) -> bytes:
    document = dict(document)
    if body is not None:
        document["body"] = msgpack.packb(body, use_bin_type=True)
    if sha and isinstance(document.get("body"), bytes):
        document["body_sha256"] = hashlib.sha256(document["body"]).hexdigest()
    return frame(msgpack.packb(document, use_bin_type=True))


def frame(raw: bytes, **options) -> bytes:
    settings = {"level": 1, "write_content_size": True, "write_checksum": True, **options}
    return zstandard.ZstdCompressor(**settings).compress(raw)


def random_value(rng: random.Random, depth: int = 0):
    """A msgpack-encodable value of any type, nested a little, with awkward numbers and ext types."""
    roll = rng.random()
    if depth < 3 and roll < 0.15:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    if depth < 3 and roll < 0.25:
        keys = [None, True, 1, -1, 2**64 - 1, 0.5, b"k", "a", "b", "x", "name", "params", "__proto__"]
        return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return rng.choice([
        None, True, False, 0, 1, -1, 2, 3, 255, 256, 65535, 2**31, 2**32, 2**63 - 1, 2**64 - 1, -(2**63),
        rng.randrange(-1000, 1000), 0.5, -0.0, float("nan"), float("inf"), 1e308,
        "", "x", "guesstree", "mastermind", "entropy", "\u00e9\u0000", b"", b"\x00\x01", bytes(rng.randrange(64)),
        msgpack.ExtType(rng.randrange(128), b"ab"), [[3, 0]], [1, 0], {"name": "mastermind"},
    ])


def containers(document: dict, body: dict) -> list:
    found = [document, body]
    for item in found:  # grows as it goes
        found += [v for v in (item.values() if isinstance(item, dict) else item) if isinstance(v, (dict, list))]
    return found


# -- the kinds of hostile input ----------------------------------------------------
def truncate(rng, base, context):
    return base[:rng.randrange(len(base))]


def bitflip(rng, base, context):
    data = bytearray(base)
    for _ in range(rng.choice([1, 1, 2, 3, 8, 32])):
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return bytes(data)


def random_bytes(rng, base, context):
    data = rng.randbytes(rng.choice([0, 1, 4, 5, 16, 100, 4096]))
    if rng.random() < 0.5:  # past the magic number, into the frame parser
        data = base[:rng.randrange(4, 20)] + data
    return data


def splice(rng, base, context):
    other = rng.choice(context["bases"])
    a, b = sorted(rng.randrange(len(base) + 1) for _ in range(2))
    c, d = sorted(rng.randrange(len(other) + 1) for _ in range(2))
    return base[:a] + (other[c:d] if rng.random() < 0.7 else rng.randbytes(d - c)) + base[b:]


def field(rng, base, context):
    document, body = unpack(base)
    for _ in range(rng.choice([1, 1, 2, 3])):
        target = rng.choice(containers(document, body))
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        action = rng.choice(["replace", "replace", "delete", "add"]) if keys else "add"
        if action == "delete":
            del target[rng.choice(keys)]
        elif action == "add":
            if isinstance(target, dict):
                target[rng.choice(["junk", "nodes", "stats", "x", "__proto__"])] = random_value(rng)
            else:
                target.insert(rng.randrange(len(target) + 1), random_value(rng))
        else:
            target[rng.choice(keys)] = random_value(rng)
    return pack(document, body)


def version(rng, base, context):
    document, _ = unpack(base)
    document["version"] = rng.choice([
        [2, 0], [3, 0], [0, 0], [1, 99], [1, -1], [-1, 0], [2**64 - 1, 0], [1], [1, 0, 0], [], "1.0", None, 1.0,
        [1.0, 0], [True, 0], [b"1", 0], [[1], 0], {"major": 1},
    ])
    if rng.random() < 0.2:
        document["format"] = rng.choice(["guesstree2", b"guesstree", None, ["guesstree"]])
    return pack(document)


def game(rng, base, context):
    document, _ = unpack(base)
    spec = dict(document["game"])
    roll = rng.random()
    if roll < 0.4:
        spec["name"] = rng.choice(DANGEROUS_PLUGINS)
        spec["params"] = rng.choice([{}, {"path": context["victim"]}, {"args": ["true"]}, spec.get("params", {})])
    elif roll < 0.7:
        spec["params"] = {**spec.get("params", {}), rng.choice(["colours", "holes", "digits", "length", "size",
                                                                 "secret_repeats", "bogus"]): random_value(rng)}
    else:
        spec["name"] = rng.choice(["mastermind", "bulls-cows", "digits", "twod", "chess", "", None, 7])
    document["game"] = spec
    return pack(document)


def bomb(rng, base, context):
    roll = rng.randrange(8)
    if roll == 0:  # a tiny frame declaring far more than the cap
        size = rng.choice([MAX_BODY_BYTES + 1, 1 << 32, 8 << 30, 1 << 40, 2**64 - 3])
        block = struct.pack("<I", (1 << 17 << 3) | (1 << 1) | 1)[:3] + b"\x00"
        return struct.pack("<IBQ", 0xFD2FB528, 0b11100100, size) + block
    if roll == 1:  # no declared size, inflates hugely
        return rng.choice(context["streamed_bombs"])
    if roll == 2:  # declares little, inflates to much
        honest = context["zeros_8m"]
        at = 5 + (0 if honest[4] & 0x20 else 1)
        return honest[:at] + struct.pack("<I", rng.choice([0, 1, 1000, 1 << 20])) + honest[at + 4:]
    if roll == 3:  # a million empty containers in a header field: ~64 MB of Python objects
        document, body = unpack(base)
        document["junk"] = [rng.choice([[], {}])] * (MAX_STRUCTURE_BYTES + rng.randrange(1000))
        return pack(document, body)
    if roll == 4:  # nested containers that claim a million items each
        claim = rng.choice([b"\xdd", b"\xdf"]) + rng.choice([1 << 20, 1 << 31, 2**32 - 1]).to_bytes(4, "big")
        return frame(b"\x81\xa1x" + claim * rng.choice([10, 1000, 5000]))
    if roll == 5:  # lengths that claim gigabytes
        return frame(rng.choice([b"\xdf\xff\xff\xff\xff", b"\x81\xa1x\xdb\xff\xff\xff\xff",
                                 b"\x81\xa1x\xc6\xff\xff\xff\xff", b"\x81\xa1x\xc9\xff\xff\xff\xff\x01"]) + bytes(64))
    if roll == 6:  # a body whose non-binary part is too big
        document, body = unpack(base)
        body["feedbacks"] = body["feedbacks"] * (MAX_STRUCTURE_BYTES // 8)
        return pack(document, body)
    document, body = unpack(base)  # a large but legal payload, under every cap: it loads
    document["padding"] = bytes(rng.choice([1 << 20, 8 << 20, 32 << 20]))
    return pack(document, body)


def edges(rng, base, context):
    document, body = unpack(base)
    width = body["feedback_width"]
    counts = list(unpack_uints(body["edge_count"], width))
    answers = list(unpack_uints(body["edge_feedback"], width))
    nodes = len(counts)
    roll = rng.randrange(7)
    if roll == 0:  # same total, children owned by random nodes: mostly cycles
        owners = [rng.randrange(nodes) for _ in range(nodes - 1)]
        counts = [0] * nodes
        for owner in owners:
            counts[owner] += 1
    elif roll == 1:  # move some edges between two nodes
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        moved = rng.randint(0, counts[a])
        counts[a] -= moved
        counts[b] += moved
    elif roll == 2:  # a total that is off
        node = rng.randrange(nodes)
        counts[node] = max(0, counts[node] + rng.choice([-1, 1, 2, 200]))
    elif roll == 3:  # swap two nodes' counts
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        counts[a], counts[b] = counts[b], counts[a]
    elif roll == 4 and answers:  # an edge's feedback: another, the winning one, beyond the table
        answers[rng.randrange(len(answers))] = rng.randrange(len(body["feedbacks"]) + 2)
    elif roll == 5:  # the node count, or the arrays' lengths
        body["nodes"] = rng.choice([0, 1, nodes - 1, nodes + 1, 2**20 + 1, 2**63])
    else:  # a guess symbol
        guess = bytearray(body["guess"])
        guess[rng.randrange(len(guess))] = rng.randrange(256)
        body["guess"] = bytes(guess)
    body["edge_count"] = pack_uints([min(c, 256**width - 1) for c in counts], width)
    body["edge_feedback"] = pack_uints([min(a, 256**width - 1) for a in answers], width)
    return pack(document, body)


def split_chunked(data: bytes) -> tuple[dict, list[bytes]]:
    """The document and the chunk frames of a chunked artifact (trees/FORMAT.md §10)."""
    end = frame_length(InMemory(data))
    document = msgpack.unpackb(zstandard.ZstdDecompressor().decompress(data[:end]), raw=False, strict_map_key=False)
    document["index"] = msgpack.unpackb(document["index"], raw=False, strict_map_key=False)
    sizes = unpack_uints(document["index"]["chunk_size"], 4)
    frames, at = [], end
    for size in sizes:
        frames.append(data[at:at + size])
        at += size
    return document, frames


def pack_chunked(document: dict, frames: list[bytes], honest: bool = True) -> bytes:
    """A chunked artifact of these frames; ``honest``: the index's sizes and checksums made right
    again, so that the checks behind them run."""
    index = document["index"]
    if honest:
        index = {**index, "chunk_size": pack_uints([len(f) for f in frames], 4),
                 "chunk_checksum": b"".join(f[-4:] for f in frames)}
    packed = msgpack.packb(index, use_bin_type=True) if isinstance(index, dict) else index
    return frame(msgpack.packb({**document, "index": packed}, use_bin_type=True)) + b"".join(frames)


def chunked(rng, base, context):
    """A chunked artifact of a base tree, its index, its chunks' frames or their content broken."""
    data = encode_chunked(*_header_and_body(base), rng.choice([1, 3, 16, 64, 1 << 14]))
    document, frames = split_chunked(data)
    index, roll = document["index"], rng.randrange(10)
    if roll == 0:  # an index field: replaced, deleted or added
        key = rng.choice(list(index) + ["junk"])
        if rng.random() < 0.3:
            index.pop(key, None)
        else:
            index[key] = random_value(rng)
        return pack_chunked(document, frames, honest=False)
    if roll == 1:  # the nodes per chunk, or the node count
        key = rng.choice(["chunk_nodes", "nodes"])
        index[key] = max(0, index[key] + rng.choice([-1, 1])) if rng.random() < 0.5 else rng.choice([0, 1, 2**20 + 1, 2**32, 2**63])
        return pack_chunked(document, frames, honest=False)
    if roll == 2:  # one entry of the index's columns
        key = rng.choice(["chunk_size", "chunk_first_edge", "chunk_checksum"])
        column = bytearray(index[key])
        column[rng.randrange(len(column))] ^= 1 << rng.randrange(8)
        index[key] = bytes(column)
        return pack_chunked(document, frames, honest=False)
    if roll == 3:  # a chunk's frame: truncated or flipped, the index left as it was
        c = rng.randrange(len(frames))
        damaged = bytearray(frames[c])
        if rng.random() < 0.5:
            del damaged[rng.randrange(len(damaged)):]
        else:
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        frames[c] = bytes(damaged)
        return pack_chunked(document, frames, honest=rng.random() < 0.5)
    if roll == 4:  # chunks dropped, doubled, swapped, or bytes after the last
        choice = rng.randrange(4)
        if choice == 0:
            frames.pop(rng.randrange(len(frames)))
        elif choice == 1:
            frames.insert(rng.randrange(len(frames) + 1), rng.choice(frames))
        elif choice == 2 and len(frames) > 1:
            a, b = rng.sample(range(len(frames)), 2)
            frames[a], frames[b] = frames[b], frames[a]
        else:
            return pack_chunked(document, frames) + rng.choice([b"\0", frames[-1], bytes(100)])
        return pack_chunked(document, frames, honest=rng.random() < 0.7)
    if roll == 5:  # a chunk's frame: no checksum, no size, or a size that is a lie or a bomb
        c = rng.randrange(len(frames))
        content = zstandard.ZstdDecompressor().decompress(frames[c])
        choice = rng.randrange(4)
        if choice == 0:
            frames[c] = frame(content, write_checksum=False) + b"\0\0\0\0"
        elif choice == 1:
            frames[c] = frame(content, write_content_size=False)
        elif choice == 2:
            frames[c] = frame(content + bytes(rng.choice([1, 1000])))
        else:
            frames[c] = frame(bytes(MAX_BODY_BYTES // 4))
        return pack_chunked(document, frames)
    # the content of a chunk, re-framed honestly: its counts, an edge's feedback, a guess symbol
    width, length, size = index["feedback_width"], index["code_length"], index["chunk_nodes"]
    c = rng.randrange(len(frames))
    content = bytearray(zstandard.ZstdDecompressor().decompress(frames[c]))
    held = min(size, index["nodes"] - c * size)
    counts_at, edges_at = held * length, held * (length + width)
    if roll == 6:
        content[rng.randrange(counts_at)] = rng.randrange(256)
    elif roll == 7 and len(content) > edges_at:
        content[rng.randrange(edges_at, len(content))] = rng.randrange(len(index["feedbacks"]) + 2)
    else:
        content[rng.randrange(counts_at, edges_at)] ^= 1 << rng.randrange(3)
    frames[c] = frame(bytes(content))
    return pack_chunked(document, frames)


def _header_and_body(base: bytes) -> tuple[dict, dict]:
    document, body = unpack(base)
    header = {k: v for k, v in document.items() if k not in ("format", "version", "body", "body_sha256")}
    return header, body


KINDS = {"truncate": truncate, "bitflip": bitflip, "random": random_bytes, "splice": splice,
         "field": field, "version": version, "game": game, "bomb": bomb, "edges": edges, "chunked": chunked}


# -- measuring -----------------------------------------------------------------
def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux), so that each input's own peak can be read."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
        return True
    except OSError:
        return False


def rss_kib(field_name: str) -> int:
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def build_bases() -> list[bytes]:
    from guesstree.compiler import Options, build, to_bytes
    from guesstree.player.games import make_game

    return [to_bytes(build(make_game(name, **params), Options(strategy=strategy))) for name, params, strategy in BASES]


def make_context(bases: list[bytes], victim: str) -> dict:
    streamer = zstandard.ZstdCompressor(write_content_size=False, write_checksum=True)
    return {
        "bases": bases, "victim": victim,
        "streamed_bombs": [b"".join(w.compress(bytes(1 << 20)) for _ in range(n)) + w.flush()
                           for n in (64, 512) for w in [streamer.compressobj()]],
        "zeros_8m": zstandard.ZstdCompressor(write_checksum=True).compress(bytes(8 << 20)),
    }


def read_whole(data: bytes, name: str) -> player.Tree:
    """``player.loads``, then every node read: a chunked tree reads its chunks as lookups need
    them, and a damaged one may load and then refuse a lookup. (The Node tests read so too.)"""
    tree = player.loads(data, name)
    for node in range(tree.nodes):
        tree.edges(node)
    return tree


def write_corpus(folder: Path, count: int, seed: int) -> dict:
    """``count`` hostile inputs in ``folder``, each with the Python reader's decision and the
    JavaScript reader's expected one (``decisions.json``); the bases themselves come first."""
    rng = random.Random(seed)
    bases = build_bases()
    folder.mkdir(parents=True, exist_ok=True)
    victim = tempfile.mkdtemp(prefix="guesstree-fuzz-victim-")
    context = make_context(bases, victim)
    decisions = []
    inputs = [("base", base) for base in bases] + [("base", encode_chunked(*_header_and_body(bases[1]), 64))]
    while len(inputs) < count:
        kind = rng.choice(list(KINDS))
        inputs.append((kind, KINDS[kind](rng, rng.choice(bases), context)))
    for number, (kind, data) in enumerate(inputs):
        name = f"{number:04d}-{kind}.bin"
        (folder / name).write_bytes(data)
        try:
            tree = read_whole(data, name)
            python, message = "loaded", None
        except FormatError as error:
            tree, python, message = None, "refused", str(error)
        expected, why = python, None
        if tree is not None and ":" in tree.game.name:
            # A plugin game (here one of player.games' own classes, already imported) loads in
            # Python; the JavaScript player never runs a plugin, and says so.
            expected, why = "refused", "a plugin game"
        decisions.append({"file": name, "kind": kind, "python": python, "message": message,
                          "js": expected, "why": why})
    os.rmdir(victim)
    (folder / "decisions.json").write_text(json.dumps(decisions, indent=1) + "\n")
    return {"folder": str(folder), "inputs": len(decisions),
            "python": dict(Counter(d["python"] for d in decisions)),
            "js_differs": dict(Counter(d["why"] for d in decisions if d["why"]))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to fuzz")
    parser.add_argument("--seed", type=int, default=1, help="seed of the input generator")
    parser.add_argument("--time-bound", type=float, default=0.5, help="seconds a load may take")
    parser.add_argument("--corpus", type=Path, help="write a corpus of inputs and decisions to this folder instead")
    parser.add_argument("--count", type=int, default=600, help="with --corpus: how many inputs")
    args = parser.parse_args()
    if args.corpus is not None:
        print(json.dumps(write_corpus(args.corpus, args.count, args.seed), indent=2))
        return 0

    rng = random.Random(args.seed)
    bases = build_bases()
    victim = tempfile.mkdtemp(prefix="guesstree-fuzz-victim-")
    context = make_context(bases, victim)
    kinds, outcomes, per_kind = Counter(), Counter(), {kind: Counter() for kind in KINDS}
    verified = Counter()
    failures: list[dict] = []
    slowest = {"seconds": 0.0, "kind": None}
    largest = {"kib": 0, "kind": None}
    precise_rss = reset_peak_rss()
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        kind = rng.choice(list(KINDS))
        base = rng.choice(bases)
        data = KINDS[kind](rng, base, context)
        kinds[kind] += 1
        before = rss_kib("VmRSS")
        reset_peak_rss()
        begun = time.perf_counter()
        try:
            tree = read_whole(data, "<fuzz>")
            outcome = "loaded"
        except FormatError as error:
            tree, outcome = None, "FormatError"
            if not str(error).startswith("<fuzz>: "):
                failures.append({"kind": kind, "problem": f"message does not name the file: {error}"})
        except Exception as error:  # the very thing this script looks for
            tree, outcome = None, "other"
            failures.append({"kind": kind, "problem": f"{type(error).__name__}: {error}",
                             "traceback": traceback.format_exc(limit=3), "input_prefix": data[:64].hex()})
        seconds = time.perf_counter() - begun
        growth = max(0, rss_kib("VmHWM" if precise_rss else "VmRSS") - before)
        outcomes[outcome] += 1
        per_kind[kind][outcome] += 1
        if seconds > slowest["seconds"]:
            slowest = {"seconds": seconds, "kind": kind}
        if growth > largest["kib"]:
            largest = {"kib": growth, "kind": kind}
        if seconds > args.time_bound:
            failures.append({"kind": kind, "problem": f"took {seconds:.3f} s", "input_prefix": data[:64].hex()})
        if tree is not None:
            try:
                verified["ok" if verify(tree).ok else "invalid"] += 1
            except Exception as error:
                verified["crashed"] += 1
                failures.append({"kind": kind, "problem": f"verify crashed: {type(error).__name__}: {error}",
                                 "traceback": traceback.format_exc(limit=3)})
        if not os.path.isdir(victim):
            failures.append({"kind": kind, "problem": "a plugin spec ran: the victim directory is gone"})
            os.makedirs(victim)
    os.rmdir(victim)

    report = {
        "seconds": round(time.monotonic() - started, 1), "seed": args.seed, "inputs": sum(kinds.values()),
        "kinds": dict(sorted(kinds.items())),
        "outcomes": {key: outcomes[key] for key in ("FormatError", "loaded", "other")},
        "outcomes_per_kind": {kind: dict(counts) for kind, counts in sorted(per_kind.items())},
        "verified_after_loading": dict(verified),
        "max_seconds": round(slowest["seconds"], 4), "slowest_kind": slowest["kind"], "time_bound": args.time_bound,
        "max_rss_growth_mib": round(largest["kib"] / 1024, 1), "largest_kind": largest["kind"],
        "rss_measure": "per-input peak (VmHWM reset)" if precise_rss else "current RSS after each input",
        "failures": len(failures), "first_failures": failures[:10],
        "ok": not failures,
    }
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
