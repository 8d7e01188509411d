// action.yml is what `uses: ./` (or `uses: owner/mint-admin@ref`) reads: it must parse, run the
// committed bundle on a runner's Node, and declare exactly the inputs the code reads and the outputs it
// writes, since an input the code reads but action.yml lacks is never handed to the action.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_OUTPUTS } from '../../action/src/outputs.js';
import { parseYaml } from '../helpers/yaml.js';

const root = new URL('../../', import.meta.url);
const actionYml = parseYaml(readFileSync(new URL('action.yml', root), 'utf8')) as Record<string, any>;
const mainSource = readFileSync(new URL('action/src/main.ts', root), 'utf8');

describe('action.yml', () => {
  it('runs the committed bundle with a runner Node', () => {
    expect(actionYml.runs).toEqual({ using: 'node24', main: 'action/dist/index.cjs' });
    expect(readFileSync(new URL(actionYml.runs.main, root)).length).toBeGreaterThan(0);
  });

  it('declares exactly the inputs the code reads', () => {
    const read = [...mainSource.matchAll(/(?:core\.getInput|booleanInput)\('([^']+)'/g)].map((m) => m[1]);
    expect(new Set(read)).toEqual(new Set(Object.keys(actionYml.inputs)));
  });

  it('declares exactly the outputs the code writes', () => {
    expect(Object.keys(actionYml.outputs).sort()).toEqual([...ACTION_OUTPUTS].sort());
  });

  it('gives every input and output a description, requires only command, and defaults the token to the workflow token', () => {
    for (const [name, spec] of Object.entries<Record<string, string>>({ ...actionYml.inputs, ...actionYml.outputs })) {
      expect(spec.description, name).toMatch(/\S/);
    }
    const required = Object.entries<Record<string, string>>(actionYml.inputs).filter(
      ([, spec]) => spec.required === 'true',
    );
    expect(required.map(([name]) => name)).toEqual(['command']);
    expect(actionYml.inputs['github-token'].default).toBe('${{ github.token }}');
    expect(actionYml.inputs.comment.default).toBe('false');
  });
});

describe('the YAML reader the workflow tests use', () => {
  it('reads steps, quoted values, block scalars and flow sequences, and refuses what it does not know', () => {
    const doc = parseYaml(
      'on:\n  pull_request:\n    types: [opened, synchronize]\njobs:\n  p:\n    steps:\n      - uses: x/y@v1 # a comment\n        with:\n          command: preview start "${{ github.head_ref }}" --wait\n          comment: true\n      - run: |\n          echo a\n          echo b\n',
    );
    expect(doc).toEqual({
      on: { pull_request: { types: ['opened', 'synchronize'] } },
      jobs: {
        p: {
          steps: [
            { uses: 'x/y@v1', with: { command: 'preview start "${{ github.head_ref }}" --wait', comment: 'true' } },
            { run: 'echo a\necho b\n' },
          ],
        },
      },
    });
    expect(() => parseYaml('a: {b: 1}\n')).toThrow(/unsupported/);
    expect(() => parseYaml('a: 1\n   b: 2\n')).toThrow(/indentation/);
  });
});
