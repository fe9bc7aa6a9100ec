// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
//
// A start from nothing compiles Pyodide, starts its interpreter and imports the calculators: most of
// a start is the interpreter's. So the engine starts from a snapshot of its memory (Pyodide's memory
// snapshot, about 31 MB) taken after the calculators were imported and had answered once, named
// after this build's engine files: the build makes one (Node.js runs the same Pyodide,
// kensei_ref/build/engine_snapshot.mjs), which a first visit downloads on a fast enough link (see
// worthDownloading) and keeps in the device's Cache Storage; on a slow link the first start is a
// full one, which then saves its own. Later starts restore the saved one. A restored engine answers
// before it has the calculators' files and the standard library: they come after its first answer
// (see restore and boot). A snapshot that cannot be read or restored is dropped and the start is a
// full one.
//
// What a first visit downloads before its first answer is what it waits for on a phone's link: the
// snapshot (10 MB stored as pages, snapshot-pages.mjs: zeros left out, CPython's static data as its
// changes; 2.8 MB as nginx sends it, brotli) and Pyodide's WebAssembly (2.7 MB), both fetched as soon
// as this script runs, side by side, Pyodide's scripts with them; the snapshot is unpacked as it
// arrives while the WebAssembly compiles. A slow phone (4x CPU, 9 Mbps, 150 ms) has a shared link's
// figures in about 7 s (make bench), where the 15 MB snapshot, the WebAssembly and the standard
// library gzipped on the way took 14 s.
//
// Its first message, { ready: true, timings }, says how its start went, for the benchmark
// (tests/benchmarks/bench_browser.py) and the tests: milliseconds for Pyodide (its files' download,
// compiling WebAssembly and starting the interpreter, or restoring the snapshot), the project's
// archive (download and unpack) and importing the calculators; `at`: when each step ended, in ms
// from the worker's creation (script: this module loaded; matched: the snapshot looked up; memory:
// the snapshot read; pyodide, ready); `snapshot`: "restored" (from the device), "downloaded" (the
// build's), "none" (a full start; one is then saved) or "unavailable"; `dropped`: why a snapshot was
// not restored; and for each file fetched, when it started and ended (ms from the worker's creation)
// and the bytes that came over the network (0: from a cache or the service worker).
const ENGINE_VERSION = "source"; // the build writes its engine files' digest here (kensei_ref/build/engine.py)
const SNAPSHOTS = "kensei-engine-snapshot";
const SNAPSHOT = new URL(`./snapshot-${ENGINE_VERSION}.bin`, import.meta.url).href;
const PYODIDE = new URL("./pyodide/", import.meta.url).href;
const WASM = new URL("./pyodide/pyodide.asm.wasm", import.meta.url).href;
const STDLIB = new URL("./pyodide/python_stdlib.zip", import.meta.url).href;
const STDLIB_LATER = new URL("./stdlib-later.zip", import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";

const since = (start) => Math.round((performance.now() - start) * 10) / 10;
const canSnapshot = ENGINE_VERSION !== "source" && "caches" in self;

// Started as soon as this script runs, before Pyodide's scripts are here (no static import waits for
// them): the snapshot (savedSnapshot, at the end of this file), Pyodide's WebAssembly (handed to
// Pyodide when it asks for it, see below) and Pyodide's scripts.
// Pyodide tells a classic worker from a module worker by calling importScripts on a data: address. In
// this module worker importScripts can only throw, but under the site's Trusted Types the call is
// first a reported violation (a console error on every start); without it, Pyodide reads "module".
globalThis.importScripts = undefined;
const wasmEarly = fetch(WASM);
wasmEarly.catch(() => {}); // Pyodide awaits it, or fetches it again
const pyodideScript = import("./pyodide/pyodide.mjs");
const pyodideModule = import("./pyodide/pyodide.asm.mjs");
const pagesScript = import("./snapshot-pages.mjs");
for (const script of [pyodideScript, pyodideModule, pagesScript]) script.catch(() => {}); // start() says

let wasmCopy = null; // set by restore(): a copy of the WebAssembly's bytes is wanted
const networkFetch = self.fetch;
self.fetch = function (input, init) {
  if (String(input instanceof Request ? input.url : input) !== WASM) return networkFetch.call(this, input, init);
  self.fetch = networkFetch; // once: a later start fetches it again
  return wasmEarly.then((response) => {
    if (wasmCopy) wasmCopy(response.clone().arrayBuffer());
    return response;
  });
};

function downloads() {
  const files = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.split("/").pop();
    files[name] = {
      ms: Math.round(entry.responseEnd - entry.startTime),
      start: Math.round(entry.startTime),
      end: Math.round(entry.responseEnd),
      bytes: entry.transferSize,
    };
  }
  return files;
}

