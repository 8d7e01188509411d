// A file the command will write, checked before any request: a typo in a path, or a runner that
// hands a step a directory, must not cost a rate-limited request or a deployment already POSTed.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/**
 * Passes for a writable file (a FIFO included), or a missing one in a writable directory (it is
 * created on first write); otherwise a UsageError (exit 2) that starts with `shown`.
 */
export async function checkWritableFile(path: string, shown: string, remedy = 'give a file name'): Promise<void> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new UsageError(`${shown}: is a directory; ${remedy}`);
  const target = existing ? path : dirname(resolve(path));
  try {
    await access(target, constants.W_OK);
  } catch {
    throw new UsageError(
      existing
        ? `${shown}: the file is not writable`
        : `${shown}: cannot create a file in ${target} (missing or not writable)`,
    );
  }
}
