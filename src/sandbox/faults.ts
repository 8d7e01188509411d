export const ROUTE_NAMES = [
  'agent.create',
  'agent.get',
  'agent.message',
  'export.start',
  'export.get',
  'export.bundle',
  'export.project.start',
  'export.project.get',
  'searches.list',
  'storage.get',
  'deploy.update',
  'deploy.status',
  'deploy.preview',
  'automation.trigger',
  'automation.webhook',
  'autopilot.webhook',
  'feedback.list',
  'feedback.byPage',
  'assistant.list',
  'assistant.thread',
  'assistant.callers',
  'views.list',
  'visitors.list',
] as const;
export type RouteName = (typeof ROUTE_NAMES)[number];

/** One injected response. Without `status` or `dropConnection`, only the delay applies. */
export interface FaultSpec {
  /** Which route it hits; omitted or '*' = the next request to any route. */
  route?: RouteName | '*';
  status?: number;
  /** How many matching requests it applies to (default 1). */
  times?: number;
  /** `Retry-After` value: seconds or an HTTP-date. Omitted = no header. */
  retryAfter?: string | number;
  /** An HTML error page instead of a JSON body, as a proxy in front of the API would send. */
  html?: boolean;
  /** A body to send verbatim (string) or as JSON (anything else). */
  body?: unknown;
  delayMs?: number;
  /** Destroy the socket without any response. */
  dropConnection?: boolean;
}

/** The two static export flows the sandbox serves (cli.md, "Static export flows"). */
export const EXPORT_FLOWS = ['jobs', 'project'] as const;
export type SandboxExportFlow = (typeof EXPORT_FLOWS)[number];

const DEFAULTS = {
  agentPollsToFinish: 3,
  exportPollsToFinish: 4,
  projectStartsPerHour: 10,
  failNextExports: 0,
  buildPollsToFinish: 4,
};

/** Fault knobs. Tests mutate the object directly; scripts use POST /_sandbox/faults. */
export class Faults {
  /** GETs of an agent job until it turns terminal. */
  agentPollsToFinish = DEFAULTS.agentPollsToFinish;
  /** GETs of an export job until it turns completed (or failed). */
  exportPollsToFinish = DEFAULTS.exportPollsToFinish;
  /** Answer every export start with 403, as for an organization without the plan. */
  exportForbidden = false;
  /** Status polls of a deployment or preview build until it ends (the log grows on each). */
  buildPollsToFinish = DEFAULTS.buildPollsToFinish;
  /** Every build started from now on ends in `failure` (a preview branch starting `fail/` does anyway). */
  buildsFail = false;
  /** Answer preview starts with 403, as for a plan without preview deployments. */
  previewForbidden = false;
  /** Answer automation and Autopilot runs with 402: AI credits exhausted for this billing cycle. */
  creditsExhausted = false;
  /** The next n webhook calls (automation or Autopilot) answer 503 "Credit check failed. Retry the request." (no run queued). */
  webhookCreditCheckFailures = 0;
  /**
   * Which export flows exist: a flow switched off answers 404 on its routes, as an API that does not
   * (or no longer) serves it would. Starts as the sandbox was told (`--flows`); reset() restores that.
   */
  exportFlows: Set<SandboxExportFlow>;
  /** The project flow's documented limit on starts per organization per hour (429 past it); 0 = none. */
  projectStartsPerHour = DEFAULTS.projectStartsPerHour;
  /** The next this-many export jobs (either flow) end `failed` instead of `completed`. */
  failNextExports = DEFAULTS.failNextExports;
  /**
   * Bumped by reset(): the 409 (an export already running) and 429 (starts this hour) rules count only
   * jobs of the current epoch, so one test's unfinished export does not block the next test.
   */
  epoch = 0;
  /** Cap on storage download speed; undefined or 0 = unthrottled. */
  throttleBytesPerSecond: number | undefined = undefined;
  private readonly defaultFlows: ReadonlySet<SandboxExportFlow>;
  private queue: Array<FaultSpec & { remaining: number }> = [];
  private truncations: number[] = [];
  private expiredLinks = 0;

  constructor(flows: Iterable<SandboxExportFlow> = EXPORT_FLOWS) {
    this.defaultFlows = new Set(flows);
    this.exportFlows = new Set(this.defaultFlows);
  }

