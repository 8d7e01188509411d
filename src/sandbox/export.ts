import type { Bundle, ExportJob } from '../api/types.js';
import type { Faults } from './faults.js';
import { HttpError, type Reply } from './http-util.js';
import type { LinkSigner } from './presign.js';
import { deterministicHex } from './prng.js';

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const FORBIDDEN = 'Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.';

interface ExportRecord {
  job: ExportJob;
  domain: string;
  polls: number;
}

export interface ExportDeps {
  seed: number;
  faults: Faults;
  now: () => number;
  signer: LinkSigner;
  storageOrigin: () => string;
  linkTtlMs: number;
  /** Pages in the generated site: what a completed job reports as pageCount. */
  pageCount: number;
  archiveSize: () => Promise<number>;
}

export class ExportService {
  private readonly jobs = new Map<string, ExportRecord>();
  private jobCount = 0;

  constructor(private readonly deps: ExportDeps) {}

  start(body: unknown): Reply {
    if (this.deps.faults.exportForbidden) throw new HttpError(403, FORBIDDEN);
    const domain = validateStart(body);
    if (domain.toLowerCase().startsWith('noplan.')) throw new HttpError(403, FORBIDDEN);
    this.jobCount += 1;
    const at = new Date(this.deps.now()).toISOString();
    const job: ExportJob = {
      jobId: `se_${deterministicHex(this.deps.seed, `export-job-${this.jobCount}`, 16)}`,
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: at,
      updatedAt: at,
    };
    this.jobs.set(job.jobId, { job, domain, polls: 0 });
    return { status: 202, body: job };
  }

  /** Each poll moves the job along, so clients see queued -> running (rising progress) -> done. */
  get(jobId: string): Reply {
    const record = this.find(jobId);
    const { job } = record;
    if (job.status === 'queued' || job.status === 'running') {
      record.polls += 1;
      const total = Math.max(1, this.deps.faults.exportPollsToFinish);
      job.updatedAt = new Date(this.deps.now()).toISOString();
      if (record.polls < total) {
        job.status = 'running';
        job.progress = Math.floor((100 * record.polls) / total);
        job.pageCount = Math.floor((this.deps.pageCount * record.polls) / total);
      } else if (record.domain.toLowerCase().startsWith('fail.')) {
        job.status = 'failed';
        job.error = `Rendering ${record.domain} failed: the deployment could not be reached`;
      } else {
        Object.assign(job, { status: 'completed', progress: 100, pageCount: this.deps.pageCount });
      }
    }
    return { status: 200, body: job };
  }

  async bundle(jobId: string): Promise<Reply> {
    const { job } = this.find(jobId);
    if (job.status === 'failed') throw new HttpError(409, `Job ${jobId} failed; there is no bundle to generate`);
    if (job.status !== 'completed') {
      throw new HttpError(409, `Job ${jobId} is ${job.status}; wait until its status is completed`);
    }
    const { now, linkTtlMs, faults, signer } = this.deps;
    // An already-expired link is one issued a lifetime (and a second, for whole-second dates) ago.
    const issuedAt = faults.takeExpiredLink() ? now() - linkTtlMs - 1000 : now();
    const link = signer.sign(this.deps.storageOrigin(), jobId, issuedAt, linkTtlMs);
    const bundle: Bundle = {
      jobId,
      bundleUrl: link.url,
      sizeBytes: await this.deps.archiveSize(),
      expiresAt: new Date(link.expiresAt).toISOString(),
    };
    return { status: 200, body: bundle };
  }

  /** For the storage origin: only bundles of completed jobs exist. */
  hasBundle(jobId: string): boolean {
    return this.jobs.get(jobId)?.job.status === 'completed';
  }

  private find(jobId: string): ExportRecord {
    const record = this.jobs.get(jobId);
    if (!record) throw new HttpError(404, `No static export job with ID ${jobId}`);
    return record;
  }
}

function validateStart(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object with a "domain" string');
  }
  const { domain, version, paths } = body as Record<string, unknown>;
  if (typeof domain !== 'string' || domain === '') throw new HttpError(400, '"domain" is required and must be a string');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain)) {
    throw new HttpError(400, `"domain" must be a hostname only, without a protocol: ${domain}`);
  }
  if (domain.includes('/')) throw new HttpError(400, `"domain" must be a hostname only, without a path or trailing slash: ${domain}`);
  if (domain.includes(':')) throw new HttpError(400, `"domain" must be a hostname only, without a port: ${domain}`);
  if (!HOSTNAME.test(domain)) throw new HttpError(400, `"domain" is not a valid hostname: ${domain}`);
  if (version !== undefined && typeof version !== 'string') throw new HttpError(400, '"version" must be a string');
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))) {
    throw new HttpError(400, '"paths" must be an array of page path strings');
  }
  return domain;
}
