// Artifacts altered field by field and written again (a raw-block zstd frame, its XXH64 computed
// here): each is refused or read as player/tree.py reads it, the Python rule named in each case.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { decode, encode } from "@msgpack/msgpack";
import { FormatError, inflate, load } from "../src/node.js";
import { xxh64 } from "../src/xxh64.js";
import { REPO } from "./expected.js";

function frame(raw) {  // one zstd frame of raw blocks, declaring its size, with its checksum
  const blocks = [];
  for (let at = 0; at < raw.length || !blocks.length; at += 1 << 17) {
    const part = raw.subarray(at, at + (1 << 17)), last = at + (1 << 17) >= raw.length ? 1 : 0;
    const header = (part.length << 3) | last;
    blocks.push(Uint8Array.of(header & 255, (header >> 8) & 255, header >> 16), part);
  }
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(raw.length), true);
  const check = new Uint8Array(4);
  new DataView(check.buffer).setUint32(0, Number(xxh64(raw) & 0xffffffffn), true);
  return Buffer.concat([Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0b11100100), size, ...blocks, check]);
}

async function sha256(bytes) {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(bytes).digest("hex");
}

const golden = decode(inflate(readFileSync(`${REPO}tests/golden/mastermind-c3-h2-entropy.msgpack.zst`)));

// The golden 3x2 Mastermind tree with `change(document, body)` applied, written back.
async function altered(change) {
  const document = structuredClone(golden), body = decode(golden.body.slice());  // copies: the golden stays whole
  change(document, body);
  document.body = encode(body);
  document.body_sha256 = await sha256(document.body);
  return frame(encode(document));
}

const refusedWith = async (change, message) => assert.rejects(load(await altered(change), "t"),
  (e) => e instanceof FormatError && e.message === `t: ${message}`);

test("the raw-block writer makes files the reader takes", async () => {
  const tree = await load(await altered(() => {}), "t");
  assert.equal(tree.stats.total, 21);
  assert.deepEqual(tree.nextGuess([["AB", "1B0W"], ["AC", "0B1W"]]), [2, 1]);  // FORMAT.md §4's worked example
});

test("the header: plugin games, versions, parameters, statistics", async () => {
  await refusedWith((d) => { d.game.name = "mygame:make"; }, "the game is the plugin 'mygame:make', which only the Python player runs");
  await refusedWith((d) => { d.game.name = "chess"; }, "unknown game 'chess'");
  await refusedWith((d) => { d.version = [3, 0]; }, "format version 3.0 is not readable by this player (it reads 1.x and 2.x)");
  await load(await altered((d) => { d.version = [1, 7]; d.later = { key: [1, 2] }; }), "t");  // a newer minor, an unknown key
  await refusedWith((d) => { d.game.params.colours = "3"; }, "cannot rebuild the game 'mastermind': --colours must be a whole number from 1 to 26, not '3'");
  await refusedWith((d) => { d.game.params.secret_repeats = "yes"; }, "the game 'mastermind' does not take secret_repeats='yes' as written");
  await load(await altered((d) => { d.game.params.secret_repeats = 1; }), "t");  // Python: True == 1
  await refusedWith((d) => { d.game.params.bogus = 1; }, "cannot rebuild the game 'mastermind': bad parameters for mastermind: colours, holes, "
    + "secret_repeats, guess_repeats, bogus (it takes colours, holes, secret_repeats, guess_repeats, feedback)");
  await refusedWith((d) => { d.stats.total = -1; }, "the statistic 'total' is -1, not a whole number");
  await refusedWith((d) => { d.stats.worst = 3.5; }, "the statistic 'worst' is 3.5, not a whole number");
  await refusedWith((d) => { d.stats.histogram = [[2, 4], [1, 1]]; }, "the statistic 'histogram' is not in increasing order of guesses");
  await refusedWith((d) => { d.strategy.seed = true; }, "the header's strategy {'name': 'entropy', 'candidates': 'all', 'seed': True} is not a map of names to plain values");
  await refusedWith((d) => { delete d.producer; }, "the header's producer is None, not a string");
});

test("the optional keys of 1.2: a notice, and the guesses a tree was compiled with", async () => {
  const text = "the header's notice is not a text of at most 65536 bytes";
  for (const notice of [3, "  ", "x".repeat(65537), new Uint8Array([77])]) await refusedWith((d) => { d.notice = notice; }, text);
  await refusedWith((d) => { d.allowed_guesses = 0; }, "the header's allowed_guesses 0 is not a count of guesses");
  await refusedWith((d) => { d.allowed_guesses = "9"; }, "the header's allowed_guesses '9' is not a count of guesses");
  const carried = await load(await altered((d) => { d.notice = "MIT License"; d.allowed_guesses = 20; }), "t");
  assert.deepEqual([carried.notice, carried.allowedGuesses], ["MIT License", 20]);
  const plain = await load(await altered(() => {}), "t");
  assert.deepEqual([plain.notice, plain.allowedGuesses], [null, null]);
});

