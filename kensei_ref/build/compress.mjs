// The engine's files compressed as nginx sends them as they are (kensei_ref/build/engine.py runs this
// with Node.js, whose zlib has brotli): brotli at its best quality (11, with the file's size as a hint)
// and gzip at level 9 (for a browser that takes no brotli). All files at once, on zlib's threads.
// Each output is written beside its final name, then renamed: whole or not at all.
//
// Usage: node compress.mjs <source> <brotli output> <gzip output> [<source> <brotli output> <gzip output> ...]
import fs from "node:fs/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 3 !== 0) {
  console.error("usage: node compress.mjs <source> <brotli output> <gzip output> ...");
  process.exit(2);
}
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function write(path, bytes) {
  const partial = `${path}.${process.pid}.part`;
  await fs.writeFile(partial, bytes);
  await fs.rename(partial, path);
}

async function compress(source, brotliOutput, gzipOutput) {
  const bytes = await fs.readFile(source);
  const params = {
    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
  };
  await Promise.all([
    brotli(bytes, { params }).then((out) => write(brotliOutput, out)),
    gzip(bytes, { level: 9 }).then((out) => write(gzipOutput, out)),
  ]);
}

const jobs = [];
for (let i = 0; i < args.length; i += 3) jobs.push(compress(args[i], args[i + 1], args[i + 2]));
await Promise.all(jobs);
