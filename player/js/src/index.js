// guesstree-player: read a guesstree artifact (trees/FORMAT.md) and play its tree.
//
//   import { load } from "guesstree-player";
//   const tree = await load(bytes);          // Uint8Array of a *.msgpack.zst file
//   tree.nextGuess([["SALET", "-Y--G"]]);    // the tree's next guess, as an array of ints
//
// load refuses a bad file where player/artifact.py and player/tree.py do, with a FormatError
// whose message names the file and the reason. It is async only because WebCrypto's sha256 is.
import { decompress } from "fzstd";
import { Decoder } from "@msgpack/msgpack";
import { Float, FormatError, NON_STRING, Tree, repr } from "./core.js";
import { xxh64 } from "./xxh64.js";

export { FormatError, InconsistentHistory, Tree, GAMES, MAX_NODES, makeGame } from "./core.js";

export const FORMAT_NAME = "guesstree";
export const VERSION = [1, 1];  // a reader refuses another major version and ignores unknown keys
export const MAX_BODY_BYTES = 64 << 20;  // inflated size cap, as player/artifact.py
export const MAX_FILE_BYTES = MAX_BODY_BYTES + (1 << 20);
export const MAX_STRUCTURE_BYTES = 1 << 20;  // msgpack bytes outside bin payloads, per map
const MAX_DEPTH = 1024;  // msgpack-python's unpacker refuses deeper nesting

// Load an artifact's bytes (Uint8Array or ArrayBuffer); name is what messages call the file.
export async function load(bytes, name = "<bytes>") {
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const fail = (reason) => new FormatError(`${name}: ${reason}`);
  if (data.length > MAX_FILE_BYTES) throw fail(`larger than any artifact this player reads (${MAX_FILE_BYTES} bytes)`);
  const raw = inflate(data, fail);
  const document = unpackMap(raw, fail, "the artifact");
  if (document.format !== FORMAT_NAME) throw fail(`not a ${FORMAT_NAME} artifact (format is ${repr(document.format)})`);
  const version = document.version;
  if (!(Array.isArray(version) && version.length === 2 && version.every(Number.isInteger))) {  // not 1.0, not True
    throw fail(`bad format version ${repr(version)}`);
  }
  if (version[0] !== VERSION[0]) {
    throw fail(`format version ${version[0]}.${version[1]} is not readable by this player (it reads ${VERSION[0]}.x); use a matching guesstree`);
  }
  const body = Object.hasOwn(document, "body") ? document.body : undefined;
  delete document.body;
  if (!(body instanceof Uint8Array)) throw fail("the artifact has no body");
  const digest = document.body_sha256;
  if (typeof digest !== "string" || digest !== await sha256(body)) {
    throw fail("the body's sha256 does not match the header (the file is damaged or was altered)");
  }
  const decoded = unpackMap(body, fail, "the body");
  // The one sha256 the words game needs, of its carried answers as a canonical list.
  const words = document.game?.params?.answer_words;
  const listText = typeof words === "string" ? words.split(" ").map((w) => `${w}\n`).join("") : null;
  const listDigest = listText === null ? null : await sha256(new TextEncoder().encode(listText));
  return new Tree(document, decoded, { name, listDigest: (text) => (text === listText ? listDigest : undefined) });
}

let NODE_CRYPTO = "node:crypto";

