// The extraction worker of an `export download`, started by the CLI's entry (main.ts) before the
// program loads: the program's load and the link's request then overlap the worker's boot, which
// otherwise began only once the command asked for the link (~50-100 ms later on the 2-core bench
// machine, measured from the process's start). The command takes it (commands/export/download.ts);
// one it never takes ends with the process, having cost a thread's boot.
import type { BootedWorker } from './download/booted-worker.js';

/**
 * The global options that take a value (program.ts): the entry reads the arguments before
 * commander is loaded, so it skips them itself to find the command's words.
 */
const GLOBALS_WITH_VALUE = new Set(['-p', '--project', '--base-url', '--profile']);

/** Whether the arguments run `export download` (and not its help). A wrong guess only costs or saves a boot. */
export function asksForADownload(argv: readonly string[]): boolean {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') return false;
    if (GLOBALS_WITH_VALUE.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return words[0] === 'export' && words[1] === 'download' && !argv.some((arg) => arg === '--help' || arg === '-h');
}

/** The worker `script` booting from now on, when the arguments ask for a download. */
export async function startEarlyExtractionWorker(argv: readonly string[], script: URL): Promise<BootedWorker | undefined> {
  if (!asksForADownload(argv)) return undefined;
  // Loaded only now: --help and the other commands never pay for node:worker_threads.
  const { BootedWorker } = await import('./download/booted-worker.js');
  return BootedWorker.boot(script, { withTheProcess: true });
}
