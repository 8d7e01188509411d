// Whether tests can mount a small tmpfs (a real full disk, a real mount point). It takes root, and a
// root without the capability to mount (an unprivileged container) is refused too: tried once here, so
// those tests skip, saying why, instead of failing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IS_ROOT } from './other-user.js';

function whyNot(): string | undefined {
  if (!IS_ROOT) return 'mounting a tmpfs needs root, which CI has';
  const dir = mkdtempSync(join(tmpdir(), 'mint-admin-mount-probe-'));
  try {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { encoding: 'utf8' });
    if (r.status !== 0)
      return `this machine refuses to mount a tmpfs (${(r.error?.message ?? r.stderr).trim().split('\n')[0] ?? ''})`;
    spawnSync('umount', [dir]);
    return undefined;
  } finally {
    rmdirSync(dir);
  }
}

const WHY_NOT = whyNot();
export const CAN_MOUNT_TMPFS = WHY_NOT === undefined;
/** For a test's name: '' when a tmpfs can be mounted, else ` (skipped: <why>)`. */
export const TMPFS_SKIP_NOTE = WHY_NOT === undefined ? '' : ` (skipped: ${WHY_NOT})`;
