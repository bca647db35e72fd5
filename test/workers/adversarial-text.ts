/**
 * Runs every text-reading step of the add, recall, context and import paths on 100 kB adversarial
 * strings (runs of digits, punctuation, whitespace, heading lines, ...), through the real
 * Memory on a real file. test/linear-text.test.ts starts it with V8 counting regex backtracks.
 * Usage: adversarial-text.ts --dir DIR. Prints {"op":"ok","kind"} per input, then {"op":"done"}.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MnemoliteError, openMemory } from '../../src/index.js';
import { durationFlag } from '../../src/cli/duration.js';
import { importHistory } from '../../src/ingest/history.js';
import { cleanText } from '../../src/ingest/history-types.js';
import { chunkMarkdown, importMarkdown } from '../../src/ingest/markdown.js';
import { normaliseContent } from '../../src/lifecycle/dedup.js';
import { parseTimeExpressions } from '../../src/recall/time-expr.js';
import { memoryTools } from '../../src/tools.js';
import { args, emit, WorkerEmbedder } from './common.js';

/** About 99,000 bytes (under the 100,000-byte content limit) of each shape. */
export function adversarialTexts(n = 99_000): Record<string, string> {
  const bytes = (t: string): number => Buffer.byteLength(t);
  const fill = (unit: string, tail = 'x'): string => unit.repeat(Math.floor((n - bytes(tail) - 2) / bytes(unit))) + tail;
  return {
    digits: fill('7'),
    'digits then letters': fill('1', 'st'),
    dots: fill('.'),
    dashes: fill('-', 'a'),
    punctuation: fill('!?,;:()"[]{}-_/\\\'`~@#$%^&*+=<>|'),
    spaces: `a${fill(' ', 'b')}`,
    tabs: `a${fill('\t', 'b')}`,
    'spaces and newlines': `a${fill(' \n', 'b')}`,
    'carriage returns': `a${fill('\r', 'b')}`,
    'heading line': `#${fill(' ', 'x #')}`,
    'heading with closing hashes': `## x${fill(' #', ' y')}`,
    'hash run': fill('#', ' x'),
    numbers: fill('1 '),
    'ordinals and decades': fill("5th 90s '80s "),
    'time words': fill('last week in March 2020 '),
    'digits and letters': fill('1a'),
    apostrophes: fill("a'"),
    'speaker prefixes': fill('Alice: '),
    capitals: fill('Alice Bob '),
    'replacement characters': fill('\uFFFD'),
    'unicode marks': fill('é。！', ''),
  };
}

const dir = args().dir!;
const mem = await openMemory({ path: join(dir, 'adversarial.db'), embedder: new WorkerEmbedder() });
const tools = memoryTools(mem, { namespace: 'tools', minRelevance: 0 });
const ttl = durationFlag('--ttl');
let i = 0;
for (const [kind, text] of Object.entries(adversarialTexts())) {
  const ns = `ns-${i++}`;
  normaliseContent(text);
  parseTimeExpressions(text, { now: new Date('2026-03-01T00:00:00Z') });
  cleanText(`${text}${text}`);
  try {
    ttl(text);
  } catch (err) {
    if (!(err instanceof MnemoliteError)) throw err;
  }
  chunkMarkdown(text);
  // The add path: dedup, context from the session, supersede: 'auto' (a recall of its own).
  await mem.add(text, { namespace: ns, sessionId: 's', supersede: 'auto' });
  await mem.add(`${text.slice(0, -6)} again`, { namespace: ns, sessionId: 's', supersede: 'auto', nearDuplicates: 'report' });
  await mem.addConversation(
    [
      { speaker: 'Alice', content: text.slice(0, 60_000) },
      { speaker: 'Bob', content: 'ok then' },
    ],
    { namespace: ns, sessionId: 'c' },
  );
  // The recall and context paths, every re-ranking step on.
  await mem.recall(text, { namespace: ns, mmr: true, recency: { halfLife: '30d' }, importanceWeight: 1 });
  await mem.context(text, { namespace: ns, minRelevance: 0 });
  // The import paths: Markdown files, chat history, and the tools an agent calls.
  const md = join(dir, `${ns}.md`);
  writeFileSync(md, `# Notes\n\n${text}\n\n${text.slice(0, 2000)}\n## ${text.slice(0, 5000)}\n`);
  await importMarkdown(mem, md, { namespace: `${ns}-md` });
  const chat = JSON.stringify({ conversation: 'c1', role: 'user', content: text, timestamp: '2026-01-02T10:00:00Z' });
  await importHistory(mem, 'chat-jsonl', Buffer.from(`${chat}\n`), { namespace: `${ns}-chat` });
  await tools.execute('memory_store', { content: text.slice(0, 50_000) });
  await tools.execute('memory_recall', { query: text.slice(0, 50_000) });
  emit({ op: 'ok', kind });
}
await mem.close();
emit({ op: 'done' });
