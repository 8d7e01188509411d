// The programs some tests drive (shells, servers, groff, useradd...), found the way a fresh machine
// has them: on PATH, or in the system directories a user's PATH may leave out (`useradd` and `nginx`
// live in /usr/sbin, which an ordinary user's PATH often lacks). A program that is absent skips its
// tests with the reason in their names; one that CI installs (.ci/run) fails there instead, so CI
// never skips what it is meant to prove.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** The absolute path of an executable `name` on PATH or in the system directories; undefined when none. */
export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter((d) => d.startsWith('/')), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface Program {
  /** Where it is; undefined when the machine lacks it. */
  path: string | undefined;
  /** For a test's name: '' when present, else ` (skipped: ... )` saying why. */
  skipNote: string;
}

/**
 * A program the tests need. `installedByCi`: .ci/run installs it, so under CI (CI=true) a missing one
 * throws rather than skips.
 */
export function externalProgram(name: string, opts: { installedByCi: boolean }): Program {
  const path = findProgram(name);
  if (path === undefined && opts.installedByCi && process.env.CI === 'true')
    throw new Error(`${name} is not installed; .ci/run should have installed it`);
  return {
    path,
    skipNote:
      path === undefined ? ` (skipped: ${name} is not installed${opts.installedByCi ? '; CI installs it' : ''})` : '',
  };
}
