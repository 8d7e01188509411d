import type { Bundle, ExportJob, ProjectExportJob } from '../api/types.js';
import type { Faults, SandboxExportFlow } from './faults.js';
import { HttpError, type Reply } from './http-util.js';
import type { LinkSigner } from './presign.js';
import { deterministicHex } from './prng.js';

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const FORBIDDEN =
  'Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.';
const PROJECT_FORBIDDEN = 'Static export is not enabled for this deployment. Contact sales@mintlify.com to upgrade.';
const BASE_PATHS = ['', '/docs', '/documentation'];
const HOUR_MS = 3_600_000;

interface Link {
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
}

interface ExportRecord {
  flow: SandboxExportFlow;
  /** The jobs flow's job as the API shows it; the project flow's view is made from it (projectView). */
  job: ExportJob;
  domain: string;
  polls: number;
  /** Faults.epoch when started: only jobs of the current epoch count for the 409 and 429 rules. */
  epoch: number;
  /** Ends `failed` (the fail. domain, or the failNextExports knob). */
  fails: boolean;
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
    this.flowServed('jobs');
    if (this.deps.faults.exportForbidden) throw new HttpError(403, FORBIDDEN);
    const domain = validateStart(body);
    if (domain.toLowerCase().startsWith('noplan.')) throw new HttpError(403, FORBIDDEN);
    const record = this.create('jobs', domain);
    return { status: 202, body: record.job };
  }

  get(jobId: string): Reply {
    this.flowServed('jobs');
    return { status: 200, body: this.advance(this.find(jobId, 'jobs')).job };
  }

  // ---- the project-scoped flow (static-export-project-openapi.json) ----

  /** POST /v1/static-export/{projectId}/jobs: 409 while another export is queued or running, 429 past the hourly limit. */
  projectStart(body: unknown): Reply {
    this.flowServed('project');
    const { faults, now } = this.deps;
    if (faults.exportForbidden) throw new HttpError(403, PROJECT_FORBIDDEN);
    validateProjectStart(body);
    const current = [...this.jobs.values()].filter((r) => r.flow === 'project' && r.epoch === faults.epoch);
    const active = current.find((r) => r.job.status === 'queued' || r.job.status === 'running');
    if (active) {
      throw new HttpError(
        409,
        `A static export job (${active.job.jobId}) is already in progress for this deployment. Wait for it to complete before starting a new one.`,
      );
    }
    const recent = current.filter((r) => Date.parse(r.job.createdAt) > now() - HOUR_MS).length;
    if (faults.projectStartsPerHour > 0 && recent >= faults.projectStartsPerHour) {
      throw new HttpError(
        429,
        `Rate limit exceeded: at most ${faults.projectStartsPerHour} static export jobs per organization per hour`,
        { headers: { 'retry-after': '3600' } },
      );
    }
    return { status: 202, body: this.projectView(this.create('project', ''), false) };
  }

  /** GET /v1/static-export/{projectId}/jobs/{jobId}: once completed, a freshly signed link each time. */
  async projectGet(jobId: string): Promise<Reply> {
    this.flowServed('project');
    if (this.deps.faults.exportForbidden) throw new HttpError(403, PROJECT_FORBIDDEN);
    const record = this.advance(this.find(jobId, 'project'));
    // The project flow's file is named `{subdomain}-export-{YYYY-MM-DD}.tar.gz` (the document says so).
    const fileName = `sandbox-export-${new Date(this.deps.now()).toISOString().slice(0, 10)}.tar.gz`;
    return {
      status: 200,
      body: this.projectView(record, record.job.status === 'completed' ? await this.link(jobId, fileName) : false),
    };
  }

  private projectView(record: ExportRecord, link: Link | false): ProjectExportJob {
    const { jobId, status, createdAt, updatedAt, error } = record.job;
    return { jobId, status, createdAt, updatedAt, error: error ?? null, ...(link || {}) };
  }

  private create(flow: SandboxExportFlow, domain: string): ExportRecord {
    this.jobCount += 1;
    const at = new Date(this.deps.now()).toISOString();
    const name = `export-job-${this.jobCount}`;
    // The jobs flow names jobs se_ + 16 hex; the project flow 24 hex, like a database id.
    const jobId =
      flow === 'jobs' ? `se_${deterministicHex(this.deps.seed, name, 16)}` : deterministicHex(this.deps.seed, name, 24);
    const job: ExportJob = { jobId, status: 'queued', progress: 0, pageCount: 0, createdAt: at, updatedAt: at };
    const { faults } = this.deps;
    const fails = domain.toLowerCase().startsWith('fail.') || faults.failNextExports > 0;
    if (faults.failNextExports > 0) faults.failNextExports -= 1;
    const record: ExportRecord = { flow, job, domain, polls: 0, epoch: faults.epoch, fails };
    this.jobs.set(jobId, record);
    return record;
  }

  /** A flow switched off (Faults.exportFlows) does not exist: 404, as for any unknown route. */
  private flowServed(flow: SandboxExportFlow): void {
    if (!this.deps.faults.exportFlows.has(flow)) throw new HttpError(404, 'Not Found');
  }

  /** Each poll moves the job along, so clients see queued -> running (rising progress) -> done. */
  private advance(record: ExportRecord): ExportRecord {
    const { job } = record;
    if (job.status === 'queued' || job.status === 'running') {
      record.polls += 1;
      const total = Math.max(1, this.deps.faults.exportPollsToFinish);
      job.updatedAt = new Date(this.deps.now()).toISOString();
      if (record.polls < total) {
        job.status = 'running';
        job.progress = Math.floor((100 * record.polls) / total);
        job.pageCount = Math.floor((this.deps.pageCount * record.polls) / total);
      } else if (record.fails) {
        job.status = 'failed';
        job.error = `Rendering ${record.domain || 'the deployment'} failed: the deployment could not be reached`;
      } else {
        Object.assign(job, { status: 'completed', progress: 100, pageCount: this.deps.pageCount });
      }
    }
    return record;
  }

  async bundle(jobId: string): Promise<Reply> {
    this.flowServed('jobs');
    const { job } = this.find(jobId, 'jobs');
    if (job.status === 'failed') throw new HttpError(409, `Job ${jobId} failed; there is no bundle to generate`);
    if (job.status !== 'completed') {
      throw new HttpError(409, `Job ${jobId} is ${job.status}; wait until its status is completed`);
    }
    const bundle: Bundle = { jobId, ...(await this.link(jobId)) };
    return { status: 200, body: bundle };
  }

  /** A presigned link to the archive, as both flows hand it out. */
  private async link(jobId: string, fileName?: string): Promise<Link> {
    const { now, linkTtlMs, faults, signer } = this.deps;
    // An already-expired link is one issued a lifetime (and a second, for whole-second dates) ago.
    const issuedAt = faults.takeExpiredLink() ? now() - linkTtlMs - 1000 : now();
    const link = signer.sign(this.deps.storageOrigin(), jobId, issuedAt, linkTtlMs, fileName);
    return {
      bundleUrl: link.url,
      sizeBytes: await this.deps.archiveSize(),
      expiresAt: new Date(link.expiresAt).toISOString(),
    };
  }

  /** For the storage origin: only bundles of completed jobs exist. */
  hasBundle(jobId: string): boolean {
    return this.jobs.get(jobId)?.job.status === 'completed';
  }

  /** A job of the other flow is not found here: the two flows' jobs live apart, as on the API. */
  private find(jobId: string, flow: SandboxExportFlow): ExportRecord {
    const record = this.jobs.get(jobId);
    if (!record || record.flow !== flow) throw new HttpError(404, `No static export job with ID ${jobId}`);
    return record;
  }
}

