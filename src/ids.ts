import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/** A UUID v7: time-ordered (sorts by creation), random enough to be unique across processes. */
export function uuidv7(now = Date.now()): string {
  // Within one millisecond, bump a 12-bit counter so ids from one process stay ordered.
  if (now <= lastMs) {
    seq = (seq + 1) & 0xfff;
    if (seq === 0) lastMs++;
    now = lastMs;
  } else {
    lastMs = now;
    seq = randomBytes(2).readUInt16BE() & 0x3ff;
  }
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (seq >> 8);
  b[7] = seq & 0xff;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
