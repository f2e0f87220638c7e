// A reporter for node's test runner (scripts/test.sh gives it beside the spec reporter): how long
// each end-to-end test file took, slowest first, so that the files worth making quicker are seen.
//
// Node reports each file it runs in a process of its own as a test at nesting 0 named by the
// file's path, whose duration is the file's whole time (process start included); those are
// the figures printed. Written by hand: it is a dozen lines over node's documented events.

import path from 'node:path';

export default async function* fileTimes(source) {
  const files = [];
  for await (const event of source) {
    const { type, data } = event;
    if (type === 'test:complete' && data.nesting === 0 && data.name === data.file) {
      files.push({ file: data.file, ms: data.details.duration_ms, passed: data.details.passed });
    }
  }
  files.sort((a, b) => b.ms - a.ms);
  const total = files.reduce((sum, f) => sum + f.ms, 0);
  yield `e2e files by time (${files.length} files, ${(total / 1000).toFixed(0)} s added up):\n`;
  for (const { file, ms, passed } of files) {
    const seconds = (ms / 1000).toFixed(1).padStart(6);
    yield `  ${seconds} s  ${path.basename(file)}${passed === false ? '  (failed)' : ''}\n`;
  }
}
