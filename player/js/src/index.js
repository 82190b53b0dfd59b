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
import { FormatError, NON_STRING, Tree, isMap } from "./core.js";
import { Float, plainValue, repr } from "./games.js";
import { xxh64 } from "./xxh64.js";

export { FormatError, InconsistentHistory, Tree, GAMES, MAX_NODES, makeGame } from "./core.js";
export { hostAnswer } from "./games.js";
export { bookOf } from "./advice.js";
export { review } from "./review.js";

export const version = "0.1.0";  // the package's version: package.json's, and guesstree's (a test holds them equal)
export const FORMAT_NAME = "guesstree";
export const VERSION = [1, 5];  // the whole layout: a reader refuses a major version it does not know, ignores unknown keys
export const CHUNKED = [2, 3];  // the chunked layout (trees/FORMAT.md §10)
export const MAX_BODY_BYTES = 64 << 20;  // inflated size cap, as player/format.py
export const MAX_FILE_BYTES = MAX_BODY_BYTES + (1 << 20);
export const MAX_STRUCTURE_BYTES = 1 << 20;  // msgpack bytes outside bin payloads, per map
const MAX_DEPTH = 1024;  // msgpack-python's unpacker refuses deeper nesting

// Load an artifact's bytes (Uint8Array or ArrayBuffer); name is what messages call the file.
export async function load(bytes, name = "<bytes>") {
  const reading = read(bytes, name);
  let step = reading.next();
  while (!step.done) step = reading.next(await sha256(step.value));
  return step.value;
}

// load, where sha256 (bytes -> its hex digest) answers at once: Node's node:crypto (node.js).
export function loadSync(bytes, name = "<bytes>", sha256Now) {
  const reading = read(bytes, name);
  let step = reading.next();
  while (!step.done) step = reading.next(sha256Now(step.value));
  return step.value;
}

// The reading of an artifact, which yields the bytes whose sha256 it needs and is given back their digest.
function* read(bytes, name) {
  if (!(bytes instanceof Uint8Array || bytes instanceof ArrayBuffer)) {  // a path would read as no bytes at all
    const given = typeof bytes === "string" ? `the string ${JSON.stringify(bytes)}` : repr(bytes);
    throw new TypeError(`load takes a file's bytes (a Uint8Array or ArrayBuffer), not ${given}: ` +
      "in Node, loadFile(path); in a browser, the bytes of fetch(url)");
  }
  const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const error = (reason) => new FormatError(`${name}: ${reason}`), fail = (reason) => { throw error(reason); };
  const end = frameEnd(data);  // the document's frame; a chunked artifact's chunks follow it
  if (end > MAX_FILE_BYTES) fail(`larger than any artifact this player reads (${MAX_FILE_BYTES} bytes)`);
  const raw = inflate(data.subarray(0, end), error);
  const document = unpackMap(raw, error, "the artifact");
  if (document.format !== FORMAT_NAME) fail(`not a ${FORMAT_NAME} artifact (format is ${repr(document.format)})`);
  const version = document.version;
  if (!(Array.isArray(version) && version.length === 2 && version.every(Number.isInteger))) {  // not 1.0, not True
    fail(`bad format version ${repr(version)}`);
  }
  if (version[0] !== VERSION[0] && version[0] !== CHUNKED[0]) {
    fail(`format version ${version[0]}.${version[1]} is not readable by this player (it reads ${VERSION[0]}.x and ${CHUNKED[0]}.x)`);
  }
  if (version[0] === CHUNKED[0]) {  // the tree in chunks after the document, read as lookups need them (FORMAT.md §10)
    const packed = document.index;
    delete document.index;
    if (!(packed instanceof Uint8Array)) fail("the chunked artifact has no index");
    const index = unpackMap(packed, error, "the index");
    return new Tree(document, { index, data, start: end, inflate }, { name, ...yield* digests(document) });
  }
  if (end !== data.length) fail(`the zstd data is damaged (${data.length - end} bytes follow the frame)`);
  const { body } = document;  // a decoded map: an own key or nothing
  delete document.body;
  if (!(body instanceof Uint8Array)) fail("the artifact has no body");
  const digest = document.body_sha256;
  if (typeof digest !== "string" || digest !== (yield body)) {
    fail("the body's sha256 does not match the header (the file is damaged or was altered)");
  }
  const decoded = unpackMap(body, error, "the body");
  return new Tree(document, decoded, { name, ...yield* digests(document) });
}

