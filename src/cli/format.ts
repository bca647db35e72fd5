import type { MemoryRecord, RecallHit, Stats } from '../index.js';

/** Terminal width to fit tables into. */
const WIDTH = Math.max(60, Math.min(process.stdout.columns || 120, 160));

// C0 controls other than tab and newline, DEL, and C1 controls: a memory written by any client
// could otherwise clear the operator's screen, set the window title or fake output lines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Show control characters visibly (`\x1b`) in human output; tab and newline stay.
 * JSON output is written without this (it is exact).
 */
export function visible(s: string): string {
  return s.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Shorten to `n` characters on one line. */
export function clip(s: string, n: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= n ? one : `${one.slice(0, Math.max(0, n - 1))}…`;
}

/** A plain text table with a header rule; the last column takes the remaining width. */
export function table(head: string[], rows: string[][]): string {
  if (!rows.length) return '(none)';
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fixed = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  widths[widths.length - 1] = Math.max(10, Math.min(widths[widths.length - 1]!, WIDTH - fixed));
  const line = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? clip(c, widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [line(head), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

const day = (d: Date): string => d.toISOString().slice(0, 16).replace('T', ' ');

/** Table of memories: `happened` is the event time, blank when none was given. */
export function memoriesTable(rows: MemoryRecord[]): string {
  return table(
    ['id', 'created', 'happened', 'namespace', 'key', 'content'],
    rows.map((m) => [m.id, day(m.createdAt), m.eventAt ? day(m.eventAt) : '', m.namespace, m.key ?? '', m.content]),
  );
}

/**
 * Table of recall hits with per-leg ranks. With `--before/--after`, the turns around a hit follow
 * its row in order (before, then after), marked `·` as context, with a note saying so.
 */
export function hitsTable(hits: RecallHit[]): string {
  const when = (m: MemoryRecord): string => (m.eventAt ?? m.createdAt).toISOString().slice(0, 10);
  const around = (m: MemoryRecord, side: string): string[] => ['', '', '', '', '', m.id.slice(0, 13), when(m), `  · ${side}: ${m.content}`];
  const rows = hits.flatMap((h, i) => [
    [
      String(i + 1),
      h.score.toFixed(4),
      h.relevance.toFixed(2),
      h.keywordRank ? String(h.keywordRank) : '-',
      h.vectorRank ? String(h.vectorRank) : '-',
      h.id.slice(0, 13),
      // When it happened: the event date, else the creation date.
      when(h),
      h.content,
    ],
    ...(h.neighbours?.before ?? []).map((m) => around(m, 'before')),
    ...(h.neighbours?.after ?? []).map((m) => around(m, 'after')),
  ]);
  const t = table(['#', 'score', 'rel', 'kw', 'vec', 'id', 'happened', 'content'], rows);
  return rows.length > hits.length ? `${t}\n(· rows: the turns before and after the hit above in its session, context, not matches)` : t;
}

/** One memory in full. */
export function memoryDetail(m: MemoryRecord): string {
  return [
    `id:        ${m.id}`,
    `namespace: ${m.namespace}`,
    `key:       ${m.key ?? ''}`,
    `category:  ${m.category ?? ''}`,
    `session:   ${m.sessionId ?? ''}`,
    `created:   ${m.createdAt.toISOString()}`,
    `updated:   ${m.updatedAt.toISOString()}`,
    ...(m.eventAt ? [`happened:  ${m.eventAt.toISOString()}`] : []),
    `metadata:  ${JSON.stringify(m.metadata)}`,
    ...(m.expiresAt ? [`expires:   ${m.expiresAt.toISOString()}`] : []),
    ...(m.pinned ? ['pinned:    yes'] : []),
    ...(m.importance !== undefined ? [`importance: ${m.importance}`] : []),
    ...(m.supersededBy ? [`superseded by: ${m.supersededBy}`] : []),
    '',
    m.content,
  ].join('\n');
}

/** Human-readable stats. */
export function statsText(s: Stats): string {
  const mb = (s.fileBytes / 1048576).toFixed(2);
  const lines = [
    `${s.path.startsWith('postgres') ? 'store:' : 'file: '}       ${s.path} (${mb} MB, schema ${s.schemaVersion})`,
    `memories:    ${s.memories}${s.expired ? ` (+ ${s.expired} expired: run mnemolite prune)` : ''}`,
    ...Object.entries(s.namespaces).map(([ns, n]) => `  ${ns}: ${n}`),
    `embedding:   ${s.embedding ? `${s.embedding.provider} ${s.embedding.model} (${s.embedding.dims} dims)` : 'none recorded'}`,
    `semantic:    ${s.semantic ? `on (${s.embedded} embedded, ${s.unembedded} without a vector${s.unembedded ? ': run mnemolite reindex' : ''})` : `OFF: ${s.semanticReason}; recall is keyword only`}`,
    `cache:       ${s.cacheEntries} cached vectors`,
  ];
  return lines.join('\n');
}
