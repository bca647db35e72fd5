/** fast-check arbitraries shared by the round-trip tests: memories as the API accepts them. */
import fc from 'fast-check';

/** Text that mnemolite accepts: non-blank, no NUL, well-formed, any script. */
export const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
    fc.string({ minLength: 1, maxLength: 60 }),
  )
  .map((s) => s.replace(/\u0000/g, ''))
  .filter((s) => s.trim().length > 0);
export const label = fc
  .oneof(fc.constantFrom('default', 'agent-1', 'a b', "o'brien", '東京', 'x"y'), fc.string({ minLength: 1, maxLength: 16 }))
  .filter((s) => s.trim().length > 0 && !/[\u0000-\u001f\u007f]/.test(s) && s !== '*');
/** A namespace name: a label not ending in "*" (reads take that as a prefix, so writes refuse it). */
export const namespaceLabel = label.filter((s) => !s.endsWith('*'));
export const memory = fc.record({
  content: text,
  namespace: namespaceLabel,
  key: fc.option(label, { nil: undefined }),
  category: fc.option(label, { nil: undefined }),
  sessionId: fc.option(label, { nil: undefined }),
  metadata: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
  createdAt: fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
  pinned: fc.option(fc.boolean(), { nil: undefined }),
  importance: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  expiresAt: fc.option(fc.date({ min: new Date('2100-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }), { nil: undefined }),
});
