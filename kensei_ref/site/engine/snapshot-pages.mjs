// The engine's memory snapshot as stored: the form calc-worker.js reads and writes in the device's
// Cache Storage, and the build writes (kensei_ref/build/engine_snapshot.mjs, run by Node.js) as the
// snapshot a first visit downloads. One module for both, so that they cannot drift apart.
//
// The form: [MAGIC, memory's length, number of runs, base's length, base's checksum, heap's offset],
// then each run of pages that are not all zeros as [first page, pages], then those pages' bytes, in
// order (32-bit words, little-endian as WebAssembly's memory; a last partial page is always kept).
//
// The base: the memory as Pyodide's WebAssembly starts it, its data segments (CPython's static objects
// and tables, 3.2 MB, of which the interpreter then changes a few bytes here and there), read from
// pyodide.asm.wasm itself (dataSegments). A snapshot made with a base stores that part of the heap as
// its difference from the base (XOR): zeros where nothing changed, pages left out (1.3 MB less once
// compressed). The build's snapshot does; its reader XORs the base back (applyBase), after checking
// that it is the one the build used. (Not the module's memory as a browser starts it: a few words of
// it, pointers to functions the browser gives and Node.js does not, differ.) The memory Pyodide's
// snapshot holds starts `heap's offset` bytes into it (Pyodide's own header). A snapshot saved on the
// device has no base (length 0).
//
// The reader takes the bytes as they come (MemoryReader.push): a snapshot is unpacked while it
// downloads, and Pyodide can be given its memory (the array, filled as the bytes arrive) at once.
const MAGIC = 0x4b525032; // "KRP2"
const HEAD_WORDS = 6;
const PAGE = 4096;

/** FNV-1a over 32-bit words: the base the build saw, and the one a reader's module starts with. */
export function checksum(words) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) hash = Math.imul(hash ^ words[i], 0x01000193) >>> 0;
  return hash;
}

const wordsOf = (bytes, start, length) => new Uint32Array(bytes.buffer, bytes.byteOffset + start, length / 4);

/** The memory as stored: its runs of pages that are not all zeros; with `base` (dataSegments of the
 * engine's WebAssembly), the heap's first `base.length` bytes as their difference from it. */
export function packMemory(memory, base = null) {
  const bytes = memory.slice(); // a copy: word-aligned, and changed below when there is a base
  const heapOffset = new Uint32Array(bytes.buffer, 0, 2)[1]; // Pyodide's header: where its memory starts
  let baseLength = 0;
  let baseSum = 0;
  if (base) {
    baseLength = Math.min(base.length, bytes.length - heapOffset) & ~3;
    if (heapOffset % 4 !== 0) throw new Error(`the heap starts at ${heapOffset}, not at a word`);
    const stored = wordsOf(bytes, heapOffset, baseLength);
    const start = wordsOf(base, 0, baseLength);
    for (let i = 0; i < stored.length; i++) stored[i] ^= start[i];
    baseSum = checksum(start);
  }
  const words = new Uint32Array(bytes.buffer, 0, Math.floor(bytes.length / 4));
  const pages = Math.ceil(bytes.length / PAGE);
  const kept = (page) => {
    if ((page + 1) * PAGE > bytes.length) return true;
    for (let i = (page * PAGE) / 4, end = i + PAGE / 4; i < end; i++) if (words[i] !== 0) return true;
    return false;
  };
  const runs = [];
  for (let page = 0; page < pages; page++) {
    if (!kept(page)) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1] += 1;
    else runs.push([page, 1]);
  }
  const head = new Uint32Array([MAGIC, bytes.length, runs.length, baseLength, baseSum, heapOffset, ...runs.flat()]);
  const parts = runs.map(([first, count]) => bytes.subarray(first * PAGE, Math.min((first + count) * PAGE, bytes.length)));
  return new Blob([head, ...parts]);
}

/**
 * A stored snapshot read as its bytes come: `push` each chunk, then `end`. `memory` (a Uint8Array of the
 * whole memory, zeros until filled) and `base` ({ length, sum, heapOffset }) are set once the head is
 * read, and `onHead` is called then. Throws when the bytes are not a snapshot of this form, or are cut
 * short or too long.
 */
export class MemoryReader {
  constructor(onHead = () => {}) {
    this.onHead = onHead;
    this.memory = null;
    this.base = null;
    this.pending = []; // chunks not yet read, while the head and the list of runs are incomplete
    this.pendingBytes = 0;
    this.runs = null;
    this.run = 0; // the run being filled, and where in the memory the next byte goes
    this.at = 0;
    this.left = 0; // bytes of that run still to come
  }

