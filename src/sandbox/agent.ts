import type { AgentJob } from '../api/types.js';
import type { Faults } from './faults.js';
import { HttpError, type Reply } from './http-util.js';
import { deterministicHex } from './prng.js';

const REPOSITORY = 'https://github.com/sandbox/docs';
const RATE_LIMIT = 100;
const RATE_WINDOW_MS = 60 * 60 * 1000;

type Outcome = 'failed' | 'no-changes' | 'archived' | 'pull-request';

interface AgentRecord {
  job: AgentJob;
  outcome: Outcome;
  polls: number;
  /** Kept once a PR exists, so a follow-up message updates the same pull request. */
  prNumber: number | null;
}

/** Markers users put in a prompt to pick how the job ends (documented in the sandbox banner). */
function outcomeOf(prompt: string): Outcome {
  if (prompt.includes('[fail]')) return 'failed';
  if (prompt.includes('[archive]')) return 'archived';
  if (prompt.includes('[no-changes]')) return 'no-changes';
  return 'pull-request';
}

function branchSlug(prompt: string, fallback: string): string {
  const slug = prompt
    .replace(/\[(fail|archive|no-changes)\]/g, ' ')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || fallback;
}

export class AgentService {
  private readonly jobs = new Map<string, AgentRecord>();
  private readonly createsByProject = new Map<string, number[]>();
  private jobCount = 0;
  private prCount = 0;

  constructor(
    private readonly seed: number,
    private readonly faults: Faults,
    private readonly now: () => number,
  ) {}

  create(projectId: string, body: unknown): Reply {
    const prompt = promptOf(body);
    this.enforceRateLimit(projectId);
    this.jobCount += 1;
    const id = deterministicHex(this.seed, `agent-job-${this.jobCount}`, 24);
    const job: AgentJob = {
      id,
      status: 'active',
      source: { repository: REPOSITORY, ref: `mint-agent/${branchSlug(prompt, `job-${this.jobCount}`)}` },
      model: 'sonnet',
      prLink: null,
      createdAt: new Date(this.now()).toISOString(),
      archivedAt: null,
    };
    this.jobs.set(id, { job, outcome: outcomeOf(prompt), polls: 0, prNumber: null });
    return { status: 201, body: job };
  }

  get(id: string): Reply {
    const record = this.find(id);
    if (record.job.status === 'active') {
      record.polls += 1;
      if (record.polls >= this.faults.agentPollsToFinish) this.finish(record);
    }
    return { status: 200, body: record.job };
  }

  message(id: string, body: unknown): Reply {
    const prompt = promptOf(body);
    const record = this.find(id);
    record.outcome = outcomeOf(prompt);
    record.polls = 0;
    Object.assign(record.job, { status: 'active', prLink: null, archivedAt: null });
    return { status: 200, body: record.job };
  }

  private finish(record: AgentRecord): void {
    const job = record.job;
    switch (record.outcome) {
      case 'failed':
        job.status = 'failed';
        break;
      case 'no-changes':
        job.status = 'completed';
        break;
      case 'archived':
        job.status = 'archived';
        job.archivedAt = new Date(this.now()).toISOString();
        break;
      case 'pull-request':
        record.prNumber ??= ++this.prCount;
        job.status = 'completed';
        job.prLink = `${REPOSITORY}/pull/${record.prNumber}`;
        break;
    }
  }

  private find(id: string): AgentRecord {
    const record = this.jobs.get(id);
    if (!record) throw new HttpError(404, `Agent job ${id} not found`);
    return record;
  }

  /** Sliding one-hour window per project, by the injected clock so tests need not wait an hour. */
  private enforceRateLimit(projectId: string): void {
    const now = this.now();
    const recent = (this.createsByProject.get(projectId) ?? []).filter((t) => t > now - RATE_WINDOW_MS);
    this.createsByProject.set(projectId, recent);
    const oldest = recent[0];
    if (recent.length >= RATE_LIMIT && oldest !== undefined) {
      const retryAfter = Math.max(1, Math.ceil((oldest + RATE_WINDOW_MS - now) / 1000));
      throw new HttpError(429, `Rate limit exceeded: ${RATE_LIMIT} agent jobs per project per hour`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    recent.push(now);
  }
}

function promptOf(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object with a "prompt" string');
  }
  const prompt = (body as { prompt?: unknown }).prompt;
  if (typeof prompt !== 'string') throw new HttpError(400, '"prompt" is required and must be a string');
  if (prompt.length < 1) throw new HttpError(400, '"prompt" must be at least 1 character long');
  return prompt;
}