function validateStart(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'Request body must be a JSON object with a "domain" string');
  }
  const { domain, version, paths } = body as Record<string, unknown>;
  if (typeof domain !== 'string' || domain === '')
    throw new HttpError(400, '"domain" is required and must be a string');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(domain)) {
    throw new HttpError(400, `"domain" must be a hostname only, without a protocol: ${domain}`);
  }
  if (domain.includes('/'))
    throw new HttpError(400, `"domain" must be a hostname only, without a path or trailing slash: ${domain}`);
  if (domain.includes(':')) throw new HttpError(400, `"domain" must be a hostname only, without a port: ${domain}`);
  if (!HOSTNAME.test(domain)) throw new HttpError(400, `"domain" is not a valid hostname: ${domain}`);
  if (version !== undefined && typeof version !== 'string') throw new HttpError(400, '"version" must be a string');
  if (paths !== undefined && (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))) {
    throw new HttpError(400, '"paths" must be an array of page path strings');
  }
  return domain;
}

function validateProjectStart(body: unknown): void {
  if (body === undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'Request body must be a JSON object');
  const { basePath } = body as Record<string, unknown>;
  if (basePath !== undefined && (typeof basePath !== 'string' || !BASE_PATHS.includes(basePath))) {
    throw new HttpError(400, '"basePath" must be one of "", "/docs", "/documentation"');
  }
}
