// What the CLI learned about the static export flows, so the next run does not pay the 404 again:
// per API base URL, the flow whose start route worked, and for each job started (or found) there,
// the flow it belongs to. It lives beside config.json in the config directory (not in it: it is a
// cache, rewritten by the CLI itself, and never a setting a person chose), as `export-flows.json`.
//
// It is only a cache: a missing, unreadable or malformed file is an empty one, and a failure to write
// it never fails a command (a --debug line says why). It is written atomically (a temp file created
// exclusively with mode 0600, then renamed over the old one), and neither read nor written through
// a symlink someone else may have planted there.
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { configDirectory, type Env } from '../../config.js';

export type ExportFlow = 'jobs' | 'project';

export const FLOW_CACHE_FILE = 'export-flows.json';
/** Jobs remembered per base URL; the oldest go first. A job id is only a hint after a few days anyway. */
const MAX_JOBS = 200;

interface BaseEntry {
  /** The flow whose start route last worked here. */
  flow?: ExportFlow;
  /** jobId -> flow, oldest first. */
  jobs: Record<string, ExportFlow>;
}

interface CacheData {
  version: 1;
  bases: Record<string, BaseEntry>;
}

export interface FlowCache {
  readonly path: string;
  startFlow(baseUrl: string): Promise<ExportFlow | undefined>;
  jobFlow(baseUrl: string, jobId: string): Promise<ExportFlow | undefined>;
  /** Remembers what worked: the start flow for the base URL and/or the flow of one job. */
  remember(baseUrl: string, facts: { startFlow?: ExportFlow; jobId?: string; jobFlow?: ExportFlow }): Promise<void>;
}

export function flowCachePath(env: Env): string {
  return join(configDirectory(env), FLOW_CACHE_FILE);
}

export function openFlowCache(env: Env, debug: (line: string) => void = () => undefined): FlowCache {
  const directory = configDirectory(env);
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
      const entry: BaseEntry = { ...current.bases[baseUrl], jobs: { ...current.bases[baseUrl]?.jobs } };
      let changed = false;
      if (facts.startFlow && entry.flow !== facts.startFlow) {
        entry.flow = facts.startFlow;
        changed = true;
      }
      if (facts.jobId && facts.jobFlow && entry.jobs[facts.jobId] !== facts.jobFlow) {
        delete entry.jobs[facts.jobId];
        entry.jobs[facts.jobId] = facts.jobFlow;
        const ids = Object.keys(entry.jobs);
        for (const old of ids.slice(0, Math.max(0, ids.length - MAX_JOBS))) delete entry.jobs[old];
        changed = true;
      }
      if (!changed) return;
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
  await mkdir(directory, { recursive: true, mode: 0o700 });
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
