// A preview is built from a git branch, so the name must be one git accepts (the rules of
// `git check-ref-format --branch`): checked before anything is sent, exit 2, with the rule it breaks.
// Engine code: `preview start` and the MCP server's preview_start both check with it.
import { UsageError } from './errors.js';

/** The first rule `name` breaks, or undefined when git would accept it as a branch name. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.startsWith('-')) return 'it starts with "-"';
  if (name === 'HEAD') return 'it is "HEAD"';
  // ASCII control characters, space, ~ ^ : ? * [ and backslash are never allowed.
  const bad = /[\x00-\x20\x7f~^:?*[\\]/.exec(name);
  if (bad) return `it contains ${describeChar(bad[0])}`;
  if (name.includes('..')) return 'it contains ".."';
  if (name.includes('@{')) return 'it contains "@{"';
  if (name.startsWith('/') || name.endsWith('/')) return 'it starts or ends with "/"';
  if (name.includes('//')) return 'it contains "//"';
  if (name.endsWith('.')) return 'it ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `the part "${part}" starts with "."`;
    if (part.endsWith('.lock')) return `the part "${part}" ends with ".lock"`;
  }
  return undefined;
}

/** The branch, or a UsageError naming the rule it breaks. */
export function checkBranchName(name: string | undefined): string {
  const branch = name ?? '';
  const problem = branchNameProblem(branch);
  if (problem) {
    throw new UsageError(`${JSON.stringify(branch)} is not a valid git branch name: ${problem}; nothing was sent`);
  }
  return branch;
}

function describeChar(c: string): string {
  if (c === ' ') return 'a space';
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f)
    return `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  return `"${c}"`;
}
