// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
//
// A start from nothing compiles Pyodide, starts its interpreter and imports the calculators: most of
// a start is the interpreter's. So once started, the engine keeps a snapshot of its memory (Pyodide's
// memory snapshot, gzipped, about 7 MB) in the device's Cache Storage, named after this build's
// engine files; the next start restores it instead, and only unpacks the calculators' files again.
// A snapshot that cannot be read or restored is dropped and the start is a full one.
//
// Its first message, { ready: true, timings }, says how its start went, for the benchmark
// (tests/benchmarks/bench_browser.py) and the tests: milliseconds for Pyodide (its files' download,
// compiling WebAssembly and starting the interpreter, or restoring the snapshot), the project's
// archive (download and unpack) and importing the calculators; `snapshot`: "restored", "none" (a
// full start; one is then saved) or "unavailable"; and for each file fetched, its time and the bytes
// that came over the network (0: from a cache or the service worker).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const ENGINE_VERSION = "source"; // the build writes its engine files' digest here (kensei_ref/build/engine.py)
const SNAPSHOTS = "kensei-engine-snapshot";
const SNAPSHOT = new URL(`./snapshot-${ENGINE_VERSION}.bin`, import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";

const since = (start) => Math.round((performance.now() - start) * 10) / 10;
const canSnapshot = ENGINE_VERSION !== "source" && "caches" in self && "CompressionStream" in self;

function downloads() {
  const files = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.split("/").pop();
    files[name] = { ms: Math.round(entry.responseEnd - entry.startTime), bytes: entry.transferSize };
  }
  return files;
}

/** This build's snapshot as stored (gzipped), if the device has it. */
async function savedSnapshot() {
  if (!canSnapshot) return null;
  try {
    return (await (await caches.open(SNAPSHOTS)).match(SNAPSHOT)) || null;
  } catch {
    return null;
  }
}

/** The snapshot's memory: unzipped while Pyodide fetches and compiles its WebAssembly. */
async function memoryOf(saved) {
  return new Uint8Array(await new Response(saved.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
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
    const memory = new Blob([pyodide.makeMemorySnapshot()]).stream().pipeThrough(new CompressionStream("gzip"));
    await dropSnapshots(SNAPSHOT);
    const headers = { "Content-Type": "application/octet-stream" };
    await (await caches.open(SNAPSHOTS)).put(SNAPSHOT, new Response(memory, { headers }));
  } catch {
    // no room on the device, or no snapshot possible: every start stays a full one
  }
}

/** Pyodide started with `options`, the calculators' files unpacked and imported. */
async function boot(options, archive, timings) {
  let mark = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href, ...options });
  timings.pyodide = since(mark);
  mark = performance.now();
  // the files are not in the snapshot (only the memory is): unpacked again either way
  pyodide.unpackArchive(await archive, "zip", { extractDir: ENGINE_DIR });
  timings.archive = since(mark);
  mark = performance.now();
  const dir = JSON.stringify(ENGINE_DIR);
  pyodide.runPython(`import sys\nif ${dir} not in sys.path: sys.path.insert(0, ${dir})`);
  const answer = pyodide.pyimport("calculators.presentation").answer;
  timings.import = since(mark);
  return { pyodide, answer };
}

async function start() {
  const timings = { snapshot: canSnapshot ? "none" : "unavailable" };
  const archive = fetch(new URL("./calculators.zip", import.meta.url)).then((response) => {
    if (!response.ok) throw new Error(`calculators.zip: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  let started = null;
  const saved = await savedSnapshot();
  if (saved) {
    try {
      started = await boot({ _loadSnapshot: memoryOf(saved) }, archive, timings);
      timings.snapshot = "restored";
    } catch {
      await dropSnapshots(); // damaged, or not this engine's: a full start
    }
  }
  started ??= await boot({ _makeSnapshot: canSnapshot }, archive, timings);
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

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    const { answer } = await engine;
    const started = performance.now();
    const response = JSON.parse(answer(JSON.stringify(request)));
    self.postMessage({ id, response, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, failed: String(error) });
  }
};
