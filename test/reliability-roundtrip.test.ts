/**
 * Round trips: a backup taken while another process writes is a consistent snapshot;
 * export -> import into a new file gives identical memories (API and CLI), with or without vectors.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { openMemory, type ExportRecord } from '../src/index.js';
import { HashEmbedder, cli, tempDb, tempDir } from './helpers.js';
import { memory } from './arbitraries.js';
import { runBackupWhileWriting } from './stress/lib/backup.js';
import { checkFile } from './stress/lib/filecheck.js';
import { property, runs } from './stress/lib/prop.js';

test('backup while another process writes: each backup is a consistent, working snapshot', { timeout: 180_000 }, async (t) => {
  await runBackupWhileWriting({ backups: 3, prefill: 600, seed: 11, log: (m) => t.diagnostic(m) });
});

/** Every memory of a file, as export shows it, plus the stored vector bytes. */
function contents(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return JSON.stringify(
      db
        .prepare(
          'SELECT id, namespace, key, content, category, session_id, metadata, created_at, updated_at, hex(embedding) AS e, embedding_model FROM memories ORDER BY id',
        )
        .all(),
    );
  } finally {
    db.close();
  }
}

test('export -> import into a new file -> identical memories (ids, content, metadata, timestamps, vectors), via the API', { timeout: 120_000 }, async () => {
  await property(
    fc.asyncProperty(fc.array(memory, { minLength: 1, maxLength: 25 }), fc.boolean(), async (specs, withVectors) => {
      const src = tempDb('src.db');
      const a = await openMemory({ path: src, embedder: new HashEmbedder() });
      for (const s of specs) {
        const opts = Object.fromEntries(Object.entries(s).filter(([k, v]) => k !== 'content' && v !== undefined));
        await a.add(s.content, opts);
      }
      // Some history: updates and a forget.
      const first = [...a.export()][0]!;
      await a.update(first.id, { content: `${first.content} (edited)`, metadata: { edited: true } });
      const out = [...a.export({ vectors: withVectors })];
      await a.close();

      const dst = tempDb('dst.db');
      const b = await openMemory({ path: dst, embedder: new HashEmbedder() });
      const res = await b.import(JSON.parse(JSON.stringify(out)) as unknown[]);
      assert.deepEqual(res, { imported: out.length, replaced: 0, skipped: 0 });
      const back = [...b.export({ vectors: withVectors })];
      assert.deepEqual(back, out, 'the import exports exactly what was exported');
      for (const r of out) {
        const [x, y] = [await openAndGet(src, r), await b.get(r.id)];
        assert.deepEqual(y, x, `get(${r.id}) is identical`);
      }
      await b.close();
      assert.equal(contents(dst), contents(src), 'identical rows, timestamps and vector bytes');
      checkFile(dst, { model: 'hash-64' });
    }),
    { numRuns: runs(25) },
  );
});

async function openAndGet(path: string, r: ExportRecord): Promise<unknown> {
  const m = await openMemory({ path, embedder: new HashEmbedder(), readonly: true });
  try {
    return await m.get(r.id);
  } finally {
    await m.close();
  }
}

test('export -> import through the CLI (JSON Lines files) -> identical memories', { timeout: 120_000 }, async () => {
  const samples = fc.sample(fc.array(memory, { minLength: 5, maxLength: 30 }), { numRuns: 2, seed: 42 });
  for (const specs of samples) {
    const dir = tempDir();
    const src = join(dir, 'src.db');
    const a = await openMemory({ path: src, embedder: 'none' });
    for (const s of specs) {
      const opts = Object.fromEntries(Object.entries(s).filter(([k, v]) => k !== 'content' && v !== undefined));
      await a.add(s.content, opts);
    }
    await a.close();
    const dump = join(dir, 'dump.jsonl');
    const ex = cli(['--db', src, '--embedder', 'none', 'export', dump]);
    assert.equal(ex.code, 0, ex.stderr);
    const dst = join(dir, 'dst.db');
    const im = cli(['--db', dst, '--embedder', 'none', '--json', 'import', dump]);
    assert.equal(im.code, 0, im.stderr);
    const again = join(dir, 'again.jsonl');
    assert.equal(cli(['--db', dst, '--embedder', 'none', 'export', again]).code, 0);
    assert.equal(readFileSync(again, 'utf8'), readFileSync(dump, 'utf8'), 'byte-identical JSON Lines');
    assert.equal(contents(dst), contents(src));
  }
  writeFileSync(join(tempDir(), 'done'), '');
});
