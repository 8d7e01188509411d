// Reading the admin key without it touching argv, shell history or the screen.
import type { IO } from './io.js';
import { InterruptedError, UsageError } from '../errors.js';
import { BoundedBytes } from './input-limit.js';

/** The whole of stdin (a pipe or a file), without its trailing newline. */
export async function readAllStdin(io: IO, maxBytes = Infinity): Promise<string> {
  const into = new BoundedBytes(maxBytes);
  for await (const chunk of io.stdin as AsyncIterable<Buffer | string>) into.add(chunk);
  return into.text().replace(/\r?\n$/, '');
}

/** A prompt on stderr whose answer is not echoed; Ctrl-C interrupts it. */
export function promptHidden(io: IO, question: string): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  return new Promise((resolve, reject) => {
    let answer = '';
    io.stderr.write(question);
    const finish = (result: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      result();
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(() => resolve(answer));
        if (char === '\u0003') return finish(() => reject(new InterruptedError('cancelled; nothing was saved')));
        if (char === '\u0004' && answer === '')
          return finish(() => reject(new UsageError('no key entered; nothing was saved')));
        if (char === '\u007f' || char === '\b') answer = answer.slice(0, -1);
        else if (char >= ' ') answer += char;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}
