// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
//
// A start from nothing compiles Pyodide, starts its interpreter and imports the calculators: most of
// a start is the interpreter's. So the engine starts from a snapshot of its memory (Pyodide's memory
// snapshot, about 31 MB) taken after the calculators were imported and had answered once, named
// after this build's engine files: the build makes one (Node.js runs the same Pyodide,
// kensei_ref/build/engine_snapshot.mjs), which a first visit downloads on a fast enough link (see
// worthDownloading) and keeps in the device's Cache Storage; on a slow link the first start is a
// full one, which then saves its own. Later starts restore the saved one, and unpack the calculators'
// files only after their first answer (see boot). A snapshot that cannot be read or restored is
// dropped and the start is a full one.
//
// The snapshot is stored as pages (snapshot-pages.mjs): about half of the memory is zeros, left out, and
// what remains is read back with one copy per run of pages. Gzipped it took 6 MB instead of 15, but
// unzipping 31 MB took 0.8 to 3 s on a two-core machine, and a shared link's figures came about
// 0.4 s later than with pages (medians of 15, make bench's "shared link", load 7 to 9).
//
// Its first message, { ready: true, timings }, says how its start went, for the benchmark
// (tests/benchmarks/bench_browser.py) and the tests: milliseconds for Pyodide (its files' download,
// compiling WebAssembly and starting the interpreter, or restoring the snapshot), the project's
// archive (download and unpack) and importing the calculators; `at`: when each step ended, in ms
// from the worker's creation (script: this module and Pyodide's loaded; matched: the snapshot looked
// up; memory: the snapshot read; pyodide, ready); `snapshot`: "restored" (from the device),
// "downloaded" (the build's), "none" (a full start; one is then saved) or "unavailable"; and for each
// file fetched, its time and the bytes that came over
// the network (0: from a cache or the service worker).
import { loadPyodide } from "./pyodide/pyodide.mjs";
import { packMemory, unpackMemory } from "./snapshot-pages.mjs";

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

/**
 * Whether the build's own snapshot (15 MB, about 6 MB as a server compresses it) is worth downloading
 * rather than starting Pyodide from nothing (3 to 5 s of processor on two cores, more on a phone): not
 * when the reader asked the browser to save data, nor on a link it names 3G or slower. Its estimate of
 * the link's speed is not used: without traffic to measure, Chromium reports 1.6 Mbps on any link.
 * Nor for an engine started while a page without calculator is idle (calculator.js names it "idle"):
 * such a page downloads nothing of the engine.
 */
function worthDownloading() {
  if (self.name === "idle") return false;
  const connection = self.navigator && self.navigator.connection;
  return !connection || (!connection.saveData && !/(^|-)(2|3)g$/.test(connection.effectiveType || ""));
}

/**
 * This build's snapshot and where it came from: as stored on the device ("restored"), else the one the
 * build made (kensei_ref/build/engine.py), downloaded and then stored ("downloaded"); null for none.
 */
async function savedSnapshot() {
  if (!canSnapshot) return null;
  try {
    const cache = await caches.open(SNAPSHOTS);
    const stored = await cache.match(SNAPSHOT);
    if (stored) return { response: stored, from: "restored" };
    if (!worthDownloading()) return null;
    const response = await fetch(SNAPSHOT);
    if (!response.ok) return null;
    const copy = response.clone();
    dropSnapshots(SNAPSHOT).then(() => cache.put(SNAPSHOT, copy)).catch(() => {});
    return { response, from: "downloaded" };
  } catch {
    return null;
  }
}

/** The snapshot's memory: read while Pyodide fetches and compiles its WebAssembly. */
async function memoryOf(saved, timings) {
  const bytes = await saved.arrayBuffer();
  self.postMessage({ stage: "start" }); // the saved memory is here: the interpreter starts from it
  const memory = unpackMemory(bytes);
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
  self.postMessage({ stage: "start" }); // the interpreter runs: the calculators are imported next
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
  return { pyodide, answer, files: restoring ? null : Promise.resolve(), unpackedAll: !restoring, unpack };
}

/** Once the calculators' files are unpacked (at once after a full start); `unpackedAll` says they are. */
function unpacked(started) {
  started.files ??= started.unpack().then((ms) => {
    started.timings.archive = ms;
    started.unpackedAll = true;
  });
  return started.files;
}

async function start() {
  // the page tells the player how far the engine is (calculator.js): downloading, then starting
  self.postMessage({ stage: "download" });
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
      const memory = memoryOf(saved.response, timings);
      memory.catch(() => {}); // handled where Pyodide awaits it (below): not an unhandled rejection meanwhile
      started = await boot({ _loadSnapshot: memory }, archive, timings, true);
      timings.snapshot = saved.from;
    } catch {
      await dropSnapshots(); // damaged, or not this engine's: a full start
    }
  }
  started ??= await boot({ _makeSnapshot: canSnapshot }, archive, timings, false);
  timings.files = downloads();
  return { ...started, timings, fresh: timings.snapshot === "none" };
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
      // an answer that failed before every file was in place (its unpacking may have begun, and wait
      // for the archive's download) is asked again once they are; one that failed after, is an error
      if (started.unpackedAll) throw error;
      await unpacked(started); // a restored engine asked for a file not yet unpacked
      text = started.answer(question);
    }
    self.postMessage({ id, text, ms: performance.now() - begun });
    if (!started.files) setTimeout(() => unpacked(started), 0); // after the first answer
  } catch (error) {
    self.postMessage({ id, failed: String(error) });
  }
};