async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.split("/").pop()}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Whether the build's own snapshot (10 MB, about 2.8 MB as the server sends it, brotli) is worth
 * downloading rather than starting Pyodide from nothing (3 to 5 s of processor on two cores, more on
 * a phone): not when the reader asked the browser to save data, nor on a link it names 3G or slower.
 * Its estimate of the link's speed is not used: without traffic to measure, Chromium reports 1.6 Mbps
 * on any link. Nor for an engine started while a page without calculator is idle (calculator.js names
 * it "idle"): such a page downloads nothing of the engine.
 */
function worthDownloading() {
  if (self.name === "idle") return false;
  const connection = self.navigator && self.navigator.connection;
  return !connection || (!connection.saveData && !/(^|-)(2|3)g$/.test(connection.effectiveType || ""));
}

/**
 * This build's snapshot and where it came from: as stored on the device ("restored"), else the one the
 * build made (kensei_ref/build/engine.py), downloaded and then stored ("downloaded"); null for none.
 * The download is not awaited: Pyodide's own files start downloading beside it at once.
 */
async function savedSnapshot() {
  if (!canSnapshot) return null;
  try {
    const cache = await caches.open(SNAPSHOTS);
    const stored = await cache.match(SNAPSHOT);
    if (stored) return { response: Promise.resolve(stored), from: "restored" };
    if (!worthDownloading()) return null;
    const response = fetch(SNAPSHOT).then((answer) => {
      if (!answer.ok) throw new Error(`snapshot: HTTP ${answer.status}`);
      const copy = answer.clone();
      dropSnapshots(SNAPSHOT).then(() => cache.put(SNAPSHOT, copy)).catch(() => {});
      return answer;
    });
    response.catch(() => {}); // read (and its failure handled) by restore, maybe after it has failed
    return { response, from: "downloaded" };
  } catch {
    return null;
  }
}

/** The snapshot's bytes into `reader` as they come (unpacked while they download). */
async function readSnapshot(saved, reader, timings) {
  const response = await saved.response;
  const stream = response.body.getReader();
  for (;;) {
    const { done, value } = await stream.read();
    if (done) break;
    reader.push(value);
  }
  reader.end();
  timings.at.memory = since(0);
  self.postMessage({ stage: "start" }); // the saved memory is here: the interpreter starts from it
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
    const memory = (await pagesScript).packMemory(pyodide.makeMemorySnapshot());
    await dropSnapshots(SNAPSHOT);
    const headers = { "Content-Type": "application/octet-stream" };
    await (await caches.open(SNAPSHOTS)).put(SNAPSHOT, new Response(memory, { headers }));
  } catch {
    // no room on the device, or no snapshot possible: every start stays a full one
  }
}