// The one sha256 the words game needs, of its carried answers as a canonical list.
function* digests(document) {
  const words = document.game?.params?.answer_words;
  const listText = typeof words === "string" ? `${words.replaceAll(" ", "\n")}\n` : null;
  const listDigest = listText === null ? null : yield new TextEncoder().encode(listText);
  return { listDigest: (text) => (text === listText ? listDigest : undefined) };
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
  const refuse = (reason) => { throw fail(reason); };
  if (!data.length) refuse("the file is empty");
  const descriptor = data[4], sizeFlag = descriptor >> 6, single = (descriptor >> 5) & 1;
  let at = 6 - single;
  const le = (n) => {  // the little-endian uint of the n bytes at `at`, which are then passed (NaN past the end)
    let v = 0;
    for (let i = 0; i < n; i++) v += data[at + i] * 2 ** (8 * i);
    at += n;
    return v;
  };
  const dictionary = le([0, 1, 2, 4][descriptor & 3]), sizeBytes = [single, 2, 4, 8][sizeFlag];
  const size = le(sizeBytes) + (sizeFlag === 1 ? 256 : 0);
  if (MAGIC.some((b, i) => data[i] !== b) || descriptor & 8 || at > data.length) refuse("not a zstd-compressed artifact (bad frame header)");
  if (!sizeBytes) refuse("the zstd frame does not declare its content size");
  if (size > limit) refuse(`the zstd frame claims ${size} bytes, more than the ${limit} allowed`);
  if (!(descriptor & 4)) refuse("the zstd frame has no checksum");
  const damaged = (why) => refuse(`the zstd data is damaged (${why})`);
  if (dictionary) damaged("it needs a dictionary");
  const window = 2 ** (10 + (data[5] >> 3));  // fzstd would allocate it for a frame that declares 0 bytes
  const most = 2 ** Math.max(10, Math.ceil(Math.log2(limit)));  // as player/frames.py: a power of two, at least zstd's least
  if (!single && window + (window / 8) * (data[5] & 7) > most) damaged("its window is larger than allowed");
  at = blocksEnd(data, at);  // fzstd reads on into any frame after it
  if (at + 4 > data.length) damaged("the frame is truncated");
  if (at + 4 < data.length) damaged(`${data.length - at - 4} bytes follow the frame`);
  let raw;
  try {
    raw = decompress(data);
  } catch (error) {
    damaged(error.message);
  }
  if (raw.length !== size) refuse("the zstd frame holds more or less than it declares");
  if (BigInt.asUintN(32, xxh64(raw)) !== BigInt(le(4))) damaged("its checksum does not match");  // its low 32 bits, which fzstd does not check
  return raw;
}

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

// Where the blocks of a frame whose first block header is at `at` end (RFC 8878 §3.1.1), walked by their headers.
function blocksEnd(data, at) {
  for (let last = 0; !last && at + 3 <= data.length;) {
    const header = data[at] | (data[at + 1] << 8) | (data[at + 2] << 16);
    last = header & 1;
    at += 3 + ((header & 6) === 2 ? 1 : header >>> 3);  // an RLE block holds one byte; fzstd refuses the reserved type
  }
  return at;
}

