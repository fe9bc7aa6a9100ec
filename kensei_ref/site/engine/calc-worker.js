// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
//
// Its first message, { ready: true, timings }, says how its start went, for the benchmark
// (tests/benchmarks/bench_browser.py) and the tests: milliseconds for Pyodide (its files' download,
// compiling WebAssembly and starting the interpreter), the project's archive (download and unpack)
// and importing the calculators, and for each file fetched, the time and bytes that came over the
// network (0 bytes: it came from a cache).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const since = (start) => Math.round((performance.now() - start) * 10) / 10;

function downloads() {
  const files = {};
  for (const entry of performance.getEntriesByType("resource")) {
    const name = entry.name.split("/").pop();
    files[name] = { ms: Math.round(entry.responseEnd - entry.startTime), bytes: entry.transferSize };
  }
  return files;
}

async function start() {
  const timings = {};
  let mark = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  timings.pyodide = since(mark);
  mark = performance.now();
  const archive = await fetch(new URL("./calculators.zip", import.meta.url));
  if (!archive.ok) throw new Error(`calculators.zip: HTTP ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/home/pyodide/engine" });
  timings.archive = since(mark);
  mark = performance.now();
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/engine')");
  const answer = pyodide.pyimport("calculators.presentation").answer;
  timings.import = since(mark);
  timings.files = downloads();
  return { answer, timings };
}

const engine = start();
engine.then(
  ({ timings }) => self.postMessage({ ready: true, timings }),
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
