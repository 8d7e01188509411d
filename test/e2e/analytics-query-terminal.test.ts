// Text the public typed (a search term) printed as CSV on a terminal: its control characters are shown
// in caret notation, so it cannot retitle the window, write the clipboard (OSC 52) or clear the
// screen; to a file or a pipe the CSV keeps them as they are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAnalyticsDb } from '../../src/analytics-store/db.js';
import { tempDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { noPython, PYTHON_SKIP_NOTE, runCliOnPty } from '../helpers/pty.js';

const HOSTILE = 'osc52 \x1b]52;c;cm0gLXJmIH4=\x07 title \x1b]0;pwned\x07 clear \x1b[2J csi \x9b31m end';

async function databaseWithTerm(dir: string): Promise<string> {
  const path = join(dir, 'a.duckdb');
  const db = await openAnalyticsDb(path);
  try {
    await db.connection.run(`INSERT INTO searches VALUES ('2026-11-20', $1, 3, 0.5, NULL, NULL)`, [HOSTILE]);
  } finally {
    db.close();
  }
  return path;
}

describe('analytics query --format csv with hostile cell text', () => {
  it('on a terminal: control characters in caret notation; into -o: the cell as stored', async () => {
    const dir = tempDir();
    try {
      const db = await databaseWithTerm(dir.path);
      const env = { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' };
      const sql = 'SELECT search_query FROM searches';
      const shown = await runInProcess(['analytics', 'query', '--db', db, '--format', 'csv', sql], { env, tty: true });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toBe(
        'search_query\r\nosc52 ^[]52;c;cm0gLXJmIH4=^G title ^[]0;pwned^G clear ^[[2J csi ^[[31m end\r\n',
      );
      const file = join(dir.path, 'out.csv');
      const written = await runInProcess(['analytics', 'query', '--db', db, '--format', 'csv', '-o', file, sql], {
        env,
        tty: true,
      });
      expect(written.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(`search_query\r\n${HOSTILE}\r\n`);
      const piped = await runInProcess(['analytics', 'query', '--db', db, '--format', 'csv', sql], { env, tty: false });
      expect(piped.stdout).toBe(`search_query\r\n${HOSTILE}\r\n`);
    } finally {
      dir.cleanup();
    }
  });

  it.skipIf(noPython)(
    `the built CLI on a real terminal: no escape sequence of the cell reaches it${PYTHON_SKIP_NOTE}`,
    async () => {
      const dir = tempDir();
      try {
        const db = await databaseWithTerm(dir.path);
        const env = { HOME: dir.path, XDG_CONFIG_HOME: join(dir.path, 'xdg'), MINTLIFY_PROJECT_ID: 'p' };
        const shown = await runCliOnPty(
          ['analytics', 'query', '--db', db, '--format', 'csv', 'SELECT search_query FROM searches'],
          { env },
        );
        expect(shown.code).toBe(0);
        // The terminal's own line discipline turns each \n into \r\n; the cell is otherwise as caret
        // notation shows it, and the count on stderr follows it on the same screen.
        expect(shown.output.replace(/\r+\n/g, '\n')).toBe(
          'search_query\nosc52 ^[]52;c;cm0gLXJmIH4=^G title ^[]0;pwned^G clear ^[[2J csi ^[[31m end\n1 row\n',
        );
        expect(shown.output).not.toMatch(/[\x1b\x07\x9b]/);
      } finally {
        dir.cleanup();
      }
    },
  );
});
