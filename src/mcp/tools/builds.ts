// Deployments and preview builds: start one, look at one, follow it to its end through the engine's
// wait (src/waits/build.ts). One status call serves both kinds.
import type { UpdateStatus } from '../../api/types.js';
import { checkBranchName } from '../../branch-name.js';
import { checkExactId, checkServerId } from '../../ids.js';
import { followBuild, isBuildOver } from '../../waits/build.js';
import { z } from '../sdk.js';
import { BRANCH_CHARS, ID_CHARS } from './limits.js';
import { defineTool, READ_ONLY, type ToolEnv } from '../tool.js';
import { readerText } from '../untrusted.js';
import { POLL_INTERVAL_MS, waitSeconds } from './wait.js';

/** Log lines a result carries: the end of the log is where a failure shows. */
const LOG_LINES = 10;
const LOG_LINE_CHARS = 200;

function buildSummary(
  statusId: string,
  build: UpdateStatus,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const logs = build.logs ?? [];
  return {
    statusId,
    ...extra,
    status: build.status,
    summary: readerText(build.summary ?? null),
    subdomain: build.subdomain ?? null,
    commit: build.commit
      ? {
          sha: build.commit.sha ?? null,
          ref: build.commit.ref ?? null,
          message: readerText(build.commit.message ?? null, 120),
        }
      : null,
    createdAt: build.createdAt ?? null,
    endedAt: build.endedAt ?? null,
    logLines: logs.length,
    // Build output and commit messages come from the repository: bounded, one line each, data only.
    logTail: logs.slice(-LOG_LINES).map((line) => readerText(line, LOG_LINE_CHARS)),
    next: isBuildOver(build)
      ? build.status === 'success'
        ? 'the build is live'
        : 'the build failed: read logTail'
      : `still building: call build_status with statusId ${JSON.stringify(statusId)} (waitSeconds to follow it)`,
  };
}

async function follow(
  env: ToolEnv,
  statusId: string,
  build: UpdateStatus | undefined,
  seconds: number,
): Promise<UpdateStatus> {
  const api = await env.api();
  if (build === undefined) build = await api.getUpdateStatus(statusId, { signal: env.signal });
  if (seconds === 0 || isBuildOver(build)) return build;
  let looks = 0;
  env.progress(looks, undefined, `build ${statusId}: ${build.status}`);
  const { build: last } = await followBuild({
    api,
    statusId,
    intervalMs: POLL_INTERVAL_MS,
    timeoutMs: seconds * 1000,
    clock: env.clock,
    random: env.random,
    signal: env.signal,
    onEvent: (event) => {
      if (event.kind === 'status')
        env.progress(
          ++looks,
          undefined,
          `build ${statusId}: ${event.build.status} after ${Math.round(event.elapsedMs / 1000)} s`,
        );
    },
  });
  return last;
}

const statusIdHint = 'give the statusId deploy_start or preview_start returned';

export const buildStatus = defineTool({
  name: 'build_status',
  title: 'Deployment or preview build status',
  description:
    'Look at a deployment or preview build by its statusId: queued, in_progress, success or failure, with the commit and the last log lines. With waitSeconds, follow it until it ends or the time is up.',
  input: {
    statusId: z.string().max(ID_CHARS).describe('the statusId deploy_start or preview_start returned'),
    waitSeconds,
  },
  annotations: READ_ONLY,
  async run(args, env) {
    const statusId = checkExactId('status id', args.statusId, statusIdHint);
    return buildSummary(statusId, await follow(env, statusId, undefined, args.waitSeconds));
  },
});

export const deployStart = defineTool({
  name: 'deploy_start',
  group: 'deploy',
  title: 'Deploy the docs',
  description:
    "Deploy the docs from their repository's deployment branch: replaces the live site. Sent once. Returns the statusId; with waitSeconds follows the build to its end (build_status follows it later).",
  input: { waitSeconds },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const projectId = await env.projectId();
    const api = await env.api();
    const started = await api.triggerUpdate(projectId, { signal: env.signal });
    const statusId = checkServerId(
      'status id',
      started.statusId,
      'the deployment was started: see it in the Mintlify dashboard',
    );
    return buildSummary(statusId, await follow(env, statusId, undefined, args.waitSeconds));
  },
});

export const previewStart = defineTool({
  name: 'preview_start',
  group: 'preview',
  title: 'Build a preview of a branch',
  description:
    "Build a preview deployment of a git branch of the docs repository (e.g. the agent's pull request branch). Sent once. Returns the statusId and the preview URL; with waitSeconds follows the build to its end.",
  input: {
    branch: z.string().max(BRANCH_CHARS).describe('the git branch to preview, e.g. "mintlify/fix-auth-docs"'),
    waitSeconds,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const branch = checkBranchName(args.branch);
    const projectId = await env.projectId();
    const api = await env.api();
    const started = await api.triggerPreview(projectId, branch, { signal: env.signal });
    const statusId = checkServerId(
      'status id',
      started.statusId,
      'the preview was started: see it in the Mintlify dashboard',
    );
    return buildSummary(statusId, await follow(env, statusId, undefined, args.waitSeconds), {
      branch,
      previewUrl: started.previewUrl ?? null,
    });
  },
});
