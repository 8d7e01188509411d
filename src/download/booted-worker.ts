// The extraction worker's thread, started ahead of its work: by a download as it asks for its link,
// and by the CLI's entry (main.ts) as soon as its arguments ask for `export download`, while the
// program loads. This module is in the entry's bundle too, so it imports nothing but Node's (and
// worker-heap.ts, which imports nothing).
import { Worker } from 'node:worker_threads';
import type { ExtractionWorkerData } from './extract-worker.js';
import { WORKER_YOUNG_GENERATION_MB } from './worker-heap.js';

/**
 * The worker thread of a ThreadedExtraction, started before there is work for it: a Node worker
 * takes ~50 ms to boot and tar ~25 ms to load on an idle core of the 2-core bench machine (longer
 * while the download competes for the cores), and without this the archive's first megabytes
 * waited for both. Started as the command asks for the download link, it boots while that request
 * is out; started by the CLI's entry, also while the program loads (~50-100 ms sooner, measured
 * from the process's start). Until a download takes it, it does not keep the process alive (an unused one ends with
 * the process) and any failure of it is only remembered: the ThreadedExtraction that takes it then
 * stands down at once.
 */
export class BootedWorker {
  private taken = false;
  private exited = false;
  /** Settles once the thread has ended, however it ended. */
  readonly ended: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    /** Its script, for --debug. */
    readonly file: URL,
    /** Started by the CLI's entry, as the process started (early-worker.ts), for --debug. */
    readonly withTheProcess: boolean,
  ) {
    worker.unref();
    worker.on('error', () => undefined);
    this.ended = new Promise((resolve) =>
      worker.once('exit', () => {
        this.exited = true;
        resolve();
      }),
    );
  }

  /**
   * `writeFiles`: the worker writes files on a thread of its own (file-writer.ts), from the same
   * script; `withTheProcess`: the CLI's entry starts it.
   */
  static boot(file: URL, { writeFiles = true, withTheProcess = false } = {}): BootedWorker {
    const workerData: ExtractionWorkerData = writeFiles ? { writerFile: file.href } : {};
    return new BootedWorker(new Worker(file, { workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } }), file, withTheProcess);
  }

  /** The worker for one extraction, which now keeps the process alive until it ends; once only. */
  async take(): Promise<{ worker: Worker; exited: boolean }> {
    if (this.taken) throw new Error('this extraction worker was already used');
    this.taken = true;
    this.worker.ref();
    return { worker: this.worker, exited: this.exited };
  }

  /** Ends a worker no download took; nothing once one did (the extraction ends it). */
  async end(): Promise<void> {
    if (this.taken) return;
    this.taken = true;
    await this.worker.terminate();
  }
}
