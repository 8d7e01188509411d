// The files of an extracted site: the directory checked, every file under it listed (a symbolic link
// counts only when it stays inside), and which of them have references to check.
import { opendir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { FileIndex } from './file-index.js';

/** The directory, resolved; a UsageError when it is missing or not a directory. */
export async function checkSiteDirectory(directory: string): Promise<string> {
  const info = await stat(directory).catch(() => undefined);
  if (!info) throw new UsageError(`${directory} does not exist; give the directory an export was extracted into`);
  if (!info.isDirectory())
    throw new UsageError(`${directory} is not a directory; give the directory an export was extracted into`);
  return realpath(directory);
}

/** The pages and stylesheets (the files whose references are checked), by number, in path order. */
export function checkableFiles(files: FileIndex): Int32Array {
  const found = new Int32Array(files.count);
  let count = 0;
  for (let file = 0; file < files.count; file++) {
    if (files.endsWith(file, '.html') || files.endsWith(file, '.htm') || files.endsWith(file, '.css'))
      found[count++] = file;
  }
  return found.slice(0, count).sort((a, b) => files.compare(a, b));
}

/**
 * Every regular file under root, relative with `/` separators. A symbolic link counts only when it
 * leads to a file inside the root: a host may follow it, but nothing outside the site is part of it.
 */
export async function listFiles(root: string): Promise<FileIndex> {
  const files = new FileIndex();
  // One directory at a time: a recursive readdir hands back every entry of the site at once (every
  // Dirent and its parent path), which became the run's peak.
  const directories = [''];
  for (let dir = directories.pop(); dir !== undefined; dir = directories.pop()) {
    for await (const entry of await opendir(join(root, dir))) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) directories.push(path);
      else if (entry.isFile() || (entry.isSymbolicLink() && (await isFileInside(join(root, path), root))))
        files.add(path);
    }
  }
  files.trim();
  return files;
}

async function isFileInside(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => undefined);
  if (!real || !real.startsWith(root + sep)) return false;
  return (await stat(real)).isFile();
}

export function isPage(files: FileIndex, file: number): boolean {
  return files.endsWith(file, '.html') || files.endsWith(file, '.htm');
}
