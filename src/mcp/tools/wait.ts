// How long a tool may follow a job, as an input every waiting tool shares: 0 returns at once, and the
// bound keeps one call from holding the agent's turn for ever. The job goes on past it on the server.
import { z } from '../sdk.js';

export const MAX_WAIT_SECONDS = 1800;
/** The first pause between looks; the one polling loop grows it from there (src/wait.ts). */
export const POLL_INTERVAL_MS = 5000;

export const waitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .default(0)
  .describe(
    `seconds to follow the job before returning (0, the default: return at once; at most ${MAX_WAIT_SECONDS}). Progress notifications report each change while waiting; cancelling the call stops the wait, not the job`,
  );
