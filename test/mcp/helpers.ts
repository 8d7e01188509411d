// An MCP client for the built CLI's server (`node dist/cli/main.cjs mcp ...`) over stdio, as an agent's
// client would run it, recording every message both ways and the server's stderr, so a test can say
// that no message ever held the key or a presigned link.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CLI, cliEnv } from '../helpers/cli.js';

/** Everything that passed between client and server, as text. */
export const traffic: string[] = [];

/** A transport that hands every message on, and keeps a copy. */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly inner: StdioClientTransport) {
    inner.onmessage = (message) => {
      traffic.push(JSON.stringify(message));
      this.onmessage?.(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    traffic.push(JSON.stringify(message));
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface Connected {
  client: Client;
  stderr: () => string;
  /** The server process's pid (null once it has gone). */
  pid: () => number | null;
  close(): Promise<void>;
}

export async function connect(
  args: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<Connected> {
  const inner = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: cliEnv(env) as Record<string, string>,
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  (inner.stderr as NodeJS.ReadableStream | null)?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
    traffic.push(c);
  });
  const client = new Client({ name: 'mint-admin-test', version: '1.0.0' });
  await client.connect(new RecordingTransport(inner));
  return { client, stderr: () => stderr, pid: () => inner.pid, close: () => client.close() };
}

/** A tool result's text (every tool answers with one text part). */
export function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text: string }> }).content;
  return content.map((c) => c.text).join('');
}

/** A successful tool result's JSON; fails the test with the text of an error. */
export function dataOf<T = Record<string, unknown>>(result: unknown): T {
  if ((result as { isError?: boolean }).isError) throw new Error(`tool error: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}
