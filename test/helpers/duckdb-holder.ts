// Another process holding an analytics database open, as a running `analytics sync` does. DuckDB
// releases its file lock when the instance is collected, so the holder keeps a reference to it, and it
// collects garbage once before saying it holds the lock: a holder that let go would show at once,
// rather than only when a busy machine happened to collect while a test was reading.
import { spawn } from 'node:child_process';

export interface DatabaseHolder {
  pid: number;
  release(): void;
}

export async function holdDatabase(path: string): Promise<DatabaseHolder> {
  const script = `import('@duckdb/node-api').then(async (d) => {
    globalThis.held = await d.DuckDBInstance.create(${JSON.stringify(path)});
    setTimeout(() => {
      globalThis.gc();
      setTimeout(() => console.log('held'), 20);
    }, 0);
    setInterval(() => {}, 1000);
  })`;
  const holder = spawn(process.execPath, ['--expose-gc', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const release = (): void => void holder.kill('SIGKILL');
  try {
    await new Promise((resolve, reject) => {
      holder.stdout.once('data', resolve);
      holder.once('exit', (code) => reject(new Error(`the database holder exited (${code}) before it held ${path}`)));
    });
  } catch (error) {
    release();
    throw error;
  }
  return { pid: holder.pid!, release };
}
