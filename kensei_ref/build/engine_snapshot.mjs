// The engine's memory snapshot, made at build time so that a reader's first start restores it instead
// of starting Pyodide from nothing (kensei_ref/build/engine.py runs this with Node.js).
//
// It starts the very Pyodide the site ships, unpacks the calculators where the browser's worker does
// (calc-worker.js: ENGINE_DIR, first on sys.path), imports them and has them answer once (which reads
// the rule values), then writes the memory in the worker's stored form (snapshot-pages.mjs). Only the
// memory is kept: the worker unpacks the calculators' files again after its first answer.
//
// Two things make it smaller to send, neither changes what the interpreter holds:
// - the memory the allocator has free (freed objects, about 2 MB) is zeroed first: allocated in blocks
//   that fit in what is free (never past the heap's top), zeroed, freed again;
// - it is stored with its base, the data segments of Pyodide's WebAssembly (snapshot-pages.mjs), so
//   that CPython's static data is sent as its few changes.
//
// Usage: node engine_snapshot.mjs <engine folder of the built site> <output file>
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [engine, output] = process.argv.slice(2);
if (!engine || !output) {
  console.error("usage: node engine_snapshot.mjs <engine folder> <output file>");
  process.exit(2);
}
const ENGINE_DIR = "/home/pyodide/engine"; // as calc-worker.js
const load = async (name) => import(pathToFileURL(path.join(engine, name)).href);
const { loadPyodide } = await load("pyodide/pyodide.mjs");
const { packMemory, unpackMemory, applyBase, dataSegments } = await load("snapshot-pages.mjs");

const base = dataSegments(fs.readFileSync(path.join(engine, "pyodide", "pyodide.asm.wasm")));
const pyodide = await loadPyodide({ indexURL: path.join(engine, "pyodide") + path.sep, _makeSnapshot: true });
const archive = new Uint8Array(fs.readFileSync(path.join(engine, "calculators.zip")));
pyodide.unpackArchive(archive, "zip", { extractDir: ENGINE_DIR });
pyodide.runPython(`import sys\nif ${JSON.stringify(ENGINE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
const answer = pyodide.pyimport("calculators.presentation").answer;
const reply = JSON.parse(answer(JSON.stringify({ calculator: "regroup", inputs: { honor: 5 } })));
if (!reply.view) throw new Error(`the engine did not answer: ${JSON.stringify(reply).slice(0, 300)}`);
answer.destroy();
pyodide.runPython("import gc\ngc.collect()");

/** Zero what the allocator has free below the heap's top, then give it back. */
function zeroFreeMemory(Module) {
  const top = Module._sbrk(0);
  const held = [];
  for (let size = 1 << 22; size >= 16; size >>= 1) {
    for (;;) {
      const at = Module._malloc(size);
      if (!at) break;
      if (at + size > top) {
        Module._free(at);
        break;
      }
      Module.HEAPU8.fill(0, at, at + size);
      held.push(at);
    }
  }
  for (const at of held) Module._free(at);
  Module.HEAPU8.fill(0, Module._sbrk(0)); // past the heap's top: nothing lives there
}
zeroFreeMemory(pyodide._module);

const memory = pyodide.makeMemorySnapshot();
const stored = new Uint8Array(await packMemory(memory, base).arrayBuffer());
const back = unpackMemory(stored.buffer);
applyBase(back.memory, back.base, base);
if (back.memory.length !== memory.length || !back.memory.every((byte, i) => byte === memory[i])) {
  throw new Error("the stored form does not read back");
}
fs.writeFileSync(output, stored);