  inject(spec: FaultSpec): void {
    if (spec.route !== undefined && spec.route !== '*' && !ROUTE_NAMES.includes(spec.route)) {
      throw new Error(`unknown route "${spec.route}"; one of ${ROUTE_NAMES.join(', ')}`);
    }
    if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)) {
      throw new Error(`status must be an HTTP status code, got ${JSON.stringify(spec.status)}`);
    }
    if (spec.delayMs !== undefined && !(typeof spec.delayMs === 'number' && spec.delayMs >= 0))
      throw new Error('delayMs must be a number >= 0');
    const times = spec.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new Error('times must be an integer >= 1');
    this.queue.push({ ...spec, remaining: times });
  }

  /** The next storage download sends full headers, then cuts the connection after `bytes` body bytes. */
  truncateDownloadAt(bytes: number, times = 1): void {
    for (let i = 0; i < times; i++) this.truncations.push(bytes);
  }

  /** The next `n` bundle links handed out are already expired. */
  expireNextLinks(n: number): void {
    this.expiredLinks += n;
  }

  pending(): FaultSpec[] {
    return this.queue.map(({ remaining, ...spec }) => ({ ...spec, times: remaining }));
  }

  reset(): void {
    Object.assign(this, DEFAULTS, {
      exportForbidden: false,
      throttleBytesPerSecond: undefined,
      buildsFail: false,
      previewForbidden: false,
      creditsExhausted: false,
      webhookCreditCheckFailures: 0,
    });
    this.exportFlows = new Set(this.defaultFlows);
    this.epoch += 1;
    this.queue = [];
    this.truncations = [];
    this.expiredLinks = 0;
  }

  /** @internal Consumes one use of the first fault matching `route`. */
  take(route: RouteName): FaultSpec | undefined {
    const index = this.queue.findIndex((f) => f.route === undefined || f.route === '*' || f.route === route);
    const fault = this.queue[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.queue.splice(index, 1);
    return fault;
  }

  /** @internal */
  takeTruncation(): number | undefined {
    return this.truncations.shift();
  }

  /** @internal */
  takeExpiredLink(): boolean {
    if (this.expiredLinks <= 0) return false;
    this.expiredLinks -= 1;
    return true;
  }

  /** Applies a JSON document from POST /_sandbox/faults; throws a message on a bad one. */
  applyJson(doc: unknown): void {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('expected a JSON object');
    const d = doc as Record<string, unknown>;
    if (d.reset === true) this.reset();
    if (d.exportFlows !== undefined) this.exportFlows = new Set(parseFlows(d.exportFlows));
    for (const key of [
      'agentPollsToFinish',
      'exportPollsToFinish',
      'buildPollsToFinish',
      'throttleBytesPerSecond',
      'projectStartsPerHour',
      'failNextExports',
    ] as const) {
      if (d[key] === undefined) continue;
      if (typeof d[key] !== 'number' || !(d[key] >= 0)) throw new Error(`${key} must be a number >= 0`);
      this[key] = d[key];
    }
    if (d.exportForbidden !== undefined) {
      if (typeof d.exportForbidden !== 'boolean') throw new Error('exportForbidden must be a boolean');
      this.exportForbidden = d.exportForbidden;
    }
    for (const key of ['buildsFail', 'previewForbidden', 'creditsExhausted'] as const) {
      if (d[key] === undefined) continue;
      if (typeof d[key] !== 'boolean') throw new Error(`${key} must be a boolean`);
      this[key] = d[key];
    }
    if (d.webhookCreditCheckFailures !== undefined)
      this.webhookCreditCheckFailures = nonNegativeInt(d.webhookCreditCheckFailures, 'webhookCreditCheckFailures');
    if (d.expireNextLinks !== undefined) this.expireNextLinks(nonNegativeInt(d.expireNextLinks, 'expireNextLinks'));
    if (d.truncateDownloadAt !== undefined) {
      const t = d.truncateDownloadAt as { bytes?: unknown; times?: unknown } | number;
      if (typeof t === 'number') this.truncateDownloadAt(nonNegativeInt(t, 'truncateDownloadAt'));
      else
        this.truncateDownloadAt(
          nonNegativeInt(t?.bytes, 'truncateDownloadAt.bytes'),
          t?.times === undefined ? 1 : nonNegativeInt(t.times, 'truncateDownloadAt.times'),
        );
    }
    const injections = d.inject === undefined ? [] : Array.isArray(d.inject) ? d.inject : [d.inject];
    for (const spec of injections) this.inject(spec as FaultSpec);
  }
}

/** `["jobs"]`, or "jobs,project" as the sandbox flag writes it; an empty list switches both off. */
export function parseFlows(value: unknown): SandboxExportFlow[] {
  const list =
    typeof value === 'string'
      ? value
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean)
      : value;
  if (
    !Array.isArray(list) ||
    !list.every((f): f is SandboxExportFlow => (EXPORT_FLOWS as readonly unknown[]).includes(f))
  ) {
    throw new Error(`exportFlows must list flows among ${EXPORT_FLOWS.join(', ')}`);
  }
  return list;
}

function nonNegativeInt(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be an integer >= 0`);
  return value;
}