async function sha256(bytes) {
  // WebCrypto: global in browsers and Node 19+; Node 18 has it as node:crypto's webcrypto.
  // The module name is a variable so that bundlers for browsers leave the import alone.
  const subtle = globalThis.crypto?.subtle ?? (await import(/* webpackIgnore: true */ NODE_CRYPTO)).webcrypto.subtle;
  const digest = new Uint8Array(await subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// -- the zstd frame (FORMAT.md §1) -------------------------------------------------------------
// Exactly one frame, declaring its content size (at most MAX_BODY_BYTES) and a checksum, with
// nothing after it, inflating to exactly the size it declares, its XXH64 checksum matching.
export function inflate(data, fail = (reason) => new FormatError(reason), limit = MAX_BODY_BYTES) {
  if (!data.length) throw fail("the file is empty");
  const badHeader = () => fail("not a zstd-compressed artifact (bad frame header)");
  if (data.length < 5 || [0x28, 0xb5, 0x2f, 0xfd].some((b, i) => data[i] !== b) || data[4] & 0x08) throw badHeader();
  const descriptor = data[4];
  const sizeFlag = descriptor >> 6, single = (descriptor >> 5) & 1, checksum = (descriptor >> 2) & 1, dictFlag = descriptor & 3;
  let at = 5 + (single ? 0 : 1);
  const dictBytes = [0, 1, 2, 4][dictFlag], sizeBytes = [single, 2, 4, 8][sizeFlag];
  if (data.length < at + dictBytes + sizeBytes) throw badHeader();
  const le = (n) => {  // the little-endian uint of the n bytes at `at`, which are then passed
    let v = 0;
    for (let i = 0; i < n; i++) v += data[at + i] * 2 ** (8 * i);
    at += n;
    return v;
  };
  const dictionary = le(dictBytes);
  if (!sizeBytes) throw fail("the zstd frame does not declare its content size");
  const size = le(sizeBytes) + (sizeFlag === 1 ? 256 : 0);
  if (size > limit) throw fail(`the zstd frame claims ${size} bytes, more than the ${limit} allowed`);
  if (!checksum) throw fail("the zstd frame has no checksum");
  const damaged = (why) => fail(`the zstd data is damaged (${why})`);
  if (dictionary) throw damaged("it needs a dictionary");
  if (!single) {
    const exponent = 10 + (data[5] >> 3), base = 2 ** exponent;
    if (base + (base / 8) * (data[5] & 7) > limit) throw damaged("its window is larger than allowed");
  }
  // Walk the blocks to find where the frame ends: one frame, and nothing after it.
  for (let last = 0; !last;) {
    if (at + 3 > data.length) throw damaged("the frame is truncated");
    const header = le(3), type = (header >> 1) & 3;
    last = header & 1;
    if (type === 3) throw damaged("a reserved block type");
    at += type === 1 ? 1 : header >> 3;
  }
  if (at + 4 > data.length) throw damaged("the frame is truncated");
  if (at + 4 !== data.length) throw damaged(`${data.length - at - 4} bytes follow the frame`);
  let raw;
  try {
    raw = decompress(data.subarray(0, at + 4));
  } catch (error) {
    throw damaged(error.message);
  }
  if (raw.length !== size) throw fail("the zstd frame holds more or less than it declares");
  if (xxh64(raw)[1] !== le(4)) throw damaged("its checksum does not match");  // its low 32 bits
  return raw;
}

// -- msgpack (FORMAT.md §2) ------------------------------------------------------------------
class ArtifactDecoder extends Decoder {  // floats stay floats: Python refuses 1.0 where it wants 1
  readF32() { return new Float(super.readF32()); }
  readF64() { return new Float(super.readF64()); }
}

const DECODER_OPTIONS = {
  mapKeyConverter: nonStringKey,
  extensionCodec: { encode: () => null, decode: () => { throw new Error("an extension type"); } },
};

function nonStringKey(key) {  // Python keeps None, 1, 1.0, b"k" as keys: kept, marked as not strings
  if (typeof key === "string") return key;
  if (Array.isArray(key) || (key !== null && typeof key === "object" && !(key instanceof Uint8Array) && !(key instanceof Float))) {
    throw new Error("unhashable map key");
  }
  return `${NON_STRING}${key instanceof Float ? key.value : key instanceof Uint8Array ? Array.from(key) : String(key)}`;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

// One msgpack map and nothing after it, with at most MAX_STRUCTURE_BYTES outside its bin values
// (as player/artifact.py's _check_structure counts them), decoded.
function unpackMap(raw, fail, what) {
  const invalid = (why) => fail(`${what} is not valid msgpack (${why})`);
  const need = (at, n) => { if (at + n > raw.length) throw invalid("truncated"); };
  const be = (at, n) => { need(at, n); let v = 0; for (let i = 0; i < n; i++) v = v * 256 + raw[at + i]; return v; };
  let depth = 0;
  const item = (at, key) => {  // the position after the item at `at`
    need(at, 1);
    const b = raw[at];
    let count = -1, pairs = false, payload = -1, skip = 0;
    if (b <= 0x7f || b >= 0xe0 || b === 0xc0 || b === 0xc2 || b === 0xc3) return at + 1;
    if (b <= 0x8f) { count = b & 15; pairs = true; skip = 1; }
    else if (b <= 0x9f) { count = b & 15; skip = 1; }
    else if (b <= 0xbf) { payload = b & 31; skip = 1; }
    else if (b >= 0xc4 && b <= 0xc6) { const n = 1 << (b - 0xc4); payload = be(at + 1, n); skip = 1 + n; }
    else if (b >= 0xd9 && b <= 0xdb) { const n = 1 << (b - 0xd9); payload = be(at + 1, n); skip = 1 + n; }
    else if (b === 0xca || b === 0xcb) return need(at, b === 0xca ? 5 : 9), at + (b === 0xca ? 5 : 9);
    else if (b >= 0xcc && b <= 0xd3) { const n = 1 << ((b - 0xcc) & 3); need(at, 1 + n); return at + 1 + n; }
    else if (b === 0xdc || b === 0xdd) { const n = b === 0xdc ? 2 : 4; count = be(at + 1, n); skip = 1 + n; }
    else if (b === 0xde || b === 0xdf) { const n = b === 0xde ? 2 : 4; count = be(at + 1, n); pairs = true; skip = 1 + n; }
    else if (b === 0xc1) throw invalid("the unused type byte 0xc1");
    else throw invalid("an extension type, which an artifact never holds");
    at += skip;
    if (payload >= 0) {
      need(at, payload);
      if (b >= 0xa0 && b <= 0xbf || b >= 0xd9) {
        try { utf8.decode(raw.subarray(at, at + payload)); } catch { throw invalid("a string that is not UTF-8"); }
      }
      return at + payload;
    }
    if (key) throw invalid("unhashable map key");
    if (count > 0) {
      if (++depth > MAX_DEPTH) throw invalid("nested too deep");
      for (let i = 0; i < count * (pairs ? 2 : 1); i++) at = item(at, pairs && i % 2 === 0);
      depth--;
    }
    return at;
  };
  const head = raw.length ? raw[0] : -1;
  let entries, at;
  if (head >= 0x80 && head <= 0x8f) { entries = head & 15; at = 1; }
  else if (head === 0xde || head === 0xdf) { const n = head === 0xde ? 2 : 4; entries = be(1, n); at = 1 + n; }
  else if (head < 0) throw invalid("truncated");
  else throw fail(`${what} is not a msgpack map`);
  depth = 1;
  let binBytes = 0;
  for (let i = 0; i < 2 * entries; i++) {
    const start = at;
    at = item(at, i % 2 === 0);
    if (raw[start] >= 0xc4 && raw[start] <= 0xc6) binBytes += at - start;
    if (at - binBytes > MAX_STRUCTURE_BYTES) throw fail(`${what} holds more than ${MAX_STRUCTURE_BYTES} bytes of msgpack structure`);
  }
  if (at !== raw.length) throw fail(`${what} has ${raw.length - at} bytes after its msgpack map`);
  try {
    return new ArtifactDecoder(DECODER_OPTIONS).decode(raw);
  } catch (error) {
    throw invalid(error.message);
  }
}