  push(chunk) {
    if (this.runs === null) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      chunk = this.readHead();
      if (chunk === null) return;
    }
    this.fill(chunk);
  }

  /** The head and the list of runs, once their bytes are here; returns what follows them (or null). */
  readHead() {
    if (this.pendingBytes < 4 * HEAD_WORDS) return null;
    const all = this.pending.length === 1 ? this.pending[0] : concat(this.pending, this.pendingBytes);
    this.pending = [all];
    const word = (i) => (all[4 * i] | (all[4 * i + 1] << 8) | (all[4 * i + 2] << 16) | (all[4 * i + 3] << 24)) >>> 0;
    if (word(0) !== MAGIC) throw new Error("not an engine snapshot");
    const count = word(2);
    const headBytes = 4 * (HEAD_WORDS + 2 * count);
    if (all.length < headBytes) return null;
    const length = word(1);
    this.runs = [];
    for (let i = 0; i < count; i++) {
      const start = word(HEAD_WORDS + 2 * i) * PAGE;
      const size = Math.min(word(HEAD_WORDS + 2 * i + 1) * PAGE, length - start);
      if (!(size > 0 && start + size <= length)) throw new Error("a damaged engine snapshot");
      this.runs.push([start, size]);
    }
    this.memory = new Uint8Array(length);
    this.base = { length: word(3), sum: word(4), heapOffset: word(5) };
    this.pending = null;
    this.startRun(0);
    this.onHead(this.memory);
    return all.subarray(headBytes);
  }

  startRun(index) {
    this.run = index;
    if (index < this.runs.length) [this.at, this.left] = this.runs[index];
  }

  fill(chunk) {
    let from = 0;
    while (from < chunk.length) {
      if (this.run >= this.runs.length) throw new Error("an engine snapshot longer than its pages");
      const size = Math.min(this.left, chunk.length - from);
      this.memory.set(chunk.subarray(from, from + size), this.at);
      from += size;
      this.at += size;
      this.left -= size;
      if (this.left === 0) this.startRun(this.run + 1);
    }
  }

  /** Once every byte was pushed: the memory, still without its base (see applyBase). */
  end() {
    if (this.runs === null || this.run < this.runs.length) throw new Error("a truncated engine snapshot");
    return this.memory;
  }
}

function concat(chunks, length) {
  const all = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** Puts the base back into `memory` (as read by MemoryReader), from `start` (dataSegments of the
 * engine's WebAssembly); throws when that is not the base the snapshot was made with. */
export function applyBase(memory, base, start) {
  if (base.length === 0) return memory;
  if (base.length > start.length || base.heapOffset % 4 !== 0) throw new Error("not this engine's snapshot");
  const words = wordsOf(start, 0, base.length);
  if (checksum(words) !== base.sum) throw new Error("not this engine's snapshot: another base");
  const stored = wordsOf(memory, base.heapOffset, base.length);
  for (let i = 0; i < stored.length; i++) stored[i] ^= words[i];
  return memory;
}

/** The memory as a WebAssembly module's active data segments fill it (up to the last one's end, in
 * whole words): its starting memory, less what its JavaScript writes there. */
export function dataSegments(wasm) {
  const bytes = new Uint8Array(wasm);
  let at = 8; // past the magic word and the version
  const unsigned = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  const signed32 = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? value | (-1 << shift) : value;
  };
  const segments = [];
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = unsigned();
    const end = at + size;
    if (id === 11) {
      for (let count = unsigned(); count > 0; count--) {
        // an active segment of memory 0 at a constant offset: flags 0, i32.const offset, end
        if (unsigned() !== 0 || bytes[at++] !== 0x41) throw new Error("a data segment of another kind");
        const offset = signed32();
        if (bytes[at++] !== 0x0b) throw new Error("a data segment of another kind");
        const length = unsigned();
        segments.push([offset, at, length]);
        at += length;
      }
    }
    at = end;
  }
  const last = Math.max(0, ...segments.map(([offset, , length]) => offset + length));
  const image = new Uint8Array(Math.ceil(last / 4) * 4);
  for (const [offset, from, length] of segments) image.set(bytes.subarray(from, from + length), offset);
  return image;
}

/** The memory a stored snapshot holds, as one piece of bytes (without its base, see applyBase), and its base. */
export function unpackMemory(stored) {
  const reader = new MemoryReader();
  reader.push(new Uint8Array(stored));
  return { memory: reader.end(), base: reader.base };
}
