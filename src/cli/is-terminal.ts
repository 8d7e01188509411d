// Whether a file descriptor is a terminal, without paying for node:tty when it surely is not.
// Loading node:tty adds to start-up (it loads net and the streams), and every command asks
// this of stdin, stdout and stderr; in a pipe, a file or `> /dev/null` a stat answers it, and only
// a character device other than /dev/null goes on to ask tty.isatty, loading node:tty only then
// (process.getBuiltinModule: Node's own on-demand load of a built-in, not an import at the top).
import { fstatSync, statSync } from 'node:fs';

export function isTerminal(fd: number): boolean {
  return mayBeTerminal(fd) && process.getBuiltinModule('node:tty').isatty(fd);
}

/** False when fd is surely not a terminal: closed, a pipe, a file, a socket or /dev/null. */
function mayBeTerminal(fd: number): boolean {
  let stat;
  try {
    stat = fstatSync(fd);
  } catch {
    return false; // closed
  }
  if (!stat.isCharacterDevice()) return false;
  try {
    return stat.rdev !== statSync('/dev/null').rdev;
  } catch {
    return true; // no /dev/null to compare with: node:tty decides
  }
}
