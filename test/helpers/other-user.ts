// A second, unprivileged local user for tests where ownership matters. Only root can create one;
// elsewhere the tests that need it skip, saying why.
import { execFileSync, spawnSync } from 'node:child_process';

export const IS_ROOT = process.getuid?.() === 0;
export const NOT_ROOT_REASON = 'needs root to create a second user (CI runs as root)';

/** Creates `name` (no home, no login) if missing; returns its uid and a remover. */
export function createOtherUser(name: string): { uid: number; gid: number; remove: () => void } {
  if (spawnSync('id', ['-u', name]).status !== 0) {
    execFileSync('useradd', ['--no-create-home', '--shell', '/usr/sbin/nologin', name], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid, remove: () => void spawnSync('userdel', [name], { stdio: 'ignore' }) };
}
