// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
//
// A start from nothing compiles Pyodide, starts its interpreter and imports the calculators: most of
// a start is the interpreter's. So once started, the engine keeps a snapshot of its memory (Pyodide's
// memory snapshot, about 31 MB) in the device's Cache Storage, named after this build's engine files;
// the next start restores it instead, and unpacks the calculators' files only after its first answer
// (see boot). A snapshot that cannot be read or restored is dropped and the start is a full one.
//
// The snapshot is stored as pages (see packMemory): about half of the memory is zeros, left out, and
// what remains is read back with one copy per run of pages. Gzipped it took 6 MB instead of 15, but
// unzipping 31 MB took 0.8 to 3 s on a two-core machine, and a shared link's figures came about
// 0.4 s later than with pages (medians of 15, make bench's "shared link", load 7 to 9).
//
// Its first message, { ready: true, timings }, says how its start went, for the benchmark
// (tests/benchmarks/bench_browser.py) and the tests: milliseconds for Pyodide (its files' download,
// compiling WebAssembly and starting the interpreter, or restoring the snapshot), the project's
// archive (download and unpack) and importing the calculators; `at`: when each step ended, in ms
// from the worker's creation (script: this module and Pyodide's loaded; matched: the snapshot looked
// up; memory: the snapshot read; pyodide, ready); `snapshot`: "restored", "none" (a full start; one
// is then saved) or "unavailable"; and for each file fetched, its time and the bytes that came over
// the network (0: from a cache or the service worker).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const ENGINE_VERSION = "source"; // the build writes its engine files' digest here (kensei_ref/build/engine.py)
const SNAPSHOTS = "kensei-engine-snapshot";
const SNAPSHOT = new URL(`./snapshot-${ENGINE_VERSION}.bin`, import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";

const since = (start) => Math.round((performance.now() - start) * 10) / 10;
const canSnapshot = ENGINE_VERSION !== "source" && "caches" in self;

function downloads() {
  const files = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.split("/").pop();
    files[name] = { ms: Math.round(entry.responseEnd - entry.startTime), bytes: entry.transferSize };
  }
  return files;
}

/** This build's snapshot as stored, if the device has it. */
async function savedSnapshot() {
  if (!canSnapshot) return null;
  try {
    return (await (await caches.open(SNAPSHOTS)).match(SNAPSHOT)) || null;
  } catch {
    return null;
  }
}

// ---- The snapshot as stored: [MAGIC, memory's length, number of runs], then each run of pages that
// are not all zeros as [first page, pages], then those pages' bytes, in order (32-bit words,
// little-endian as WebAssembly's memory; a last partial page is always kept).
const MAGIC = 0x4b525031; // "KRP1"
const PAGE = 4096;

/** The memory as stored: its runs of pages that are not all zeros. */
function packMemory(memory) {
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
function unpackMemory(stored) {
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

/** The snapshot's memory: read while Pyodide fetches and compiles its WebAssembly. */
async function memoryOf(saved, timings) {
  const memory = unpackMemory(await saved.arrayBuffer());
  timings.at.memory = since(0);
  return memory;
}

async function dropSnapshots(keep = null) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const request of await cache.keys()) if (request.url !== keep) await cache.delete(request);
  } catch {
    // nothing saved, or storage refused: nothing to drop
  }
}

/** Saves the engine's memory as this build's snapshot, and drops other builds' snapshots. */
async function saveSnapshot(pyodide) {
  try {
    const memory = packMemory(pyodide.makeMemorySnapshot());
    await dropSnapshots(SNAPSHOT);
    const headers = { "Content-Type": "application/octet-stream" };
    await (await caches.open(SNAPSHOTS)).put(SNAPSHOT, new Response(memory, { headers }));
  } catch {
    // no room on the device, or no snapshot possible: every start stays a full one
  }
}

/**
 * Pyodide started with `options` and the calculators imported. A full start unpacks the calculators'
 * files first. A restored memory has the calculators imported already (the snapshot is taken after
 * the import), and its first answers need no file: the files, not in the snapshot (only the memory
 * is), are unpacked after the first answer, for what is imported later (the advisor, unit profiles),
 * or at once if an answer fails without them (see `unpacked`).
 */
async function boot(options, archive, timings, restoring) {
  let mark = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href, ...options });
  timings.pyodide = since(mark);
  timings.at.pyodide = since(0);
  const unpack = async () => {
    const files = await archive;
    const begun = performance.now();
    pyodide.unpackArchive(files, "zip", { extractDir: ENGINE_DIR });
    pyodide.runPython("import importlib\nimportlib.invalidate_caches()");
    return since(begun);
  };
  mark = performance.now();
  timings.archive = restoring ? 0 : await unpack();
  mark = performance.now();
  const dir = JSON.stringify(ENGINE_DIR);
  pyodide.runPython(`import sys\nif ${dir} not in sys.path: sys.path.insert(0, ${dir})`);
  const answer = pyodide.pyimport("calculators.presentation").answer;
  timings.import = since(mark);
  return { pyodide, answer, files: restoring ? null : Promise.resolve(), unpack };
}

/** Once the calculators' files are unpacked (at once after a full start). */
function unpacked(started) {
  started.files ??= started.unpack().then((ms) => {
    started.timings.archive = ms;
  });
  return started.files;
}

async function start() {
  const timings = { snapshot: canSnapshot ? "none" : "unavailable", at: { script: since(0) } };
  const archive = fetch(new URL("./calculators.zip", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`calculators.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  archive.catch(() => {}); // a restored engine awaits it only after its first answer
  let started = null;
  const saved = await savedSnapshot();
  timings.at.matched = since(0);
  if (saved) {
    try {
      const memory = memoryOf(saved, timings);
      memory.catch(() => {}); // handled where Pyodide awaits it (below): not an unhandled rejection meanwhile
      started = await boot({ _loadSnapshot: memory }, archive, timings, true);
      timings.snapshot = "restored";
    } catch {
      await dropSnapshots(); // damaged, or not this engine's: a full start
    }
  }
  started ??= await boot({ _makeSnapshot: canSnapshot }, archive, timings, false);
  timings.files = downloads();
  return { ...started, timings, fresh: timings.snapshot !== "restored" && canSnapshot };
}

const engine = start();
engine.then(
  ({ timings, pyodide, fresh }) => {
    self.postMessage({ ready: true, timings });
    // after the page's first answers, so as not to delay them
    if (fresh) setTimeout(() => saveSnapshot(pyodide), 1500);
  },
  (error) => self.postMessage({ failed: String(error) }),
);

// Answers go back as the engine's JSON text, parsed by the page (calculator.js): cheaper than
// parsing here and copying the objects across.
self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    const started = await engine;
    const begun = performance.now();
    const question = JSON.stringify(request);
    let text;
    try {
      text = started.answer(question);
    } catch (error) {
      if (started.files) throw error;
      await unpacked(started); // a restored engine asked for a file not yet unpacked
      text = started.answer(question);
    }
    self.postMessage({ id, text, ms: performance.now() - begun });
    if (!started.files) setTimeout(() => unpacked(started), 0); // after the first answer
  } catch (error) {
    self.postMessage({ id, failed: String(error) });
  }
};
