// The export flows as the CLI runs them: the `export-api` setting, the project id and the flow memory
// file (export-flows.json) handed to the engine (export-flows/choose.ts), one stderr line saying which
// flow answered and why, and the engine's errors worded with the flags to give or drop.
import { checkExportApi } from '../../../config/validators.js';
import { ENV_VARS } from '../../../config/settings.js';
import { settingOrigin } from '../../../config/resolve.js';
import type { Context } from '../../context.js';
import { ConfigError, UsageError } from '../../../errors.js';
import {
  onJobFlow as onJobFlowWith,
  startOnFlow as startOnFlowWith,
  type FlowReason,
  type FlowSetup,
  type OnJobFlow,
  type Started,
} from '../../../export-flows/choose.js';
import {
  FlowInputMismatchError,
  FlowNeedsDomainError,
  FlowNeedsProjectError,
  otherFlow,
  type FlowField,
  type TriedStart,
} from '../../../export-flows/errors.js';
import {
  jobsFlowApi,
  projectFlowApi,
  START_ROUTES,
  type FlowApi,
  type StartInput,
} from '../../../export-flows/flow-api.js';
import { openFlowCache } from '../../../export-flows/flow-cache.js';
import { wordFlowApi } from './api.js';

export type { ExportFlow } from '../../../export-flows/flow-store.js';
export type { FlowApi, StartInput } from '../../../export-flows/flow-api.js';

/** The engine's setup from this run's settings, and where the setting came from ("--export-api", "MINT_ADMIN_EXPORT_API"). */
export async function flowSetup(ctx: Context, jobId?: string): Promise<FlowSetup & { origin: string }> {
  const s = await ctx.settings();
  const origin = settingOrigin('export-api', s.exportApi, s.profile.value);
  const setting = checkExportApi(s.exportApi.value, origin);
  // ctx.projectId() checks the id (and throws the usual "no project id" error when there is none).
  const projectId = s.projectId ? await ctx.projectId() : undefined;
  const client = await ctx.api();
  const baseUrl = s.baseUrl.value.replace(/\/+$/, '');
  return {
    setting,
    origin,
    baseUrl,
    projectId,
    store: openFlowCache(ctx.env, ctx.debug),
    async api(flow) {
      const api = flow === 'jobs' ? jobsFlowApi(client) : projectFlowApi(client, projectId ?? (await ctx.projectId()));
      return wordFlowApi(api, ctx.globals);
    },
    onChosen(api, reason) {
      ctx.reporter.info(
        `Static export: the ${api.flow} flow (${because(api, reason, { origin, baseUrl, setting, jobId })})`,
      );
    },
  };
}

function because(
  api: FlowApi,
  reason: FlowReason,
  run: { origin: string; baseUrl: string; setting: string; jobId?: string | undefined },
): string {
  switch (reason.by) {
    case 'setting':
      return `export-api ${run.setting}, from ${run.origin}`;
    case 'memory':
      return `it worked last time with ${run.baseUrl}`;
    case 'domain':
      return reason.domain ? 'a domain was given' : 'no domain given';
    case 'fallback':
      return `${START_ROUTES[reason.tried]} answered 404 here`;
    case 'job-memory':
      return `job ${run.jobId} is remembered there`;
    case 'job-shape':
      return api.flow === 'project'
        ? 'the job id looks like a project-flow id'
        : 'the job id looks like a jobs-flow id';
    case 'job-fallback':
      return `no job ${run.jobId} on the ${reason.tried} flow`;
  }
}

/** Starts an export on the chosen flow, falling back once on a 404 of the start route under `auto`. */
export async function startOnFlow(input: StartInput, ctx: Context): Promise<Started> {
  const flows = await flowSetup(ctx);
  try {
    return await startOnFlowWith(input, flows);
  } catch (error) {
    throw wordChoiceError(error, flows);
  }
}

/**
 * Runs `op` (a GET, or asking for a link) on the flow of `jobId`, falling back once on a 404 under
 * `auto`; the returned api is the one to keep using (polls, link refreshes).
 */
export async function onJobFlow<T>(
  jobId: string,
  ctx: Context,
  op: (api: FlowApi) => Promise<T>,
): Promise<OnJobFlow<T>> {
  return onJobFlowWith(jobId, await flowSetup(ctx, jobId), op);
}

const FLAGS: Record<FlowField, string> = { basePath: '--base-path', version: '--export-version', paths: '--path' };

/** The engine's refusals of a start with the flags to give or drop; any other error as it is. */
export function wordChoiceError(error: unknown, flows: FlowSetup & { origin: string }): unknown {
  if (error instanceof FlowInputMismatchError) {
    const flow = error.flow;
    const flags = error.fields.map((f) => FLAGS[f]);
    const which = flags.join(' and ');
    const verb = flags.length === 1 ? 'belongs' : 'belong';
    const pronoun = flags.length === 1 ? 'it' : 'them';
    if (error.chosenBy === 'setting') {
      return new UsageError(
        `${which} ${verb} to the ${otherFlow(flow)} flow, but export-api is ${flow} (from ${flows.origin}); drop ${pronoun} or use --export-api ${otherFlow(flow)}`,
      );
    }
    if (error.chosenBy === 'fallback') {
      const tried = error.tried!;
      return new UsageError(
        `this API has no ${tried.flow}-flow export route (${tried.startRoute} answered 404), and the ${flow} flow cannot honour ${which}; drop ${pronoun} to export ${flow === 'project' ? 'the whole site' : 'the latest version'} on the ${flow} flow`,
      );
    }
    const drop = `drop ${which}`;
    const remembered = error.chosenBy === 'memory';
    const chosen = remembered
      ? `export-api auto chooses the ${flow} flow here (it worked last time with ${flows.baseUrl})`
      : `export-api auto chooses the ${flow} flow when ${flow === 'jobs' ? 'a domain is' : 'no domain is'} given`;
    const remedy = remembered
      ? `use --export-api ${otherFlow(flow)} or ${drop}`
      : flow === 'jobs'
        ? `drop the domain (the project flow exports the project's deployment) or ${drop}`
        : `give the deployment's domain (e.g. \`mint-admin export start docs.example.com\`) or ${drop}`;
    return new UsageError(`${which} ${verb} to the ${otherFlow(flow)} flow, but ${chosen}; ${remedy}`);
  }
  if (error instanceof FlowNeedsDomainError) {
    const what =
      "the jobs flow needs the deployment's domain: give it, e.g. `mint-admin export run docs.example.com -o ./site`";
    if (!error.tried)
      return new UsageError(
        `the jobs flow (export-api jobs, from ${flows.origin}) needs the deployment's domain: give it, e.g. \`mint-admin export run docs.example.com -o ./site\``,
      );
    return new UsageError(`${cannotFallBack(error.tried)}; ${what}`);
  }
  if (error instanceof FlowNeedsProjectError) {
    const how = `pass --project <id>, set ${ENV_VARS['project-id']}, or run \`mint-admin config set project-id <id>\``;
    if (!error.tried)
      return new ConfigError(
        `no project id: ${how} (or give the deployment's domain, e.g. \`mint-admin export run docs.example.com\`)`,
      );
    return new ConfigError(`${cannotFallBack(error.tried)}; the project flow needs a project id: ${how}`);
  }
  return error;
}

function cannotFallBack(tried: TriedStart): string {
  const said = tried.serverMessage ? `: ${tried.serverMessage}` : '';
  return `this API has no ${tried.flow}-flow export route (${tried.startRoute} answered 404${said})`;
}
