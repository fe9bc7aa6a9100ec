// The calculators' engine: Pyodide and the project's `calculators` package, in a Web Worker so
// that the page never freezes. Requests and answers are JSON; inputs never become Python source.
import { loadPyodide } from "./pyodide/pyodide.mjs";

async function start() {
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href });
  const archive = await fetch(new URL("./calculators.zip", import.meta.url));
  if (!archive.ok) throw new Error(`calculators.zip: HTTP ${archive.status}`);
  pyodide.unpackArchive(await archive.arrayBuffer(), "zip", { extractDir: "/home/pyodide/engine" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/engine')");
  return pyodide.pyimport("calculators.presentation").answer;
}

const engine = start();
engine.then(
  () => self.postMessage({ ready: true }),
  (error) => self.postMessage({ failed: String(error) }),
);

self.onmessage = async (event) => {
  const { id, request } = event.data;
  try {
    const answer = await engine;
    const started = performance.now();
    const response = JSON.parse(answer(JSON.stringify(request)));
    self.postMessage({ id, response, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, failed: String(error) });
  }
};
