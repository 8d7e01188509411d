// The server's stdio transport, which answers `initialize` before the MCP SDK is loaded. Loading the
// SDK's chunk (zod building the protocol's schemas) is most of the server's start-up, and a client
// waits for the answer to `initialize` before anything else (with a time limit). So the answer, which
// depends on nothing but the server's name, version, instructions and the protocol version asked for,
// is written from here at once; then the SDK is loaded, the server is connected to this transport, and
// it is handed every message from the first, `initialize` included, so its state is what it would
// have been. Its own answer to that `initialize` is not sent twice: it is dropped, after a check that
// it says the same (a difference goes to stderr, where a test sees it).
// Newline-delimited JSON-RPC, as the SDK's StdioServerTransport reads and writes it.

/** The protocol versions the bundled SDK speaks, newest first (its SUPPORTED_PROTOCOL_VERSIONS; test/mcp/early-initialize.test.ts). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown };

export interface EarlyAnswer {
  serverInfo: { name: string; version: string };
  instructions: string;
  capabilities: Record<string, unknown>;
}

/** Enough of the SDK's Transport for its server (structurally the same interface). */
export class EarlyStdioTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: never) => void;
  private buffer = '';
  private readonly queued: Message[] = [];
  private answeredId: string | number | undefined;
  private earlyResult: unknown;
  private started = false;
  /** stdin has ended: the client has gone, maybe before the server was connected. */
  ended = false;
  private firstSeen = false;
  private resolveFirst!: () => void;
  /** Settles once the first message is in (answered, if it was `initialize`), or stdin has ended. */
  readonly firstMessage = new Promise<void>((resolve) => (this.resolveFirst = resolve));

  constructor(
    private readonly stdin: NodeJS.ReadableStream,
    private readonly stdout: NodeJS.WritableStream,
    private readonly answer: EarlyAnswer,
  ) {
    stdin.on('data', this.onData);
    stdin.on('error', this.onError);
    stdin.once('end', () => {
      this.ended = true;
      this.resolveFirst();
    });
  }

  private readonly onError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    this.buffer += chunk.toString();
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (!this.firstSeen) {
        this.firstSeen = true;
        if (message.method === 'initialize' && message.id !== undefined) this.answerEarly(message);
        this.resolveFirst();
      }
      if (this.started) this.onmessage?.(message as never);
      else this.queued.push(message);
    }
  };

  private answerEarly(request: Message): void {
    const asked = request.params?.protocolVersion;
    const protocolVersion = typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : SUPPORTED_PROTOCOL_VERSIONS[0];
    this.answeredId = request.id;
    this.earlyResult = { protocolVersion, capabilities: this.answer.capabilities, serverInfo: this.answer.serverInfo, instructions: this.answer.instructions };
    this.stdout.write(`${JSON.stringify({ result: this.earlyResult, jsonrpc: '2.0', id: request.id })}\n`);
  }

  /** Called by the SDK's server on connect: every message so far, then each as it comes. */
  async start(): Promise<void> {
    this.started = true;
    for (const message of this.queued.splice(0)) this.onmessage?.(message as never);
  }

  send(message: Message): Promise<void> {
    if (this.answeredId !== undefined && 'result' in message && message.id === this.answeredId && message.method === undefined) {
      this.answeredId = undefined;
      if (JSON.stringify(message.result) !== JSON.stringify(this.earlyResult)) {
        process.stderr.write(`mint-admin: the early answer to initialize differs from the SDK's: ${JSON.stringify(message.result)}\n`);
      }
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.onclose?.();
  }
}
