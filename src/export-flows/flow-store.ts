// The flow memory the export-flow engine is handed: per API base URL, the flow whose start route
// worked there, and the flow each job belongs to. The CLI hands it the file beside its config
// (flow-cache.ts, `export-flows.json`); the library defaults to memoryFlowStore(), which lasts as
// long as the process, and can be handed the file instead.

export type ExportFlow = 'jobs' | 'project';

/** What a store is asked to remember after a call: the start flow for the base URL and/or one job's flow. */
export interface FlowFacts {
  startFlow?: ExportFlow;
  jobId?: string;
  jobFlow?: ExportFlow;
}

export interface FlowStore {
  /** The flow whose start route last worked with this base URL. */
  startFlow(baseUrl: string): Promise<ExportFlow | undefined>;
  /** The flow a job was started on (or found on) with this base URL. */
  jobFlow(baseUrl: string, jobId: string): Promise<ExportFlow | undefined>;
  /** Remembers what worked. A store that cannot keep it must not throw: it is only a memory. */
  remember(baseUrl: string, facts: FlowFacts): Promise<void>;
}

/** Jobs remembered per base URL; the oldest go first. A job id is only a hint after a few days anyway. */
export const MAX_REMEMBERED_JOBS = 200;

export interface BaseEntry {
  /** The flow whose start route last worked here. */
  flow?: ExportFlow;
  /** jobId -> flow, oldest first. */
  jobs: Record<string, ExportFlow>;
}

/** `entry` with `facts` applied, or undefined when they change nothing (so a file store skips the write). */
export function applyFacts(entry: BaseEntry | undefined, facts: FlowFacts): BaseEntry | undefined {
  const next: BaseEntry = { ...entry, jobs: { ...entry?.jobs } };
  let changed = false;
  if (facts.startFlow && next.flow !== facts.startFlow) {
    next.flow = facts.startFlow;
    changed = true;
  }
  if (facts.jobId && facts.jobFlow && next.jobs[facts.jobId] !== facts.jobFlow) {
    delete next.jobs[facts.jobId];
    next.jobs[facts.jobId] = facts.jobFlow;
    const ids = Object.keys(next.jobs);
    for (const old of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED_JOBS))) delete next.jobs[old];
    changed = true;
  }
  return changed ? next : undefined;
}

/** A flow memory in this process only: what the library uses unless handed another. */
export function memoryFlowStore(): FlowStore {
  const bases = new Map<string, BaseEntry>();
  return {
    startFlow: async (baseUrl) => bases.get(baseUrl)?.flow,
    jobFlow: async (baseUrl, jobId) => {
      const jobs = bases.get(baseUrl)?.jobs;
      return jobs && Object.hasOwn(jobs, jobId) ? jobs[jobId] : undefined;
    },
    remember: async (baseUrl, facts) => {
      const next = applyFacts(bases.get(baseUrl), facts);
      if (next) bases.set(baseUrl, next);
    },
  };
}
