// Which command group the arguments run, read before commander parses them: by the program, to build
// only that group's leaves (program.ts). No imports: the entry's bundle carries it.

/** Global options that take a value (as the next word): the scan steps over it. */
const GLOBAL_WITH_VALUE = new Set(['-p', '--project', '--base-url', '--profile']);
/** Global options without a value, and the `--name=value` forms of those with one. */
const GLOBAL_FLAG = /^(--json|-q|--quiet|--no-color|--debug|(--project|--base-url|--profile)=.*)$/;
const GROUPS = [
  'agent',
  'export',
  'searches',
  'deploy',
  'preview',
  'automation',
  'autopilot',
  'analytics',
  'config',
  'auth',
  'mcp',
] as const;
export type Group = (typeof GROUPS)[number];

/**
 * The one command group these arguments run and the index of its word, when that is certain (only
 * known global options before it), else undefined.
 */
export function groupAt(argv: readonly string[]): { group: Group; at: number } | undefined {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (GLOBAL_WITH_VALUE.has(word)) i++;
    else if (!GLOBAL_FLAG.test(word))
      return (GROUPS as readonly string[]).includes(word) ? { group: word as Group, at: i } : undefined;
  }
  return undefined;
}
