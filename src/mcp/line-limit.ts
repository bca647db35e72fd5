import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes newline-delimited messages through whole, and drops any line longer than `max` bytes
 * (calling `onOversize` once per dropped line) instead of letting it reach the MCP SDK, whose
 * stdio reader gives up on the whole connection past 10 MiB (the server then exited with code 0).
 * Holds at most `max` bytes of one pending line.
 */
export class LineLimit extends Transform {
  private readonly max: number;
  private readonly onOversize: (bytes: number) => void;
  private pending: Buffer[] = [];
  private size = 0;
  /** Bytes of the line being dropped, or -1 while passing lines through. */
  private dropped = -1;

  constructor(max: number, onOversize: (bytes: number) => void) {
    super();
    this.max = max;
    this.onOversize = onOversize;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl + 1;
      const part = chunk.subarray(start, end);
      if (this.dropped >= 0) this.dropped += part.length;
      else if (this.size + part.length > this.max + 1) {
        // Too long: forget what was held and skip to the end of this line.
        this.dropped = this.size + part.length;
        this.pending = [];
        this.size = 0;
      } else {
        this.pending.push(part);
        this.size += part.length;
      }
      if (nl >= 0) {
        if (this.dropped >= 0) {
          this.onOversize(this.dropped);
          this.dropped = -1;
        } else {
          this.push(Buffer.concat(this.pending));
        }
        this.pending = [];
        this.size = 0;
      }
      start = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropped >= 0) this.onOversize(this.dropped);
    else if (this.size) this.push(Buffer.concat(this.pending));
    done();
  }
}
