// Keeps V8's young generation at its starting size while a CLI process downloads or verifies a site,
// and its old generation close to what is alive while one verifies a site (keepOldGenerationTight, below).
// Verify allocates like a download (each page's chunks and parse, dead within the page): left to
// grow, its young generation went from 8 to 32 MB between 1,000 and 10,000 pages, most of the peak
// RSS growth; kept at its start, its peak RSS at 100,000 pages went from 131 to 103 MB.
//
// Why: a bundle download allocates fast and without end (each network chunk, tar's per-entry
// objects, the inflated data), and V8 doubles the young generation each time the bytes that survived
// its scavenges since the last doubling add up to its size, which on a long enough run is always:
// from 2 MB (two 1 MB semi-spaces) to 32 MB. That, with the dead Buffers the rarer scavenges leave
// waiting, was the peak RSS growth between a 50 MB and a 500 MB bundle (8 -> 32 MB young generation,
// ~30 MB of RSS); the chunks themselves never queue (live-extraction.ts, LiveExtraction.write). With the
// young generation kept small, scavenges are more frequent but cheap (little is alive at any time).
// Only in the CLI (the build defines MINT_ADMIN_CLI for its bundle): the library must not change V8
// flags of the program that imports it. V8 reads this flag at each growth decision, so setting it at
// run time takes effect from then on; it goes back to V8's default when the download is over.
// A leftover: the download and site engines still import it until they stop doing so; then it goes,
// with the flags below (no V8 flag is set at run time otherwise).
import { setFlagsFromString } from 'node:v8';

const V8_YOUNG_GENERATION_GROWTH = 2;
const OLD_GENERATION_GROWTH_PERCENT = 50;
const V8_OLD_GENERATION_GROWTH_PERCENT = 0;
const setYoungGenerationGrowth = (factor: number) => setFlagsFromString(`--semi-space-growth-factor=${factor}`);
const setOldGenerationGrowthPercent = (percent: number) => setFlagsFromString(`--heap-growing-percent=${percent}`);

declare const MINT_ADMIN_CLI: boolean | undefined;

/**
 * How often the factor is set again while it is wanted: V8 raises it back to its default (2) each
 * time a thread starts (a new isolate's heap set-up clamps it), and threads start during a download
 * (the extraction worker ends its boot as the download begins, its writer at the 100th file). Seen:
 * the download's young generation grew to 8 MB on a 20 MB bundle once the worker booted with the
 * process (test/e2e/download-memory.test.ts). Setting it costs ~9 us.
 */
const SET_AGAIN_EVERY_MS = 20;

/** Keeps the young generation small from now on; returns what puts V8's default back. */
export function keepYoungGenerationSmall(): () => void {
  if (typeof MINT_ADMIN_CLI === 'undefined' || !MINT_ADMIN_CLI) return () => undefined;
  setYoungGenerationGrowth(1);
  const again = setInterval(() => setYoungGenerationGrowth(1), SET_AGAIN_EVERY_MS);
  again.unref();
  return () => {
    clearInterval(again);
    setYoungGenerationGrowth(V8_YOUNG_GENERATION_GROWTH);
  };
}

/**
 * Keeps the old generation close to what is alive while a CLI process verifies a site. Why: verify's
 * live heap is small (~26 MB at 100,000 pages: the file list, the anchors) but each page's parse
 * leaves objects that outlive a scavenge or two and die in the old generation; V8, seeing a small heap
 * collected quickly, let it grow to ~4x its live size before collecting it (108 MB of heap, 83 MB of it
 * garbage, at 100,000 pages): that, not what verify keeps, was the peak RSS growth with pages. At 1.5x
 * the full collections are more frequent and as cheap (little survives). Only in the CLI, like the
 * young generation above; V8's default comes back when verify is done.
 */
export function keepOldGenerationTight(): () => void {
  if (typeof MINT_ADMIN_CLI === 'undefined' || !MINT_ADMIN_CLI) return () => undefined;
  setOldGenerationGrowthPercent(OLD_GENERATION_GROWTH_PERCENT);
  return () => setOldGenerationGrowthPercent(V8_OLD_GENERATION_GROWTH_PERCENT);
}
