// Deployments, previews and automations (openapi.json and the webhook in admin-openapi.json). A build
// moves one step per status poll: queued, then in_progress with a log that grows each poll, then
// success or failure. The documented rate limits apply by the injected clock: update, trigger and
// webhook share 10 requests per 10 s per organization, preview 5 per minute.
import type { UpdateStatus } from '../api/types.js';
import type { Faults } from './faults.js';
import { HttpError, type Reply } from './http-util.js';
import { deterministicHex } from './prng.js';

export const DEPLOY_RATE = { limit: 10, windowMs: 10_000 };
export const PREVIEW_RATE = { limit: 5, windowMs: 60_000 };

/** The automations the sandbox knows; any other id is a 404, as for one of another project. */
export const SANDBOX_AUTOMATIONS = { scheduled: 'wf_scheduled', webhook: 'wf_webhook' } as const;

const DEPLOYMENT_BRANCH = 'main';
const SUBDOMAIN = 'sandbox';
const PREVIEW_FORBIDDEN = 'Preview deployments are not available on your current plan.';
const CREDITS = 'AI credits are exhausted for this billing cycle. Upgrade your plan or wait for your credits to renew.';

interface Build {
  status: UpdateStatus & { status: 'queued' | 'in_progress' | 'success' | 'failure'; logs: string[] };
  polls: number;
  fails: boolean;
  branch: string;
}

export interface DeployDeps {
  seed: number;
  projectId: string;
  faults: Faults;
  now: () => number;
  /** Windows of the two limits; tests shorten them so a burst need not wait 10 s. */
  deployWindowMs?: number;
  previewWindowMs?: number;
}

export class DeployService {
  private readonly builds = new Map<string, Build>();
  private count = 0;
  private runs = 0;
  private autopilotRuns = 0;
  private readonly shared: SlidingWindow;
  private readonly previews: SlidingWindow;

  constructor(private readonly deps: DeployDeps) {
    this.shared = new SlidingWindow(
      DEPLOY_RATE.limit,
      deps.deployWindowMs ?? DEPLOY_RATE.windowMs,
      deps.now,
      'update, trigger and webhook requests per organization',
    );
    this.previews = new SlidingWindow(
      PREVIEW_RATE.limit,
      deps.previewWindowMs ?? PREVIEW_RATE.windowMs,
      deps.now,
      'preview deployments',
    );
  }

  update(): Reply {
    this.shared.take();
    const build = this.create(DEPLOYMENT_BRANCH, this.deps.faults.buildsFail);
    return { status: 202, body: { statusId: build.status._id } };
  }

  preview(body: unknown): Reply {
    const branch = (body as { branch?: unknown } | undefined)?.branch;
    if (typeof branch !== 'string' || branch === '')
      throw new HttpError(400, 'Invalid request. The `branch` field is required.');
    if (this.deps.faults.previewForbidden) throw new HttpError(403, PREVIEW_FORBIDDEN);
    this.previews.take();
    // `[fail]` is not allowed in a git branch name, so the CLI can only reach a failing preview
    // through a `fail/` branch (or the buildsFail knob); `[fail]` still works for a bare curl.
    const fails = this.deps.faults.buildsFail || branch.startsWith('fail/') || branch.includes('[fail]');
    const build = this.create(branch, fails);
    return { status: 202, body: { statusId: build.status._id, previewUrl: previewUrl(branch) } };
  }

  /** Each poll moves the build one step and adds to its log. */
  status(statusId: string): Reply {
    const build = this.builds.get(statusId);
    if (!build) throw new HttpError(404, `Update status ${statusId} not found`);
    const { status } = build;
    if (status.status === 'queued' || status.status === 'in_progress') {
      build.polls += 1;
      const total = Math.max(1, this.deps.faults.buildPollsToFinish);
      if (build.polls < total) {
        if (status.status === 'queued')
          status.logs.push(`Cloning ${build.branch} at ${status.commit?.sha?.slice(0, 7)}`, 'Installing dependencies');
        status.status = 'in_progress';
        status.summary = 'Building';
        status.logs.push(`Building pages (step ${build.polls} of ${total - 1})`);
      } else if (build.fails) {
        status.logs.push('Error: docs.json: "navigation" is missing', 'Build failed');
        Object.assign(status, {
          status: 'failure',
          summary: 'Build failed: docs.json is invalid',
          endedAt: new Date(this.deps.now()).toISOString(),
        });
      } else {
        status.logs.push('Build succeeded', `Deployed ${build.branch}`);
        Object.assign(status, {
          status: 'success',
          summary: 'Deployed',
          endedAt: new Date(this.deps.now()).toISOString(),
        });
      }
    }
    return { status: 200, body: status };
  }