// Where the zstd frame that data starts with ends, as player/frames.py's frame_length: its blocks
// walked without inflating them; data.length where it is no whole frame (inflate says why).
export function frameEnd(data) {
  if (data.length < 6 || MAGIC.some((b, i) => data[i] !== b)) return data.length;
  const descriptor = data[4], single = (descriptor >> 5) & 1, sizeFlag = descriptor >> 6;
  const header = 5 + (1 - single) + [0, 1, 2, 4][descriptor & 3] + [single, 2, 4, 8][sizeFlag];
  return Math.min(blocksEnd(data, header) + 4 * ((descriptor >> 2) & 1), data.length);
}

// -- msgpack (FORMAT.md §2) ------------------------------------------------------------------
// @msgpack/msgpack's decoder with what the Python reader adds: floats kept apart from ints,
// strings that are UTF-8, no extension types, msgpack-python's nesting limit, and at most
// MAX_STRUCTURE_BYTES outside the map's own bin values (as player/unpacking.py's _check_structure
// counts them), each refused before the decoder goes on, so that no file makes it build more than
// that much structure. It is done in the decoder's own methods, those of its 3.1 (private in its
// TypeScript, plain methods of the class it ships): hence the version pinned to 3.1.x, and a test
// of each in test/mutations.test.js.
class ArtifactDecoder extends Decoder {
  #fail; #what; #binBytes = 0;

  constructor(fail, what) {
    super({ mapKeyConverter: nonStringKey });
    this.#fail = fail;
    this.#what = what;
  }

  // The one map raw holds, and nothing after it (the library refuses bytes after it).
  decodeMap(raw) {
    const map = this.decode(raw);
    this.#checkStructure(raw.length);
    if (!isMap(map)) throw this.#fail(`${this.#what} is not a msgpack map`);
    return map;
  }

  #checkStructure(end) {
    if (end - this.#binBytes > MAX_STRUCTURE_BYTES) {
      throw this.#fail(`${this.#what} holds more than ${MAX_STRUCTURE_BYTES} bytes of msgpack structure`);
    }
  }

  readHeadByte() {  // before each item
    this.#checkStructure(this.pos);
    const head = super.readHeadByte();
    // msgpack-python holds 1024 levels of arrays and maps, empty ones included; the library pushes non-empty ones only
    if (this.stack.length >= MAX_DEPTH && (head >= 0x80 && head <= 0x9f || head >= 0xdc && head <= 0xdf)) {
      throw new Error("nested too deep");
    }
    return head;
  }

  pushArrayState(size) {  // before the library makes room for the items, each at least a byte of structure
    this.#checkStructure(this.pos + size);
    super.pushArrayState(size);
  }

  decodeBinary(length, headOffset) {  // a bin value or key of the map itself is not structure
    if (this.stack.length === 1) this.#binBytes += 1 + headOffset + length;
    return super.decodeBinary(length, headOffset);
  }

  decodeUtf8String(length, headerOffset) {  // counted before it is read; strict UTF-8, where the library's is lenient
    this.#checkStructure(this.pos + headerOffset + length);
    super.decodeUtf8String(length, headerOffset);
    return UTF8.decode(this.bytes.subarray(this.pos - length, this.pos));
  }

  decodeExtension() { throw new Error("an extension type, which an artifact never holds"); }
  readF32() { return new Float(super.readF32()); }  // floats stay floats: Python refuses 1.0 where it wants 1
  readF64() { return new Float(super.readF64()); }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });  // a BOM is kept, as Python keeps it

function nonStringKey(key) {  // Python keeps None, 1, 1.0, b"k" as keys: kept, marked as not strings
  if (typeof key === "string") return key;
  if (Array.isArray(key) || isMap(key)) throw new Error("unhashable map key");
  return `${NON_STRING}${plainValue(key)}`;
}

function unpackMap(raw, fail, what) {
  try {
    return new ArtifactDecoder(fail, what).decodeMap(raw);
  } catch (error) {
    throw error instanceof FormatError ? error : fail(`${what} is not valid msgpack (${error.message})`);
  }
}
