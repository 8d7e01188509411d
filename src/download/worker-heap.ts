// The download's worker threads' heap, capped the same for each. No imports: the CLI's entry bundle
// carries it (booted-worker.ts).

/**
 * The young generation of the extraction worker (booted-worker.ts) and of its writer thread
 * (file-writer.ts), capped: V8 doubles it (to 16 MB and beyond) as tar's per-entry objects survive
 * scavenges, which made peak memory grow with the number of entries (measured: 23 MB more RSS for a
 * 500 MB bundle than for a 50 MB one; 20,000 tiny files took it from 4 to 16 MB). The download's
 * thread is kept small the CLI's way (tuning/heap.ts); this is the threads' own limit, for the
 * library too, since it changes no flag of the process. Capped at 2, 4 or 8 MB the 10,000-file
 * download took the same time.
 */
export const WORKER_YOUNG_GENERATION_MB = 4;
