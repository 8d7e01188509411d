// Which static export flow a command uses (cli.md, "Static export flows"). The `export-api` setting
// forces one; `auto` (the default) picks:
// - to start: the project flow without a domain and the jobs flow with one, unless a 404 taught
//   otherwise for this base URL. A 404 on the start collection route means the route does not exist
//   there: the other flow is tried once (when it has what it needs: a project id, or a domain), and
//   what worked is remembered (flow-cache.ts), so the next start goes straight there.
// - for a job id: the flow remembered for that job, else its shape (24 hex characters is how the project
//   flow names jobs), and a 404 on it tries the other flow once the same way.
// Either way one stderr line says which flow answered, so a CI log shows it.
import type { AnyExportJob } from '../../api/types.js';
import { checkExportApi, ENV_VARS, settingOrigin, type ExportApiSetting } from '../../config.js';
import type { Context } from '../../context.js';
import { ApiError, ConfigError, RateLimitError, UsageError } from '../../errors.js';
import { jobsFlowApi, projectFlowApi, START_ROUTES, type FlowApi, type StartInput } from './flow-api.js';
import { openFlowCache, type ExportFlow, type FlowCache } from './flow-cache.js';

export type { ExportFlow } from './flow-cache.js';
export type { FlowApi, StartInput } from './flow-api.js';

const PROJECT_JOB_ID = /^[0-9a-f]{24}$/;

const other = (flow: ExportFlow): ExportFlow => (flow === 'jobs' ? 'project' : 'jobs');

/** What the flows need, resolved once per command. */
interface FlowSetup {
  setting: ExportApiSetting;
  /** Where the setting came from, for messages ("--export-api", "MINT_ADMIN_EXPORT_API"). */
  origin: string;
  baseUrl: string;
  projectId: string | undefined;
  cache: FlowCache;
  api(flow: ExportFlow): Promise<FlowApi>;
}

async function setup(ctx: Context): Promise<FlowSetup> {
  const s = await ctx.settings();
  const origin = settingOrigin('export-api', s.exportApi, s.profile.value);
  const setting = checkExportApi(s.exportApi.value, origin);
  // ctx.projectId() checks the id (and throws the usual "no project id" error when there is none).
  const projectId = s.projectId ? await ctx.projectId() : undefined;
  const client = await ctx.api();
  return {
    setting,
    origin,
    baseUrl: s.baseUrl.value.replace(/\/+$/, ''),
    projectId,
    cache: openFlowCache(ctx.env, ctx.debug),
    async api(flow) {
      if (flow === 'jobs') return jobsFlowApi(client, ctx.globals);
      return projectFlowApi(client, projectId ?? (await ctx.projectId()), ctx.globals);
    },
  };
}

/** A 404 from the API itself (not a 404 we made up): the route or the job is not there. */
function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && !(error instanceof RateLimitError) && error.status === 404;
}

function say(ctx: Context, api: FlowApi, why: string): void {
  ctx.reporter.info(`Static export: the ${api.flow} flow (${why})`);
}

// ---- starting -------------------------------------------------------------------------------------

export interface Started {
  api: FlowApi;
  job: AnyExportJob;
}

/** Starts an export on the chosen flow, falling back once on a 404 of the start route under `auto`. */
export async function startOnFlow(input: StartInput, ctx: Context): Promise<Started> {
  const flows = await setup(ctx);
  if (flows.setting !== 'auto') {
    const flow = flows.setting;
    refuseForeignFlags(flow, input, flows.origin);
    if (flow === 'jobs' && input.domain === undefined) {
      throw new UsageError(`the jobs flow (export-api jobs, from ${flows.origin}) needs the deployment's domain: give it, e.g. \`mint-admin export run docs.example.com -o ./site\``);
    }
    const api = await flows.api(flow);
    const job = await api.start(input);
    say(ctx, api, `export-api ${flow}, from ${flows.origin}`);
    // A forced flow teaches auto nothing about the API; the job's flow is still worth keeping.
    await flows.cache.remember(flows.baseUrl, { jobId: job.jobId, jobFlow: flow });
    return { api, job };
  }

  const remembered = await flows.cache.startFlow(flows.baseUrl);
  const usable = (flow: ExportFlow) => (flow === 'jobs' ? input.domain !== undefined : flows.projectId !== undefined);
  const byDomain: ExportFlow = input.domain === undefined ? 'project' : 'jobs';
  let flow: ExportFlow = remembered ?? byDomain;
  if (!usable(flow)) flow = other(flow);
  // Decided before anything is sent: a flag this flow cannot honour would be dropped in silence.
  refuseUnhonoured(flow, input, remembered === flow ? `it worked last time with ${flows.baseUrl}` : undefined);
  if (!usable(flow)) {
    // No domain and no project id: neither flow can be asked.
    throw new ConfigError(
      `no project id: pass --project <id>, set ${ENV_VARS['project-id']}, or run \`mint-admin config set project-id <id>\` (or give the deployment's domain, e.g. \`mint-admin export run docs.example.com\`)`,
    );
  }
  let why = remembered === flow ? `it worked last time with ${flows.baseUrl}` : input.domain === undefined ? 'no domain given' : 'a domain was given';
  let api = await flows.api(flow);
  let job: AnyExportJob;
  try {
    job = await api.start(input);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const next = other(flow);
    if (!usable(next)) throw cannotFallBack(api, next, error);
    const unhonoured = foreignFlags(next, input);
    if (unhonoured.length > 0) {
      const which = unhonoured.join(' and ');
      throw new UsageError(
        `this API has no ${flow}-flow export route (${api.startRoute} answered 404), and the ${next} flow cannot honour ${which}; drop ${unhonoured.length === 1 ? 'it' : 'them'} to export ${next === 'project' ? 'the whole site' : 'the latest version'} on the ${next} flow`,
      );
    }
    api = await flows.api(next);
    why = `${START_ROUTES[flow]} answered 404 here`;
    job = await api.start(input);
  }
  say(ctx, api, why);
  // The start flow is remembered once it departs from the domain rule (a 404 taught it), and kept up
  // to date from then on; the job's flow always, for status, bundle and download.
  const learned = api.flow !== byDomain || remembered !== undefined;
  await flows.cache.remember(flows.baseUrl, { ...(learned ? { startFlow: api.flow } : {}), jobId: job.jobId, jobFlow: api.flow });
  return { api, job };
}

