// The flow memory on disk (a FlowStore: flow-store.ts), so the next run does not pay the 404 again:
// per API base URL, the flow whose start route worked, and for each job started (or found) there,
// the flow it belongs to. The CLI keeps it beside config.json in its config directory (not in it: it
// is a cache, rewritten by the CLI itself, and never a setting a person chose), as `export-flows.json`;
// a library user may hand the same file to the engine (fileFlowStore).
//
// It is only a cache: a missing, unreadable or malformed file is an empty one, and a failure to write
// it never fails a command (a --debug line says why). It is written atomically (a temp file created
// exclusively with mode 0600, then renamed over the old one), and neither read nor written through
// a symlink someone else may have planted there.
import { constants } from 'node:fs';
import { chmod, lstat, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { configDirectory } from '../config/store.js';
import type { Env } from '../config/settings.js';
import { makeDirectory } from '../make-directory.js';
import { applyFacts, type BaseEntry, type ExportFlow, type FlowStore } from './flow-store.js';

export type { ExportFlow } from './flow-store.js';

export const FLOW_CACHE_FILE = 'export-flows.json';

interface CacheData {
  version: 1;
  bases: Record<string, BaseEntry>;
}

/** The flow memory on disk: a FlowStore that knows its file. */
export interface FlowCache extends FlowStore {
  readonly path: string;
}

export function flowCachePath(env: Env): string {
  return join(configDirectory(env), FLOW_CACHE_FILE);
}

/** The CLI's flow memory: `export-flows.json` in its config directory. */
export function openFlowCache(env: Env, debug: (line: string) => void = () => undefined): FlowCache {
  return fileFlowStore(configDirectory(env), debug);
}

/** The flow memory as `export-flows.json` in `directory` (the CLI's config directory to share the CLI's). */
export function fileFlowStore(directory: string, debug: (line: string) => void = () => undefined): FlowCache {
  const path = join(directory, FLOW_CACHE_FILE);
  let loaded: Promise<CacheData> | undefined;
  const data = () => (loaded ??= readCache(path, debug));
  return {
    path,
    startFlow: async (baseUrl) => (await data()).bases[baseUrl]?.flow,
    jobFlow: async (baseUrl, jobId) => {
      const jobs = (await data()).bases[baseUrl]?.jobs;
      return jobs && Object.hasOwn(jobs, jobId) ? jobs[jobId] : undefined;
    },
    async remember(baseUrl, facts) {
      const current = await data();
      const entry = applyFacts(current.bases[baseUrl], facts);
      if (!entry) return;
      const next: CacheData = { version: 1, bases: { ...current.bases, [baseUrl]: entry } };
      loaded = Promise.resolve(next);
      try {
        await writeCache(directory, path, next);
      } catch (error) {
        debug(`could not remember the export flow in ${path}: ${(error as Error).message}`);
      }
    },
  };
}

async function readCache(path: string, debug: (line: string) => void): Promise<CacheData> {
  const empty: CacheData = { version: 1, bases: {} };
  let text: string;
  try {
    // O_NOFOLLOW: a symlink at the cache's path is refused (ELOOP), not read through.
    const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      if (!(await handle.stat()).isFile()) return empty;
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') debug(`ignoring the export flow cache ${path}: ${code ?? (error as Error).message}`);
    return empty;
  }
  try {
    const parsed = JSON.parse(text) as Partial<CacheData> | null;
    if (!parsed || parsed.version !== 1 || typeof parsed.bases !== 'object' || parsed.bases === null) return empty;
    const bases: Record<string, BaseEntry> = {};
    for (const [base, entry] of Object.entries(parsed.bases)) {
      const flow = isFlow(entry?.flow) ? entry.flow : undefined;
      const jobs: Record<string, ExportFlow> = {};
      for (const [id, f] of Object.entries(entry?.jobs ?? {})) if (isFlow(f)) jobs[id] = f;
      bases[base] = flow ? { flow, jobs } : { jobs };
    }
    return { version: 1, bases };
  } catch {
    debug(`ignoring the export flow cache ${path}: not valid JSON`);
    return empty;
  }
}

async function writeCache(directory: string, path: string, data: CacheData): Promise<void> {
  makeDirectory(directory, 0o700);
  const existing = await lstat(path).catch(() => undefined);
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) throw new Error('it is not a regular file');
  const temp = join(directory, `.${FLOW_CACHE_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' = O_CREAT | O_EXCL: never opens an existing file or a symlink someone put at this name.
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await chmod(temp, 0o600);
    // rename replaces whatever is at `path` (a symlink included) without following it.
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

function isFlow(value: unknown): value is ExportFlow {
  return value === 'jobs' || value === 'project';
}
