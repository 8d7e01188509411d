// The groups `--allow` turns on: each names tools that change something or spend credits. Without
// its group a write tool is not listed at all, so an agent cannot be steered into calling it. Kept
// apart from the server so that the command checks `--allow` (exit 2) without loading the MCP SDK.
import { UsageError } from '../errors.js';

export const WRITE_GROUPS = ['agent', 'export', 'deploy', 'preview', 'automation', 'autopilot'] as const;
export type WriteGroup = (typeof WRITE_GROUPS)[number];

/** `--allow agent,preview`: the groups, each known; a UsageError (exit 2) names one that is not. */
export function parseAllow(text: string | undefined): Set<WriteGroup> {
  if (text === undefined) return new Set();
  const groups = text
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
  const unknown = groups.find((g) => !(WRITE_GROUPS as readonly string[]).includes(g));
  if (unknown !== undefined || groups.length === 0) {
    throw new UsageError(
      `--allow: ${JSON.stringify(unknown ?? text)} is not a group of tools; give a comma-separated list of ${WRITE_GROUPS.join(', ')}`,
    );
  }
  return new Set(groups as WriteGroup[]);
}