test("the body: counts, widths, feedbacks, symbols, edges, cycles", async () => {
  await refusedWith((_, b) => { b.nodes = 2 ** 20 + 1; }, "bad node count 1048577 (this player reads 1 to 1048576 nodes)");
  await refusedWith((_, b) => { b.code_length = 3; }, "code length 3 does not match the game's 2");
  await refusedWith((_, b) => { b.feedback_width = 3; }, "bad feedback width 3 (1 or 2 bytes)");
  await refusedWith((_, b) => { b.feedbacks[0] = [1, 1]; }, "the feedback table holds [1, 1], which this game never gives");
  await refusedWith((_, b) => { b.feedbacks[1] = [0, 0]; }, "the feedback table repeats a value");
  await refusedWith((_, b) => { b.guess = b.guess.slice(0, -1); }, "17 guess symbols for 9 nodes of 2");
  await refusedWith((_, b) => { b.guess[5] = 3; }, "a guess uses symbol 3, beyond the game's 3");
  await refusedWith((_, b) => { b.edge_count[1] = 1; }, "the edge counts add up to 9, but 9 nodes need 8 edges");
  await refusedWith((_, b) => { b.edge_feedback[2] = 9; }, "an edge names a feedback beyond the feedback table");
  await refusedWith((_, b) => { b.edge_feedback[2] = 4; }, "node 0: an edge follows the winning feedback");
  await refusedWith((_, b) => { b.edge_count[0] = 0; b.edge_count[8] = 4; }, "node 2: its child 1 would come before it or be itself (a cycle)");
});

test("the document: sha256, structure, floats, extension types", async () => {
  const tampered = structuredClone(golden);
  tampered.body_sha256 = "0".repeat(64);
  await assert.rejects(load(frame(encode(tampered)), "t"), { message: "t: the body's sha256 does not match the header (the file is damaged or was altered)" });
  await refusedWith((d) => { d.format = "guesstree2"; }, "not a guesstree artifact (format is 'guesstree2')");
  await refusedWith((d) => { d.junk = new Array((1 << 20) + 1).fill(0); }, "the artifact holds more than 1048576 bytes of msgpack structure");
  await load(await altered((d) => { d.padding = new Uint8Array(2 << 20); }), "t");  // bin payloads are not structure
  const withExt = Buffer.concat([Uint8Array.of(0x81, 0xa1, 0x78, 0xd4, 1, 0)]);
  await assert.rejects(load(frame(withExt), "t"), { message: "t: the artifact is not valid msgpack (an extension type, which an artifact never holds)" });
  await assert.rejects(load(frame(Uint8Array.of(0x92, 1, 2)), "t"), { message: "t: the artifact is not a msgpack map" });
  await assert.rejects(load(frame(Uint8Array.of(0x81, 0xa1, 0x78, 1, 0)), "t"), { message: "t: the artifact is not valid msgpack (Extra 1 of 5 byte(s) found at buffer[4])" });
  // a version of floats: msgpack-python reads [1.0, 1] as floats, which the reader refuses
  const floats = Buffer.from(encode({ ...golden, version: [0, 1] }));
  const at = floats.indexOf(Buffer.from([0xa7, ...Buffer.from("version"), 0x92, 0x00]));
  const patched = Buffer.concat([floats.subarray(0, at + 9), Uint8Array.of(0xcb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0), floats.subarray(at + 10)]);
  await assert.rejects(load(frame(patched), "t"), { message: "t: bad format version [1.0, 1]" });
});

test("msgpack-python's limits: 1024 levels of arrays and maps (empty ones too), strings in UTF-8", async () => {
  const nested = (levels, inner) => frame(Uint8Array.of(0x81, 0xa1, 0x78, ...new Array(levels - 1).fill(0x91), inner));
  await assert.rejects(load(nested(1024, 0x90), "t"), { message: "t: the artifact is not valid msgpack (nested too deep)" });
  await assert.rejects(load(nested(1024, 0x00), "t"), { message: "t: not a guesstree artifact (format is None)" });  // read
  await assert.rejects(load(frame(Uint8Array.of(0x81, 0xa1, 0x78, 0xa2, 0xc3, 0x28)), "t"),
    { message: "t: the artifact is not valid msgpack (The encoded data was not valid for encoding utf-8)" });
  await load(await altered((d) => { d.later = "\ufeff"; }), "t");  // a BOM is a character like any other
  // an array claiming 2**32 - 1 items is refused before the decoder makes room for them
  await assert.rejects(load(frame(Uint8Array.of(0x81, 0xa1, 0x78, 0xdd, 0xff, 0xff, 0xff, 0xff)), "t"),
    { message: "t: the artifact holds more than 1048576 bytes of msgpack structure" });
});
