// gzip inflated straight into the buffers the extraction worker is sent, with no copy between: Node's
// zlib handle driven the way Node's own synchronous zlib functions drive it (lib/zlib.js,
// processChunkSync), but writing into buffers we own and hand over. Through minizlib every inflated
// byte was copied twice more (into a buffer of its own, then into a batch) and every 256 KB of output
// was a fresh allocation; docs/performance.md has the measurements.
import { constants, createUnzip, type Unzip } from 'node:zlib';

/**
 * What a zlib stream object holds beyond its types: the native handle, and the two counts each
 * writeSync leaves (output room, then input, left over). Both have been there since Node 10; a Node
 * without them makes the inflater fail at once, which stands the live extraction down (tested).
 */
interface ZlibInternals {
  _handle?: { writeSync(flush: number, input: Uint8Array, inOff: number, inLength: number, out: Uint8Array, outOff: number, outLength: number): void };
  _writeState?: Uint32Array;
}

const NO_INPUT = new Uint8Array(0);

export class BatchInflater {
  private readonly zlib: Unzip & ZlibInternals;
  private buffer: Uint8Array;
  private filled = 0;
  private stopped = false;
  /** Bytes inflated in all. */
  inflated = 0;

  /**
   * `fresh` gives the buffer to inflate into next (its length a multiple of the tar block); `full`
   * takes each buffer once inflation filled it, and answers false to stop inflating (standing down).
   */
  constructor(
    private readonly fresh: () => Uint8Array,
    private readonly full: (batch: Uint8Array) => boolean,
    /** Node's Unzip stream whose handle is driven (tests give one without it). */
    zlib: Unzip = createUnzip(),
  ) {
    this.zlib = zlib;
    this.buffer = fresh();
    // Errors are read from `errored` after each write; the event would otherwise be unhandled.
    this.zlib.on('error', () => undefined);
  }

  /** Bytes inflated and not yet taken. */
  get pending(): number {
    return this.filled;
  }

  /** Inflates a chunk of the archive. Throws zlib's error on data that is not a gzip (or zlib) stream. */
  write(chunk: Uint8Array): void {
    this.inflate(constants.Z_NO_FLUSH, chunk);
  }

  /** Inflates what zlib holds back; throws on a stream that ends early ("unexpected end of file"). */
  end(): void {
    this.inflate(constants.Z_FINISH, NO_INPUT);
  }

  /** The first `length` pending bytes, as a view of the buffer they were inflated into; the rest move to a fresh one. */
  take(length: number): Uint8Array {
    const taken = this.buffer.subarray(0, length);
    const next = this.fresh();
    next.set(this.buffer.subarray(length, this.filled));
    this.buffer = next;
    this.filled -= length;
    return taken;
  }

  private inflate(flush: number, input: Uint8Array): void {
    const { _handle: handle, _writeState: state } = this.zlib;
    if (!handle || !state) throw new Error("this Node's zlib has no handle to inflate into a buffer of ours");
    let offset = 0;
    let available = input.length;
    while (!this.stopped) {
      const room = this.buffer.length - this.filled;
      handle.writeSync(flush, input, offset, available, this.buffer, this.filled, room);
      if (this.zlib.errored) throw this.zlib.errored;
      const [roomLeft, inputLeft] = state as unknown as [number, number];
      const produced = room - roomLeft;
      this.filled += produced;
      this.inflated += produced;
      offset += available - inputLeft;
      available = inputLeft;
      if (this.filled === this.buffer.length && !this.full(this.take(this.filled))) this.stopped = true;
      // Room to spare: zlib took all the input it could (as processChunkSync, which stops there too).
      if (roomLeft !== 0) return;
    }
  }
}
