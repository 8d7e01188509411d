// The docs agent: look at a job, start one, send it a follow-up; each may follow the job to its end
// (the pull request) through the engine's wait (src/waits/agent-job.ts).
import type { AgentJob } from '../../api/types.js';
import { checkExactId, checkServerId } from '../../ids.js';
import { followAgentJob } from '../../waits/agent-job.js';
import { z } from '../sdk.js';
import { ID_CHARS } from './limits.js';
import { defineTool, READ_ONLY, type ToolEnv } from '../tool.js';
import { POLL_INTERVAL_MS, waitSeconds } from './wait.js';

const jobId = z.string().max(ID_CHARS).describe('the agent job id that agent_run returned (e.g. "job_3kq9x2")');
const prompt = z
  .string()
  .min(1)
  .max(20_000)
  .describe('the instruction for the docs agent: what to change in the docs, and why');

/** What an agent needs of a job: where it stands and its pull request. */
function jobSummary(job: AgentJob): Record<string, unknown> {
  return {
    id: job.id,
    status: job.status,
    prLink: job.prLink ?? null,
    repository: job.source?.repository ?? null,
    branch: job.source?.ref ?? null,
    createdAt: job.createdAt ?? null,
    next:
      job.status === 'active'
        ? `the job is still running: call agent_get with jobId ${JSON.stringify(job.id)} (waitSeconds to follow it)`
        : job.prLink
          ? 'review the pull request; agent_message sends the agent a follow-up'
          : 'the job ended without a pull request',
  };
}

async function follow(env: ToolEnv, projectId: string, job: AgentJob, seconds: number): Promise<AgentJob> {
  if (seconds === 0 || job.status !== 'active') return job;
  let looks = 0;
  env.progress(looks, undefined, `agent job ${job.id}: ${job.status}`);
  return followAgentJob({
    api: await env.api(),
    projectId,
    jobId: job.id,
    intervalMs: POLL_INTERVAL_MS,
    timeoutMs: seconds * 1000,
    clock: env.clock,
    random: env.random,
    signal: env.signal,
    knownStatus: job.status,
    onEvent: (event) => {
      if (event.kind === 'status')
        env.progress(
          ++looks,
          undefined,
          `agent job ${job.id}: ${event.job.status} after ${Math.round(event.elapsedMs / 1000)} s`,
        );
    },
  });
}

export const agentGet = defineTool({
  name: 'agent_get',
  title: 'Agent job status',
  description:
    'Look at a docs agent job: its status (active, completed, archived, failed) and, once it has one, the link to its pull request. With waitSeconds, follow an active job until it ends or the time is up.',
  input: { jobId, waitSeconds },
  annotations: READ_ONLY,
  async run(args, env) {
    const id = checkExactId('agent job id', args.jobId, 'give the id agent_run returned');
    const projectId = await env.projectId();
    const api = await env.api();
    const job = await api.getAgentJob(projectId, id, { signal: env.signal });
    return jobSummary(await follow(env, projectId, job, args.waitSeconds));
  },
});

export const agentRun = defineTool({
  name: 'agent_run',
  group: 'agent',
  title: 'Start a docs agent job',
  description:
    'Ask the Mintlify docs agent to change the docs: it edits the docs repository and opens a pull request. Spends AI credits; the request is sent once. Returns the job id at once, or with waitSeconds follows the job to its pull request. Then agent_get follows it, agent_message sends a follow-up.',
  input: { prompt, waitSeconds },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const projectId = await env.projectId();
    const api = await env.api();
    const created = await api.createAgentJob(projectId, args.prompt, { signal: env.signal });
    checkServerId('agent job id', created.id, 'the job was created: see it in the Mintlify dashboard');
    return jobSummary(await follow(env, projectId, created, args.waitSeconds));
  },
});

export const agentMessage = defineTool({
  name: 'agent_message',
  group: 'agent',
  title: 'Send a follow-up to a docs agent job',
  description:
    'Send a follow-up instruction to an existing docs agent job (e.g. "also add a curl example"); the agent updates its pull request. Spends AI credits; sent once. With waitSeconds, follows the job until it ends again.',
  input: { jobId, prompt, waitSeconds },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const id = checkExactId('agent job id', args.jobId, 'give the id agent_run returned');
    const projectId = await env.projectId();
    const api = await env.api();
    const job = await api.sendAgentMessage(projectId, id, args.prompt, { signal: env.signal });
    return jobSummary(await follow(env, projectId, job, args.waitSeconds));
  },
});
