// The memory of the browser a benchmark started: the resident set of every process descended
// from this one (Chromium, its renderers, GPU process and workers), read from /proc (Linux).

import { readFileSync, readdirSync } from 'node:fs';

/** Every process descended from this one: the browser and its renderers, GPU and workers. */
function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  const found = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Resident memory of the browser's processes, in MB. */
export function browserRssMb() {
  let kb = 0;
  for (const pid of descendants(process.pid)) {
    try {
      const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
      if (match) kb += Number(match[1]);
    } catch {
      // Gone.
    }
  }
  return kb / 1024;
}
