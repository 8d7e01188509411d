// Run a Mintlify automation once: a scheduled one through its trigger, a webhook one through its
// webhook. The API cannot follow a run, so this returns the run's id.
import { checkExactId, checkServerId } from '../../ids.js';
import { z } from '../sdk.js';
import { ID_CHARS } from './limits.js';
import { defineTool } from '../tool.js';

const AUTOMATIONS_PAGE = 'https://app.mintlify.com/products/automations';

export const automationRun = defineTool({
  name: 'automation_run',
  group: 'automation',
  title: 'Run an automation',
  description: `Queue one run of a Mintlify automation by its id (from its settings panel on ${AUTOMATIONS_PAGE}). webhook: true for an automation triggered by webhook, false (default) for a scheduled one. May spend AI credits; sent once. Returns the run id; the API cannot follow a run (it shows on the Automations page).`,
  input: {
    automationId: z.string().max(ID_CHARS).describe('the automation id, e.g. "wf_3kq9x2"'),
    webhook: z.boolean().default(false).describe('true: run a webhook-triggered automation; false: a scheduled one'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const automationId = checkExactId(
      'automation id',
      args.automationId,
      `copy it from the automation's settings panel on ${AUTOMATIONS_PAGE}`,
    );
    const projectId = await env.projectId();
    const api = await env.api();
    const after = `the run was queued: see it on ${AUTOMATIONS_PAGE}`;
    if (args.webhook) {
      const queued = await api.triggerAutomationWebhook(projectId, automationId, { signal: env.signal });
      return {
        automationId,
        runId: checkServerId('automation run id', queued.runId, after),
        next: `the run shows on ${AUTOMATIONS_PAGE}`,
      };
    }
    const queued = await api.triggerAutomation(projectId, automationId, { signal: env.signal });
    return {
      automationId,
      runId: checkServerId('automation run id', queued.instanceId, after),
      next: `the run shows on ${AUTOMATIONS_PAGE}`,
    };
  },
});