/**
 * Under `auto`, a flag of the other flow is exit 2 before sending: the chosen flow would leave it out,
 * and the export would quietly be of something else (the root instead of /docs).
 */
function refuseUnhonoured(flow: ExportFlow, input: StartInput, remembered: string | undefined): void {
  const foreign = foreignFlags(flow, input);
  if (foreign.length === 0) return;
  const which = foreign.join(' and ');
  const drop = `drop ${which}`;
  const chosen = remembered
    ? `export-api auto chooses the ${flow} flow here (${remembered})`
    : `export-api auto chooses the ${flow} flow when ${flow === 'jobs' ? 'a domain is' : 'no domain is'} given`;
  const remedy =
    remembered
      ? `use --export-api ${other(flow)} or ${drop}`
      : flow === 'jobs'
        ? `drop the domain (the project flow exports the project's deployment) or ${drop}`
        : `give the deployment's domain (e.g. \`mint-admin export start docs.example.com\`) or ${drop}`;
  throw new UsageError(`${which} ${foreign.length === 1 ? 'belongs' : 'belong'} to the ${other(flow)} flow, but ${chosen}; ${remedy}`);
}

function foreignFlags(flow: ExportFlow, input: StartInput): string[] {
  if (flow === 'jobs') return input.basePath === undefined ? [] : ['--base-path'];
  return [input.version !== undefined && '--export-version', input.paths !== undefined && '--path'].filter((f): f is string => Boolean(f));
}

/** With the flow forced, a flag of the other flow is a mistake: exit 2 before anything is sent. */
function refuseForeignFlags(flow: ExportFlow, input: StartInput, origin: string): void {
  const foreign = foreignFlags(flow, input);
  if (foreign.length === 0) return;
  throw new UsageError(
    `${foreign.join(' and ')} ${foreign.length === 1 ? 'belongs' : 'belong'} to the ${other(flow)} flow, but export-api is ${flow} (from ${origin}); drop ${foreign.length === 1 ? 'it' : 'them'} or use --export-api ${other(flow)}`,
  );
}

function cannotFallBack(tried: FlowApi, next: ExportFlow, error: ApiError): Error {
  const what =
    next === 'jobs'
      ? `the jobs flow needs the deployment's domain: give it, e.g. \`mint-admin export run docs.example.com -o ./site\``
      : `the project flow needs a project id: pass --project <id>, set ${ENV_VARS['project-id']}, or run \`mint-admin config set project-id <id>\``;
  const said = error.serverMessage ? `: ${error.serverMessage}` : '';
  const message = `this API has no ${tried.flow}-flow export route (${tried.startRoute} answered 404${said}); ${what}`;
  return next === 'jobs' ? new UsageError(message) : new ConfigError(message);
}

// ---- an existing job ------------------------------------------------------------------------------

export interface OnJobFlow<T> {
  api: FlowApi;
  value: T;
}

/**
 * Runs `op` (a GET, or asking for a link) on the flow of `jobId`, falling back once on a 404 under
 * `auto`. The flow that answered is remembered for the job, and the returned api is the one to keep
 * using (polls, link refreshes).
 */
export async function onJobFlow<T>(jobId: string, ctx: Context, op: (api: FlowApi) => Promise<T>): Promise<OnJobFlow<T>> {
  const flows = await setup(ctx);
  if (flows.setting !== 'auto') {
    const api = await flows.api(flows.setting);
    const value = await op(api);
    say(ctx, api, `export-api ${flows.setting}, from ${flows.origin}`);
    return { api, value };
  }
  const remembered = await flows.cache.jobFlow(flows.baseUrl, jobId);
  let flow: ExportFlow = remembered ?? (PROJECT_JOB_ID.test(jobId) ? 'project' : 'jobs');
  // Only a guess from the id's shape gives way to a missing project id; a remembered project job needs one.
  if (flow === 'project' && flows.projectId === undefined && remembered !== 'project') flow = 'jobs';
  let why = remembered ? `job ${jobId} is remembered there` : flow === 'project' ? 'the job id looks like a project-flow id' : 'the job id looks like a jobs-flow id';
  let api = await flows.api(flow);
  let value: T;
  try {
    value = await op(api);
  } catch (error) {
    const next = other(flow);
    if (!isNotFound(error) || (next === 'project' && flows.projectId === undefined)) throw error;
    api = await flows.api(next);
    why = `no job ${jobId} on the ${flow} flow`;
    value = await op(api);
  }
  say(ctx, api, why);
  // Only a surprise is worth a write: a job the id's shape (or the cache) placed on the wrong flow.
  if (api.flow !== flow) await flows.cache.remember(flows.baseUrl, { jobId, jobFlow: api.flow });
  return { api, value };
}
