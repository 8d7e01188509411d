// The V8 flags the CLI sets (the library sets none: only the CLI's bundles define MINT_ADMIN_CLI or
// run main.ts), in one place because V8 rejects a code cache (code-cache.ts) made under other flags
// than those of the run that reads it. A flag set while a command ran made the cache of every API
// command useless: each run compiled the program again and rewrote its 640 KB cache at exit
// (seen for export download, export status and agent get). So each flag is either set before the
// program compiles, in every run that may need it, or put back to V8's default once its work is
// done, before the cache is made. node:v8 is required on first use (scripts/build.mjs makes the
// bundles' built-ins lazy): it costs ~6 ms, streams included, which `config` runs never pay.
import { setFlagsFromString } from 'node:v8';

/**
 * undici's HTTP parser is WebAssembly. By default V8 re-compiles it with its optimising tier on a
 * background thread, and a process that is done waits at exit for that to finish: ~70-80 ms after a
 * one-request command, longer than the request. The baseline tier (Liftoff) parses the few
 * responses a command reads just as well. V8 reads the flag when the module is compiled.
 */
const WASM_BASELINE_ONLY = '--liftoff-only';
/**
 * Command groups whose runs leave V8's flags alone: those that never load undici, and the MCP server,
 * which lives for a whole session: its exit is not waited for after one request, its later requests
 * gain from the optimised parser, and loading node:v8 to set the flag costs its start ~2-3 ms.
 */
const GROUPS_WITHOUT_FLAGS = new Set(['config', 'completion', 'mcp']);

/**
 * Before the program compiles (main.ts, through index.ts): the flags a run of the command group
 * `group` may need. The only place the WebAssembly tier is set: the API client imports nothing for
 * its side effects, and the library never sets it (main.ts is the CLI's alone).
 */
export function setStartupFlags(group: string | undefined): void {
  if (group !== undefined && GROUPS_WITHOUT_FLAGS.has(group)) return;
  setFlagsFromString(WASM_BASELINE_ONLY);
}

/**
 * V8 doubles the young generation as the bytes that survive its scavenges add up; during a download
 * it stays at its starting size (heap.ts). V8 reads the factor at each growth decision.
 */
export function setYoungGenerationGrowth(factor: 1 | typeof V8_YOUNG_GENERATION_GROWTH): void {
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
}

/** V8's own default for --semi-space-growth-factor (Node 20, 22 and 24): a flag set back to it is no change to the cache. */
export const V8_YOUNG_GENERATION_GROWTH = 2;

/**
 * After each full collection V8 lets the old generation grow to a multiple of what survived before the
 * next one; on a small live heap that multiple is up to 4x (its "heap growing factor"). V8 reads the
 * override at each such decision; 0 is its default (no override).
 */
export function setOldGenerationGrowthPercent(percent: typeof OLD_GENERATION_GROWTH_PERCENT | typeof V8_OLD_GENERATION_GROWTH_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

/** The old generation may grow by half of what survived (verify: heap.ts). */
export const OLD_GENERATION_GROWTH_PERCENT = 50;
/** V8's own default for --heap-growing-percent (Node 20, 22 and 24): no override. */
export const V8_OLD_GENERATION_GROWTH_PERCENT = 0;
