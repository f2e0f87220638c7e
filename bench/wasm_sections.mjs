// A wasm file's code and data sections, raw and gzipped (-9) each on its own: where a growth
// of the page's wasm is. Reads the section headers only (no tool needed).
//
//   node bench/wasm_sections.mjs dist/askdb_bg.wasm [other.wasm ...]
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const names = {
  0: 'custom', 1: 'type', 2: 'import', 3: 'function', 4: 'table', 5: 'memory', 6: 'global',
  7: 'export', 8: 'start', 9: 'element', 10: 'code', 11: 'data', 12: 'datacount',
};
for (const f of process.argv.slice(2)) {
  const b = readFileSync(f);
  const out = {};
  let i = 8; // after the magic and the version
  while (i < b.length) {
    const id = b[i++];
    let size = 0;
    let shift = 0;
    let byte;
    do {
      byte = b[i++];
      size |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    const n = names[id];
    out[n] = (out[n] ?? 0) + size;
    out[`${n}_gz`] = (out[`${n}_gz`] ?? 0) + gzipSync(b.subarray(i, i + size), { level: 9 }).length;
    i += size;
  }
  console.log(f, 'code', out.code, 'gz', out.code_gz, '| data', out.data, 'gz', out.data_gz, '| total', b.length);
}
