// What bench/bench.mjs and bench/open_paths.mjs both time: the three queries, in the page's
// console and in Python's sqlite3 on the same file.

import { execFileSync } from 'node:child_process';
import { visibleText } from '../tests/e2e/harness.mjs';

export const MINUTES = 60_000;

export const QUERIES = {
  'full-scan aggregate': 'SELECT count(*), sum(quantity * unit_price_cents) FROM order_items',
  'indexed join':
    'SELECT count(*), sum(oi.quantity) FROM orders o JOIN order_items oi ON oi.order_id = o.id ' +
    'WHERE o.customer_id BETWEEN 1000 AND 1200',
  'GROUP BY + ORDER BY':
    'SELECT p.category, count(*) AS n, sum(oi.quantity * oi.unit_price_cents) AS revenue ' +
    'FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category ORDER BY revenue DESC',
};

/** Each query's rows (as the page shows them: text) and median time in Python's sqlite3. */
export function pythonTimings(file, runs) {
  const script = `
import json, sqlite3, statistics, sys, time
queries = json.loads(sys.argv[2]); runs = int(sys.argv[3])
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
out = {}
for name, sql in queries.items():
    times = []
    for _ in range(runs):
        t0 = time.perf_counter(); rows = db.execute(sql).fetchall(); times.append((time.perf_counter() - t0) * 1000)
    out[name] = {"ms": statistics.median(times), "all": times, "rows": [["NULL" if v is None else str(v) for v in row] for row in rows]}
print(json.dumps(out))`;
  return JSON.parse(execFileSync('python3', ['-c', script, file, JSON.stringify(QUERIES), String(runs)]).toString());
}

/** One query in Python's sqlite3 on `file`: its time in ms (connecting is not timed). */
export function pythonOnce(file, sql) {
  const script = `
import sqlite3, sys, time
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
t0 = time.perf_counter(); db.execute(sys.argv[2]).fetchall(); print((time.perf_counter() - t0) * 1000)`;
  return Number(execFileSync('python3', ['-c', script, file, sql]).toString());
}

/**
 * Runs `sql` in the console and waits (polling every animation frame) until the result table
 * shows `rows`: the time from the click to the table, and the page's own account of the query
 * (window.askdbLastQuery(): its total, SQLite's time in the worker, decoding), when it gives one.
 */
export async function timedQuery(page, sql, rows) {
  await page.getByTestId('sql-input').fill(sql);
  const expected = JSON.stringify(rows);
  // Timed inside the page: from the click's event to the first moment the table shows the
  // rows (a MutationObserver), so that the driver's own delays are not counted.
  const shown = page.evaluate((expected) => {
    const tableRows = () => {
      const table = document.querySelector('[data-testid="result"] table');
      if (!table) return null;
      return JSON.stringify(
        Array.from(table.querySelectorAll('tbody tr'), (row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent.trim())),
      );
    };
    return new Promise((resolve) => {
      let clicked = null;
      const button = document.querySelector('[data-testid="sql-run"]');
      button.addEventListener('click', () => (clicked = performance.now()), { capture: true, once: true });
      const observer = new MutationObserver(() => {
        if (clicked !== null && tableRows() === expected) {
          observer.disconnect();
          resolve(performance.now() - clicked);
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }, expected);
  await page.getByTestId('sql-run').click();
  // The give-up timer is cleared once the table shows: left running, it kept node alive for
  // ten minutes after the last table was printed.
  let giveUp;
  const wall = await Promise.race([
    shown,
    new Promise((_, reject) => {
      giveUp = setTimeout(() => reject(new Error(`no result for ${sql}`)), 10 * MINUTES);
    }),
  ]).finally(() => clearTimeout(giveUp));
  // The engine in memory times its own steps; the one on demand does not (the page's figure).
  const onDemand = (await visibleText(page, 'db-reading')) !== null;
  const own = onDemand ? null : await page.evaluate(() => (window.askdbLastQuery ? window.askdbLastQuery() : null));
  return { wall, own };
}

/** The page's own figure for the last query, in ms ("123 ms", "1.2 s", "1,234 ms"). */
export async function pageElapsedMs(page) {
  const text = (await visibleText(page, 'result-elapsed')) ?? '';
  const match = text.replaceAll(',', '').match(/([\d.]+)\s*(ms|s)\b/);
  if (!match) return NaN;
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1);
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
