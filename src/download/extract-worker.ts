// The worker thread of a ThreadedExtraction (extract-thread.ts): this thread's LiveExtraction, fed
// the inflated tar stream by message. It is started before it has work (BootedWorker), learns its
// directory and limits from the first message, with the first bytes, and loads tar only if the
// reader of plain entries hands tar the stream (an entry other than a plain file or directory). It answers
// each batch with the bytes it has written (the main thread holds back when too much is unanswered),
// says once when it has stood down (a refusal, a limit, a broken tar stream, a full disk: the main
// thread stops inflating for it), and at the end gives the totals, or nothing, and closes its port so
// that the thread ends.
//
// The same script runs the thread that writes the small files (file-writer.ts), which this thread
// starts once an archive has many of them, when it is told where the script is.
import { parentPort, workerData } from 'node:worker_threads';
import type { ArchiveSummary, ExtractionLimits } from './limits.js';
import { LiveExtraction } from './live-extraction.js';
import { FileWriter, isWriterData, runFileWriter } from './file-writer.js';

export type ToWorker =
  | { kind: 'begin'; dir: string; limits: ExtractionLimits & { now: number } }
  | { kind: 'chunk'; data: Uint8Array; offset: number }
  | { kind: 'end'; total: number };

/** What the extraction worker is started with: its own script, to start the file writer from (none: no writer). */
export interface ExtractionWorkerData {
  writerFile?: string;
}

/**
 * An ack gives the batch's buffer back for the next batch (tar keeps nothing of a batch of whole
 * blocks). A batch that went to the writer thread with the calls that write from it
 * (write-behind.ts) is answered once it comes back from there, written: the bytes unanswered, which
 * the main thread holds within MAX_IN_FLIGHT_BYTES, are then those of both threads.
 */
export type FromWorker =
  | { kind: 'ack'; bytes: number; buffer: ArrayBuffer }
  | { kind: 'failed'; reason: string }
  | { kind: 'done'; summary: ArchiveSummary | undefined; reason?: string; readDirectly: number; writtenBehind: number };

const port = parentPort;
if (port && isWriterData(workerData)) runFileWriter(port, workerData);
else if (port) {
  const { writerFile } = (workerData ?? {}) as ExtractionWorkerData;
  const writer = writerFile ? FileWriter.start(new URL(writerFile)) : undefined;
  const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  /** The sizes of the batches that moved to the writer thread, in the order it gives them back. */
  const movedBytes: number[] = [];
  writer?.whenChunkBack((buffer) => send({ kind: 'ack', bytes: movedBytes.shift() ?? 0, buffer }, [buffer]));
  let live: LiveExtraction | undefined;
  let saidFailed = false;
  port.on('message', (message: ToWorker) => {
    switch (message.kind) {
      case 'begin': {
        const { limits } = message;
        live = LiveExtraction.ofTarStream(message.dir, () => limits, writer);
        return;
      }
      case 'chunk': {
        const { data, offset } = message;
        const bytes = data.byteLength;
        live?.write(Buffer.from(data.buffer, data.byteOffset, bytes), offset);
        // Detached when it moved to the writer thread: answered as it comes back.
        if (data.buffer.byteLength === 0) movedBytes.push(bytes);
        else send({ kind: 'ack', bytes, buffer: data.buffer as ArrayBuffer }, [data.buffer as ArrayBuffer]);
        if (!live?.active && !saidFailed) {
          saidFailed = true;
          send({ kind: 'failed', reason: live?.stoodDown ?? 'the extraction worker was given bytes before its directory' });
        }
        return;
      }
      case 'end':
        void (live?.finish(message.total) ?? Promise.resolve(undefined)).then((summary) => {
          send({ kind: 'done', summary, reason: live?.stoodDown, readDirectly: live?.entriesReadDirectly ?? 0, writtenBehind: live?.filesWrittenBehind ?? 0 });
          port.close();
        });
    }
  });
}
