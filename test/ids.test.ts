// Public ids (src/ids.ts): UUID v7, time-ordered within a process, unique, drawn from a shared pool of random bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uuidv7 } from '../src/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('uuidv7: the v7 layout, the time in its first 48 bits, unique and ordered over many pool refills', () => {
  const at = Date.UTC(2026, 11, 3, 12, 0, 0);
  const one = uuidv7(at + 1_000_000);
  assert.match(one, V7);
  assert.equal(Number.parseInt(one.replace(/-/g, '').slice(0, 12), 16), at + 1_000_000);
  // 20,000 ids (80 refills of the pool), many in one millisecond: all distinct, each sorting after the last.
  const ids: string[] = [];
  for (let i = 0; i < 20_000; i++) ids.push(uuidv7(at + 2_000_000 + Math.floor(i / 50)));
  for (const id of ids) assert.match(id, V7);
  assert.equal(new Set(ids).size, ids.length);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1]! < ids[i]!, `id ${i} sorts after id ${i - 1}`);
  // The random part differs from id to id (not one block repeated after a refill).
  const tails = new Set(ids.map((id) => id.slice(19)));
  assert.ok(tails.size > ids.length * 0.99);
  // A clock that goes back still gives ids after the last one.
  const back = uuidv7(at);
  assert.ok(back > ids[ids.length - 1]!);
});