  trigger(automationId: string): Reply {
    this.shared.take();
    if (automationId === SANDBOX_AUTOMATIONS.webhook) {
      throw new HttpError(400, 'Invalid request. The automation is not configured with a custom schedule.');
    }
    this.checkAutomation(
      automationId,
      SANDBOX_AUTOMATIONS.scheduled,
      'The automation was not found or does not belong to this project.',
    );
    this.runs += 1;
    const instanceId = `wfi_${deterministicHex(this.deps.seed, `automation-run-${this.runs}`, 16)}`;
    return {
      status: 202,
      body: {
        schemaId: automationId,
        instanceId,
        jobId: `job_${deterministicHex(this.deps.seed, `automation-job-${this.runs}`, 16)}`,
      },
    };
  }

  webhook(automationId: string): Reply {
    this.shared.take();
    const { faults } = this.deps;
    if (faults.webhookCreditCheckFailures > 0) {
      faults.webhookCreditCheckFailures -= 1;
      throw new HttpError(503, 'Credit check failed. Retry the request.');
    }
    this.checkAutomation(
      automationId,
      SANDBOX_AUTOMATIONS.webhook,
      'The automation was not found, is not active, does not belong to this project, or is not configured with a webhook trigger.',
    );
    this.runs += 1;
    return {
      status: 202,
      body: { success: true, runId: `wfi_${deterministicHex(this.deps.seed, `automation-run-${this.runs}`, 16)}` },
    };
  }

  /**
   * POST /v2/autopilot/{projectId}/webhook. Its answer is undocumented; the sandbox answers as the
   * automation webhook does ({success, runId}) and follows that webhook's 402 and 503 (nothing
   * started). A project other than the sandbox's is a 404 before this is reached (server.ts).
   */
  autopilot(body: unknown): Reply {
    const prompt = (body as { prompt?: unknown } | null)?.prompt;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      throw new HttpError(400, 'Invalid request. The `prompt` field is required.');
    const { faults } = this.deps;
    if (faults.webhookCreditCheckFailures > 0) {
      faults.webhookCreditCheckFailures -= 1;
      throw new HttpError(503, 'Credit check failed. Retry the request.');
    }
    if (faults.creditsExhausted) throw new HttpError(402, CREDITS);
    this.autopilotRuns += 1;
    return {
      status: 202,
      body: {
        success: true,
        runId: `apr_${deterministicHex(this.deps.seed, `autopilot-run-${this.autopilotRuns}`, 16)}`,
      },
    };
  }

  private checkAutomation(id: string, expected: string, notFound: string): void {
    if (id !== expected) throw new HttpError(404, notFound);
    if (this.deps.faults.creditsExhausted) throw new HttpError(402, CREDITS);
  }

  private create(branch: string, fails: boolean): Build {
    this.count += 1;
    const id = deterministicHex(this.deps.seed, `update-status-${this.count}`, 24);
    const build: Build = {
      branch,
      fails,
      polls: 0,
      status: {
        _id: id,
        projectId: this.deps.projectId,
        createdAt: new Date(this.deps.now()).toISOString(),
        status: 'queued',
        summary: 'Queued',
        logs: [],
        subdomain: SUBDOMAIN,
        author: null,
        commit: {
          sha: deterministicHex(this.deps.seed, `commit-${this.count}`, 40),
          ref: branch,
          message: branch === DEPLOYMENT_BRANCH ? 'Update the quick start' : `Preview ${branch}`,
        },
        source: 'api',
      },
    };
    this.builds.set(id, build);
    return build;
  }
}

/** `https://sandbox-feat-login.mintlify.app` for branch `feat/login`. */
export function previewUrl(branch: string): string {
  const slug =
    branch
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'branch';
  return `https://${SUBDOMAIN}-${slug}.mintlify.app`;
}

/** At most `limit` requests in any `windowMs`; past it a 429 whose Retry-After says when one frees. */
class SlidingWindow {
  private times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly what: string,
  ) {}

  take(): void {
    const now = this.now();
    this.times = this.times.filter((t) => t > now - this.windowMs);
    const oldest = this.times[0];
    if (this.times.length >= this.limit && oldest !== undefined) {
      const retryAfter = Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
      throw new HttpError(429, `Rate limit exceeded: ${this.limit} ${this.what} per ${this.windowMs / 1000}s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    this.times.push(now);
  }
}
