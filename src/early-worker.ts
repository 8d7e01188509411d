// The extraction worker of an `export download`, started by the CLI's entry (main.ts) before the
// program loads: the program's load and the link's request then overlap the worker's boot, which
// otherwise began only once the command asked for the link (~50-100 ms later on the 2-core bench
// machine, measured from the process's start). The command takes it (commands/export/download.ts);
// one it never takes ends with the process, having cost a thread's boot.
import { groupAt } from './command-group.js';
import type { BootedWorker } from './download/booted-worker.js';

/** Whether the arguments run `export download` (and not its help). A wrong guess only costs or saves a boot. */
export function asksForADownload(argv: readonly string[]): boolean {
  const found = groupAt(argv);
  return found?.group === 'export' && argv[found.at + 1] === 'download' && !argv.some((arg) => arg === '--help' || arg === '-h');
}

/** The worker `script` booting from now on, when the arguments ask for a download. */
export async function startEarlyExtractionWorker(argv: readonly string[], script: URL): Promise<BootedWorker | undefined> {
  if (!asksForADownload(argv)) return undefined;
  // Loaded only now: --help and the other commands never pay for node:worker_threads.
  const { BootedWorker } = await import('./download/booted-worker.js');
  return BootedWorker.boot(script, { withTheProcess: true });
}
