import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { poisonKeyIn } from '../text/json-bounds.js';

type OnMessage = (message: JSONRPCMessage) => void;

const idOf = (m: JSONRPCMessage): string | number | undefined => ('id' in m && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined);

/**
 * The SDK's stdio transport, with two answers it does not give:
 *
 * - an answer that cannot be serialised (a string past V8's limit, a value JSON cannot hold) or
 *   that is larger than `maxBytes` becomes a JSON-RPC error for that request, logged; the SDK
 *   would only report it to `onerror` and the client would wait forever;
 * - a request holding the key `__proto__` (or `constructor.prototype`) is refused with a
 *   JSON-RPC error, as HTTP refuses such a body; the SDK's argument parsing would drop the key
 *   silently and store the rest.
 */
export class AnsweringStdioTransport extends StdioServerTransport {
  private readonly out: Writable;
  private readonly maxBytes: number;
  private readonly log: (line: string) => void;
  private handler: OnMessage | undefined;

  constructor(input: Readable, out: Writable, options: { maxBytes: number; maxBufferSize?: number; log: (line: string) => void }) {
    super(input, out, options.maxBufferSize !== undefined ? { maxBufferSize: options.maxBufferSize } : undefined);
    this.out = out;
    this.maxBytes = options.maxBytes;
    this.log = options.log;
  }

  /** The protocol sets `onmessage` before it starts the transport: every message passes `check` first. */
  override async start(): Promise<void> {
    this.handler = this.onmessage;
    this.onmessage = this.check;
    return super.start();
  }

  private readonly check: OnMessage = (message) => {
    const key = 'params' in message ? poisonKeyIn(message.params) : null;
    if (key === null) {
      this.handler?.(message);
      return;
    }
    const id = idOf(message);
    this.log(`refused a message using the forbidden key "${key}"`);
    if (id !== undefined && 'method' in message)
      this.write({
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: `Invalid params: the key "${key}" is not allowed (it would be dropped silently). Rename it; nothing was changed.` },
      });
  };

  override send(message: JSONRPCMessage): Promise<void> {
    let line: string | undefined;
    let why = '';
    try {
      line = `${JSON.stringify(message)}\n`;
      const bytes = Buffer.byteLength(line);
      if (bytes > this.maxBytes) {
        why = `${bytes} bytes, more than the limit of ${this.maxBytes}`;
        line = undefined;
      }
    } catch (err) {
      why = (err as Error)?.message ?? String(err);
    }
    if (line !== undefined) return this.write(line);
    const id = idOf(message);
    this.log(`could not send the answer${id !== undefined ? ` to request ${JSON.stringify(id)}` : ''}: ${why}`);
    // Only a response has someone waiting for it; a notification is dropped (and logged).
    if (id === undefined || 'method' in message) return Promise.resolve();
    return this.write({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32603,
        message: 'The answer could not be sent (too large, or not serialisable). Ask for less (a smaller limit); the server log has details.',
      },
    });
  }

  private write(value: string | JSONRPCMessage): Promise<void> {
    const line = typeof value === 'string' ? value : `${JSON.stringify(value)}\n`;
    return new Promise((res) => {
      if (this.out.write(line)) res();
      else this.out.once('drain', res);
    });
  }
}
