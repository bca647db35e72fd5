/** Whole-file consistency checks, made with a plain SQLite connection (not through mnemolite). */
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { expectedBlob } from '../../workers/common.js';

export interface FileRow {
  seq: number;
  id: string;
  namespace: string;
  key: string | null;
  content: string;
  category: string | null;
  session_id: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  embedding: Buffer | null;
  embedding_model: string | null;
}

/** Plain ASCII words between ASCII separators: tokenised the same by FTS5's unicode61 and by this regex. */
const SEP = '[\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]';
const TOKEN = new RegExp(`(?<=^|${SEP})[A-Za-z0-9]{3,}(?=$|${SEP})`, 'g');

/**
 * Assert that the file is sound and self-consistent, and return its memories:
 * - `PRAGMA integrity_check` is `ok`;
 * - FTS5 `integrity-check` (rank 1: also against the content table) passes, and every memory's
 *   longest plain ASCII word finds it through `MATCH`;
 * - with `model`, every memory has a vector of that model equal to the embedding of its content.
 */
export function checkFile(path: string, opts: { model?: string; ftsSample?: number } = {}): FileRow[] {
  const db = new Database(path);
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', `${path}: integrity_check`);
    db.prepare("INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)").run();
    const rows = (
      db
        .prepare(
          'SELECT seq, id, namespace, key, content, category, session_id, metadata, created_at, updated_at, embedding, embedding_model FROM memories ORDER BY seq',
        )
        .all() as (Omit<FileRow, 'metadata'> & { metadata: string })[]
    ).map((r) => ({ ...r, metadata: JSON.parse(r.metadata) as Record<string, unknown> }));
    const match = db.prepare('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?').pluck();
    const sample = opts.ftsSample ?? 300;
    const step = Math.max(1, Math.floor(rows.length / sample));
    for (let i = 0; i < rows.length; i += step) {
      const r = rows[i]!;
      const tok = (r.content.match(TOKEN) ?? []).sort((a, b) => b.length - a.length)[0];
      if (tok)
        assert.ok(
          (match.all(`"${tok.replace(/"/g, '""')}"`) as number[]).includes(r.seq),
          `FTS finds memory ${r.id} by "${tok}" in ${JSON.stringify(r.content)}`,
        );
    }
    if (opts.model) {
      for (const r of rows) {
        assert.equal(r.embedding_model, opts.model, `memory ${r.id} has a vector of ${opts.model}`);
        const want = new Float32Array(new Uint8Array(expectedBlob(r.content)).buffer);
        const got = new Float32Array(new Uint8Array(r.embedding!).buffer);
        assert.equal(got.length, want.length, `vector length of ${r.id}`);
        for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i]! - want[i]!) < 1e-6, `vector of ${r.id} matches its content`);
      }
    }
    return rows;
  } finally {
    db.close();
  }
}
