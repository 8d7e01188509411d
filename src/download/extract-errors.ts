// What an extraction failure means, in words: a refused archive, a failure to write named by its
// errno, or a tar stream that is not one.
import { ArchiveRefusedError, MintAdminError } from '../errors.js';

// The archive breaks a rule of the guard: a class of the library's error model (src/errors.ts).
export { ArchiveRefusedError };

/** A failure to write (not to read the archive), named as what it is. */
export function writeError(error: unknown, dir: string): MintAdminError | undefined {
  const e = error as NodeJS.ErrnoException & { entry?: { path?: string } };
  const entry = e.entry?.path === undefined ? '' : ` (at entry ${JSON.stringify(e.entry.path)})`;
  const say = (what: string) => new MintAdminError(`${what}${entry}; nothing was installed`, { cause: error });
  switch (e.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return say(`disk full while extracting the bundle into ${dir}: free some space and run the command again`);
    case 'ENAMETOOLONG':
      return say(`a file name in the bundle is too long for the filesystem of ${dir}`);
    case 'EACCES':
    case 'EPERM':
      return say(`permission denied while extracting the bundle into ${dir}`);
    case 'EROFS':
      return say(`${dir} is on a read-only filesystem`);
    case 'EIO':
      return say(`an I/O error while extracting the bundle into ${dir}`);
    default:
      return undefined;
  }
}

export function invalidArchive(error: unknown): MintAdminError {
  const message = error instanceof Error ? error.message : String(error);
  if (/decompression ratio exceeded/.test(message)) {
    return new ArchiveRefusedError(`it expands more than 1000 times its compressed size (${message}), as only a decompression bomb does`);
  }
  return new MintAdminError(`the downloaded bundle is not a valid tar.gz archive (${message}); run the command again`, { cause: error });
}
