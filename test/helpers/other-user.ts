// A second, unprivileged local user for tests where ownership matters. Only root can create one, and
// only with useradd (in /usr/sbin, which a user's PATH may lack: it is looked for there too); elsewhere
// the tests that need it skip, saying why.
import { execFileSync, spawnSync } from 'node:child_process';
import { findProgram } from './programs.js';

export const IS_ROOT = process.getuid?.() === 0;

const USERADD = findProgram('useradd');
const USERDEL = findProgram('userdel');

/** Why no second user can be made here; undefined when one can. */
const UNAVAILABLE = !IS_ROOT
  ? 'needs root to create a second user (CI runs as root)'
  : USERADD === undefined
    ? 'needs useradd to create a second user, and there is none on PATH, in /usr/sbin or in /sbin'
    : undefined;

/** Whether createOtherUser can work on this machine. */
export const CAN_CREATE_OTHER_USER = UNAVAILABLE === undefined;
/** For a test's name: '' when a second user can be made, else ` (skipped: <why>)`. */
export const OTHER_USER_SKIP_NOTE = UNAVAILABLE === undefined ? '' : ` (skipped: ${UNAVAILABLE})`;

/** Creates `name` (no home, no login) if missing; returns its uid and a remover. */
export function createOtherUser(name: string): { uid: number; gid: number; remove: () => void } {
  if (USERADD === undefined) throw new Error(`cannot create a second user: ${UNAVAILABLE ?? 'no useradd'}`);
  if (spawnSync('id', ['-u', name]).status !== 0) {
    execFileSync(USERADD, ['--no-create-home', '--shell', '/usr/sbin/nologin', name], { stdio: 'ignore' });
  }
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid, remove: () => void (USERDEL && spawnSync(USERDEL, [name], { stdio: 'ignore' })) };
}
