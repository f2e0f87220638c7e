// The project's native programs for the end-to-end tests that drive them (askdb-eval,
// mdbook-askdb, askdb-proxy) and the pinned mdBook that scripts/setup.sh installs (setup_mdbook).

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './harness.mjs';

export const run = promisify(execFile);

/**
 * The path of the project's binary `name`, built first (a no-op when scripts/test.sh's native
 * tests have built it already).
 */
export async function nativeBinary(name) {
  await run('cargo', ['build', '--offline', '--quiet', '--bin', name], { cwd: ROOT, maxBuffer: 1 << 24 });
  const target = process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target');
  return path.join(target, 'debug', name);
}

/**
 * The path of askdb-proxy (the workspace's package proxy/), built first (a no-op when
 * scripts/test.sh's "proxy build" step has built it).
 */
export async function proxyBinary() {
  await run('cargo', ['build', '--offline', '--quiet', '-p', 'askdb-proxy'], { cwd: ROOT, maxBuffer: 1 << 24 });
  const target = process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target');
  return path.join(target, 'debug', 'askdb-proxy');
}

/** The mdBook version scripts/setup.sh pins. */
export async function pinnedMdbookVersion() {
  const setup = await readFile(path.join(ROOT, 'scripts', 'setup.sh'), 'utf8');
  return setup.match(/^MDBOOK_VERSION="([^"]+)"/m)[1];
}

/** `mdbook` on the PATH, checked to be the pinned version; the reason to fail when it is not. */
export async function pinnedMdbook() {
  const version = await pinnedMdbookVersion();
  const found = await run('mdbook', ['--version']).then((r) => r.stdout.trim(), () => 'no mdbook on the PATH');
  if (found !== `mdbook v${version}`) {
    throw new Error(
      `these tests need mdBook ${version} (found: ${found}). scripts/test.sh installs it before the ` +
        `end-to-end tests; by hand: bash -c 'source scripts/setup.sh && setup_mdbook'`,
    );
  }
  return 'mdbook';
}
