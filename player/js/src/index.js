// guesstree-player: read a guesstree artifact (trees/FORMAT.md) and play its tree.
//
//   import { load } from "guesstree-player";
//   const tree = await load(bytes);          // Uint8Array of a *.msgpack.zst file
//   tree.nextGuess([["SALET", "-Y--G"]]);    // the tree's next guess, as an array of ints
//
// load refuses a bad file where player/artifact.py and player/tree.py do, with a FormatError
// whose message names the file and the reason. It is async only because WebCrypto's sha256 is.
// Its one dependency is fzstd (zstd); the msgpack is read below, where its checks are.
import { decompress } from "fzstd";
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
// The artifact's msgpack is read here, in one pass that builds the values and checks what
// player/artifact.py checks: one map and nothing after it, at most MAX_STRUCTURE_BYTES outside
// its bin values (counted over the map's own keys and values, as _check_structure counts them),
// strings in UTF-8, no extension type, no list or map as a key, at most MAX_DEPTH levels.
// Floats stay Float (Python refuses 1.0 where it wants 1), bin is a Uint8Array view, 64-bit ints
// are numbers (exact up to 2^53), and a key __proto__ is refused: as @msgpack/msgpack read them.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function unpackMap(raw, fail, what) {
  const invalid = (why) => fail(`${what} is not valid msgpack (${why})`);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.length);
  let at = 0, depth = 0, binBytes = 0;
  const take = (n) => {  // the position of the next n bytes, which are then passed
    if (at + n > raw.length) throw invalid("truncated");
    return (at += n) - n;
  };
  const int = (n, signed) => {  // big-endian
    const p = take(n);
    if (n === 8) return (signed ? view.getInt32(p) : view.getUint32(p)) * 2 ** 32 + view.getUint32(p + 4);
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + raw[p + i];
    return signed && v >= 2 ** (8 * n - 1) ? v - 2 ** (8 * n) : v;
  };
  const string = (n) => {
    const p = take(n);
    try { return utf8.decode(raw.subarray(p, at)); } catch { throw invalid("a string that is not UTF-8"); }
  };
  // The items of an array (pairs false) or a map; top: the artifact's own map, whose items count
  // towards MAX_STRUCTURE_BYTES (bin values aside).
  const items = (count, pairs, top = false) => {
    if (count && ++depth > MAX_DEPTH) throw invalid("nested too deep");
    const out = pairs ? {} : [];
    let key;
    for (let i = 0; i < (pairs ? 2 * count : count); i++) {
      const start = at, isKey = pairs && i % 2 === 0, value = item(isKey);
      if (top) {
        if (raw[start] >= 0xc4 && raw[start] <= 0xc6) binBytes += at - start;
        if (at - binBytes > MAX_STRUCTURE_BYTES) throw fail(`${what} holds more than ${MAX_STRUCTURE_BYTES} bytes of msgpack structure`);
      }
      if (!pairs) out.push(value);
      else if (isKey) key = mapKey(value, invalid);
      else out[key] = value;
    }
    if (count) depth--;
    return out;
  };
  const item = (isKey) => {
    const b = raw[take(1)];
    const container = (count, pairs) => {
      if (isKey) throw invalid("unhashable map key");
      return items(count, pairs);
    };
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 256;
    if (b <= 0x8f) return container(b & 15, true);
    if (b <= 0x9f) return container(b & 15, false);
    if (b <= 0xbf) return string(b & 31);
    if (b >= 0xc4 && b <= 0xc6) return raw.subarray(take(int(1 << (b - 0xc4))), at);
    if (b >= 0xcc && b <= 0xd3) return int(1 << (b & 3), b >= 0xd0);
    if (b >= 0xd9 && b <= 0xdb) return string(int(1 << (b - 0xd9)));
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xca: return new Float(view.getFloat32(take(4)));
      case 0xcb: return new Float(view.getFloat64(take(8)));
      case 0xdc: case 0xdd: return container(int(b === 0xdc ? 2 : 4), false);
      case 0xde: case 0xdf: return container(int(b === 0xde ? 2 : 4), true);
      case 0xc1: throw invalid("the unused type byte 0xc1");
      default: throw invalid("an extension type, which an artifact never holds");
    }
  };
  const head = raw.length ? raw[0] : -1;
  if (head < 0) throw invalid("truncated");
  if (!(head >= 0x80 && head <= 0x8f) && head !== 0xde && head !== 0xdf) throw fail(`${what} is not a msgpack map`);
  at = 1;
  const map = items(head <= 0x8f ? head & 15 : int(head === 0xde ? 2 : 4), true, true);
  if (at !== raw.length) throw fail(`${what} has ${raw.length - at} bytes after its msgpack map`);
  return map;
}

// A map key: a string as it is; None, 1, 1.0, b"k", which Python keeps as keys, kept apart from
// strings (core.js: NON_STRING).
function mapKey(key, invalid) {
  if (key === "__proto__") throw invalid("The key __proto__ is not allowed");
  if (typeof key === "string") return key;
  return `${NON_STRING}${key instanceof Float ? key.value : key instanceof Uint8Array ? Array.from(key) : String(key)}`;
}
