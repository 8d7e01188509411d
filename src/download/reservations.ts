// Stand-in for tar's path reservations. tar 7.5.23's PathReservations records every entry it
// schedules and never deletes the record when the entry finishes, so each ReadEntry (header, dates,
// closures) stays reachable until the extraction ends: ~4 KB a file, ~120 MB of heap for a
// 30,000-file bundle. Extraction memory must not grow with the bundle, so Unpack gets this instead.
//
// The rule is tar's: an entry waits for every earlier unfinished entry that touches the same path or
// a directory above it (or below it), so writes to one place happen in archive order, while entries
// in unrelated places run side by side. Finished entries are forgotten at once; in practice only a
// handful are unfinished at any time, so the linear scans below stay short.
import { posix } from 'node:path';

type Job = { keys: string[]; run: (done: () => void) => void; started: boolean };

export class EntryReservations {
  private readonly unfinished: Job[] = [];

  /** How many entries are waiting or running (0 once an extraction is over). */
  get size(): number {
    return this.unfinished.length;
  }

  /** tar calls this for each entry with its path (and link target); `fn` runs when it may. */
  reserve(paths: string[], fn: (done: () => void) => void): boolean {
    const job: Job = { keys: paths.map(keyOf), run: fn, started: false };
    this.unfinished.push(job);
    this.startReady();
    return job.started;
  }

  private startReady(): void {
    for (let i = 0; i < this.unfinished.length; i++) {
      const job = this.unfinished[i];
      if (!job || job.started) continue;
      if (this.unfinished.slice(0, i).some((earlier) => overlaps(earlier.keys, job.keys))) continue;
      job.started = true;
      let finished = false;
      job.run(() => {
        if (finished) return;
        finished = true;
        this.unfinished.splice(this.unfinished.indexOf(job), 1);
        this.startReady();
      });
    }
  }
}

/** Case-folded too, so two names one filesystem would treat as the same never run at once. */
function keyOf(path: string): string {
  const normal = posix.normalize(path.replaceAll('\\', '/')).normalize('NFC').toLowerCase();
  return normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
}

function overlaps(a: string[], b: string[]): boolean {
  return a.some((x) => b.some((y) => x === y || y.startsWith(`${x}/`) || x.startsWith(`${y}/`)));
}