/**
 * Pyodide restored from a snapshot. It is given the memory's array as soon as the snapshot's head is
 * read, so that it compiles its WebAssembly while the rest arrives; a step before its interpreter runs
 * (a preRun of Emscripten's module, given through `createPyodideModule`) waits for the last byte and
 * puts the base back (snapshot-pages.mjs), from the data segments of the WebAssembly Pyodide fetched
 * (a copy of its response, taken on the way). A snapshot that fails to arrive or is not this engine's
 * rejects (the module waiting for it is left).
 *
 * Nor does a restored engine wait for the standard library (2.5 MB): the interpreter in the snapshot
 * has imported every module the calculators' first answers need, and its zip is replaced meanwhile by
 * an empty one (stdlib-later.zip) at the same place, until the whole library is put there after the
 * first answer (see `unpacked`).
 */
function restore(saved, pages, timings) {
  let failed;
  const failure = new Promise((resolve, reject) => { failed = reject; });
  let headRead;
  const memory = new Promise((resolve) => { headRead = resolve; });
  const reader = new pages.MemoryReader(headRead);
  const read = readSnapshot(saved, reader, timings);
  read.catch(failed);
  const wasm = new Promise((resolve) => { wasmCopy = resolve; });
  const createPyodideModule = async (settings) => {
    settings.preRun.push((Module) => {
      Module.addRunDependency("kensei-snapshot");
      Promise.all([read, wasm]).then(([, bytes]) => {
        pages.applyBase(reader.memory, reader.base, pages.dataSegments(bytes));
        Module.removeRunDependency("kensei-snapshot");
      }).catch(failed);
    });
    return (await pyodideModule).default(settings);
  };
  const options = { _loadSnapshot: memory, createPyodideModule, stdLibURL: STDLIB_LATER };
  return Promise.race([failure, boot(options, timings, true)]);
}

/**
 * Pyodide started with `options` and the calculators imported. A full start unpacks the calculators'
 * files first. A restored memory has the calculators imported already (the snapshot is taken after
 * the import), and its first answers need no file: the files, not in the snapshot (only the memory
 * is), and the standard library are put in place after the first answer, for what is imported later
 * (the advisor, unit profiles), or at once if an answer fails without them (see `unpacked`).
 */
async function boot(options, timings, restoring) {
  const archive = restoring ? null : download(new URL("./calculators.zip", import.meta.url));
  archive?.catch(() => {}); // awaited below, once the interpreter runs
  let mark = performance.now();
  const { loadPyodide } = await pyodideScript;
  const pyodide = await loadPyodide({ indexURL: PYODIDE, ...options });
  self.postMessage({ stage: "start" }); // the interpreter runs: the calculators are imported next
  timings.pyodide = since(mark);
  timings.at.pyodide = since(0);
  const unpack = async () => {
    const [files, stdlib] = await Promise.all([
      archive || download(new URL("./calculators.zip", import.meta.url)),
      restoring ? download(STDLIB) : null,
    ]);
    const begun = performance.now();
    if (stdlib) {
      // where Pyodide put the empty one: the interpreter's zip importer finds each module where the
      // build's interpreter found it
      const zip = pyodide.runPython("import sys\nf'/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip'");
      pyodide.FS.writeFile(zip, stdlib);
    }
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
  timings.at.ready = since(0);
  return { pyodide, answer, files: restoring ? null : Promise.resolve(), unpackedAll: !restoring, unpack };
}

/** Once the calculators' files (and the standard library) are in place (at once after a full start);
 * `unpackedAll` says they are. */
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
  let started = null;
  const saved = await snapshotEarly;
  timings.at.matched = since(0);
  if (saved) {
    try {
      started = await restore(saved, await pagesScript, timings);
      timings.snapshot = saved.from;
    } catch (error) {
      timings.dropped = String(error); // said in the timings, for the tests and the benchmark
      await dropSnapshots(); // damaged, or not this engine's: a full start
    }
  }
  started ??= await boot({ _makeSnapshot: canSnapshot }, timings, false);
  timings.files = downloads();
  return { ...started, timings, fresh: timings.snapshot === "none" };
}

const snapshotEarly = savedSnapshot();
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
