// How a query's rows are collected, shared by both engines' workers (worker.js: sql.js;
// lazy-worker.js: SQLite read on demand), so that both keep the same limits. A classic script:
// each worker loads it with importScripts, from beside itself.
"use strict";

// The page copies every kept value into its own memory: a result larger than this is refused
// in the worker, so that one huge value (SELECT zeroblob(999999999)) cannot take the page down
// with it.
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

class ResultTooLarge extends Error {}

function approximateSize(row) {
  let size = 0;
  for (const value of row) {
    if (typeof value === "string") size += value.length * 2;
    else if (value instanceof Uint8Array) size += value.byteLength;
    else size += 8;
  }
  return size;
}

// Steps a prepared statement: `step()` is true while a row is ready, `read()` gives its values
// (integers as BigInt). At most `maxRows` rows are kept; past them rows are only counted, while
// `countBudgetMs` (from `started`, a Date.now()) lasts; then the total is "more than".
function collectRows(step, read, maxRows, countBudgetMs, started) {
  const rows = [];
  let total = 0;
  let totalExact = true;
  let size = 0;
  while (true) {
    if (rows.length >= maxRows && Date.now() - started > countBudgetMs) {
      totalExact = false;
      break;
    }
    if (!step()) break;
    total += 1;
    if (rows.length < maxRows) {
      const row = read();
      size += approximateSize(row);
      if (size > MAX_RESULT_BYTES) throw new ResultTooLarge();
      rows.push(row);
    }
  }
  return { rows, truncated: total > rows.length, total, totalExact };
}
