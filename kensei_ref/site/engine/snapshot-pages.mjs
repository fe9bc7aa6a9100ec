// The engine's memory snapshot as stored: the form calc-worker.js reads and writes in the device's
// Cache Storage, and the build writes (kensei_ref/build/engine_snapshot.mjs, run by Node.js) as the
// snapshot a first visit downloads. One module for both, so that they cannot drift apart.
//
// The form: [MAGIC, memory's length, number of runs], then each run of pages that
// are not all zeros as [first page, pages], then those pages' bytes, in order (32-bit words,
// little-endian as WebAssembly's memory; a last partial page is always kept).
const MAGIC = 0x4b525031; // "KRP1"
const PAGE = 4096;

/** The memory as stored: its runs of pages that are not all zeros. */
export function packMemory(memory) {
  const bytes = memory.byteOffset % 4 === 0 ? memory : memory.slice();
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
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
  const head = new Uint32Array([MAGIC, bytes.length, runs.length, ...runs.flat()]);
  const parts = runs.map(([first, count]) => bytes.subarray(first * PAGE, Math.min((first + count) * PAGE, bytes.length)));
  return new Blob([head, ...parts]);
}

/** The memory a stored snapshot holds; throws when the bytes are not a snapshot of this form. */
export function unpackMemory(stored) {
  const head = new Uint32Array(stored, 0, Math.min(3, Math.floor(stored.byteLength / 4)));
  if (head.length < 3 || head[0] !== MAGIC) throw new Error("not an engine snapshot");
  const [, length, count] = head;
  const runs = new Uint32Array(stored, 12, 2 * count);
  const memory = new Uint8Array(length);
  let at = 12 + 8 * count;
  for (let i = 0; i < count; i++) {
    const start = runs[2 * i] * PAGE;
    const size = Math.min(runs[2 * i + 1] * PAGE, length - start);
    memory.set(new Uint8Array(stored, at, size), start);
    at += size;
  }
  if (at !== stored.byteLength) throw new Error("a truncated engine snapshot");
  return memory;
}
