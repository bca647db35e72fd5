import type Database from 'better-sqlite3';

/** Schema version this build writes. Stored in `PRAGMA user_version`. */
export const SCHEMA_VERSION = 10;

/** `PRAGMA application_id` of mnemolite files ("MNEM"), so tools can recognise them. */
export const APPLICATION_ID = 0x4d4e454d;

/**
 * Forward-only migrations: entry `i` upgrades a file from version `i` to `i + 1`.
 * Never edit a released entry; append a new one.
 */
export const MIGRATIONS: string[] = [
  // 0 -> 1: the initial layout.
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  CREATE TABLE memories (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT, -- internal row id, also the FTS rowid
    id              TEXT NOT NULL UNIQUE,              -- public id (UUID v7)
    namespace       TEXT NOT NULL,
    key             TEXT,                              -- optional, unique per namespace
    content         TEXT NOT NULL,
    category        TEXT,
    session_id      TEXT,
    metadata        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
    created_at      TEXT NOT NULL,                     -- ISO 8601 UTC
    updated_at      TEXT NOT NULL,
    content_hash    TEXT NOT NULL,                     -- sha256 of content, hex
    embedding       BLOB,                              -- little-endian float32, L2-normalised
    embedding_model TEXT                               -- embedder id that made the vector
  );
  CREATE UNIQUE INDEX memories_namespace_key ON memories(namespace, key) WHERE key IS NOT NULL;
  CREATE INDEX memories_namespace_created ON memories(namespace, created_at);
  CREATE INDEX memories_content_hash ON memories(content_hash);

  CREATE VIRTUAL TABLE memories_fts USING fts5(
    content,
    content = 'memories',
    content_rowid = 'seq',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );

  -- Keep the FTS index in step with the memories table.
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, content) VALUES (new.seq, new.content);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.seq, old.content);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.seq, old.content);
    INSERT INTO memories_fts(rowid, content) VALUES (new.seq, new.content);
  END;

  -- Vectors by (model, content hash), so the same text is never embedded twice.
  -- Holds query vectors and the vectors of content that left the memories table;
  -- vectors of stored memories are found in memories itself.
  CREATE TABLE embedding_cache (
    model        TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    embedding    BLOB NOT NULL,
    used_at      TEXT NOT NULL,
    PRIMARY KEY (model, content_hash)
  ) WITHOUT ROWID;

  CREATE TRIGGER memories_cache_delete AFTER DELETE ON memories
  WHEN old.embedding IS NOT NULL BEGIN
    INSERT OR IGNORE INTO embedding_cache(model, content_hash, embedding, used_at)
    VALUES (old.embedding_model, old.content_hash, old.embedding, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  END;
  CREATE TRIGGER memories_cache_update AFTER UPDATE OF embedding ON memories
  WHEN old.embedding IS NOT NULL AND old.content_hash <> new.content_hash BEGIN
    INSERT OR IGNORE INTO embedding_cache(model, content_hash, embedding, used_at)
    VALUES (old.embedding_model, old.content_hash, old.embedding, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
  END;

  -- Change log: lets each process keep its in-memory vector index in step with
  -- writes made by other processes (read rows with version > last seen).
  CREATE TABLE changes (
    version INTEGER PRIMARY KEY AUTOINCREMENT,
    seq     INTEGER NOT NULL
  );
  CREATE TRIGGER memories_changes_insert AFTER INSERT ON memories BEGIN
    INSERT INTO changes(seq) VALUES (new.seq);
  END;
  CREATE TRIGGER memories_changes_update AFTER UPDATE ON memories BEGIN
    INSERT INTO changes(seq) VALUES (new.seq);
  END;
  CREATE TRIGGER memories_changes_delete AFTER DELETE ON memories BEGIN
    INSERT INTO changes(seq) VALUES (old.seq);
  END;
  `,
  // 1 -> 2: lifecycle (src/lifecycle/): expiry, pinning, importance, supersession, dedup, history.
  `
  ALTER TABLE memories ADD COLUMN expires_at TEXT;                 -- ISO 8601 UTC; NULL = never expires
  ALTER TABLE memories ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)); -- 1 = never expires, never pruned
  ALTER TABLE memories ADD COLUMN importance REAL CHECK (importance BETWEEN 0 AND 1);        -- NULL = not set (neutral 0.5)
  ALTER TABLE memories ADD COLUMN superseded_by TEXT;              -- id of the memory that replaced this one
  ALTER TABLE memories ADD COLUMN dedup_hash TEXT;                 -- sha256 of the normalised content; NULL = not computed yet
  CREATE INDEX memories_expires ON memories(expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;
  CREATE INDEX memories_dedup ON memories(namespace, dedup_hash);

  -- Previous contents of a memory, one row per content change, oldest first.
  -- A version was current from the previous row's replaced_at (or the memory's created_at) until its replaced_at.
  CREATE TABLE memory_history (
    version     INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id   TEXT NOT NULL,                                 -- memories.id
    content     TEXT NOT NULL,
    category    TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    replaced_at TEXT NOT NULL                                  -- ISO 8601 UTC
  );
  CREATE INDEX memory_history_memory ON memory_history(memory_id, version);

  CREATE TRIGGER memories_history_update AFTER UPDATE OF content ON memories
  WHEN old.content IS NOT new.content BEGIN
    INSERT INTO memory_history(memory_id, content, category, metadata, replaced_at)
    VALUES (old.id, old.content, old.category, old.metadata, new.updated_at);
  END;
  -- The normalised hash of changed content is recomputed lazily (it needs Unicode normalisation).
  CREATE TRIGGER memories_dedup_stale AFTER UPDATE OF content ON memories
  WHEN old.content IS NOT new.content AND new.dedup_hash IS old.dedup_hash BEGIN
    UPDATE memories SET dedup_hash = NULL WHERE seq = new.seq;
  END;
  -- Forgetting a memory forgets its history; memories it superseded stand on their own again.
  CREATE TRIGGER memories_lifecycle_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memory_history WHERE memory_id = old.id;
    UPDATE memories SET superseded_by = NULL WHERE superseded_by = old.id;
  END;
  `,
  // 2 -> 3: conversational context (src/lifecycle/context.ts): the turns before a memory in its session.
  `
  ALTER TABLE memories ADD COLUMN context TEXT CHECK (context IS NULL OR json_valid(context)); -- JSON array of the preceding memories' contents in the session, oldest first
  ALTER TABLE memories ADD COLUMN context_embedding BLOB;          -- float32, L2-normalised mean of those memories' vectors (model = embedding_model)

  -- The context's words, searched as their own field (contentless: the text lives in memories.context).
  CREATE VIRTUAL TABLE memories_ctx_fts USING fts5(
    context,
    content = '',
    contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_ctx_insert AFTER INSERT ON memories WHEN new.context IS NOT NULL BEGIN
    INSERT INTO memories_ctx_fts(rowid, context) VALUES (new.seq, (SELECT group_concat(value, ' ') FROM json_each(new.context)));
  END;
  CREATE TRIGGER memories_ctx_delete AFTER DELETE ON memories WHEN old.context IS NOT NULL BEGIN
    DELETE FROM memories_ctx_fts WHERE rowid = old.seq;
  END;
  CREATE TRIGGER memories_ctx_update AFTER UPDATE OF context ON memories WHEN old.context IS NOT new.context BEGIN
    DELETE FROM memories_ctx_fts WHERE rowid = old.seq;
    INSERT INTO memories_ctx_fts(rowid, context) SELECT new.seq, (SELECT group_concat(value, ' ') FROM json_each(new.context)) WHERE new.context IS NOT NULL;
  END;
  CREATE INDEX memories_session ON memories(namespace, session_id, seq) WHERE session_id IS NOT NULL;
  `,
  // 3 -> 4: when it happened: a memory's event time, set by the caller (a chat's date, a meeting's).
  `
  ALTER TABLE memories ADD COLUMN event_at TEXT;                   -- ISO 8601 UTC; NULL = not given (its time is created_at)
  -- since / until filter on "when it happened" (src/store/filter.ts uses this exact expression).
  CREATE INDEX memories_namespace_time ON memories(namespace, coalesce(event_at, created_at));
  `,
  // 4 -> 5: forget erases (src/lifecycle/erase.ts). FTS5 removes a deleted row's postings from its
  // segments instead of adding a delete marker beside them; one merge drops those of rows deleted
  // before. The context field is rebuilt as a contentless table that deletes by its text (the
  // 'delete' command): contentless_delete only hides a row behind a tombstone, its words stay in
  // the segment. The cache records the namespace a vector was cached for, so erasing a namespace
  // finds them; entries cached for a namespace before cannot be told apart from others, so the
  // cache (vectors that can be made again) starts empty.
  `
  INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', 1);
  INSERT INTO memories_fts(memories_fts) VALUES ('optimize');
  DROP TRIGGER memories_ctx_insert;
  DROP TRIGGER memories_ctx_delete;
  DROP TRIGGER memories_ctx_update;
  DROP TABLE memories_ctx_fts;
  CREATE VIRTUAL TABLE memories_ctx_fts USING fts5(
    context,
    content = '',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO memories_ctx_fts(memories_ctx_fts, rank) VALUES ('secure-delete', 1);
  INSERT INTO memories_ctx_fts(rowid, context)
    SELECT seq, (SELECT group_concat(value, ' ') FROM json_each(context)) FROM memories WHERE context IS NOT NULL;
  -- The text deleted is the text indexed: the same expression over the same JSON.
  CREATE TRIGGER memories_ctx_insert AFTER INSERT ON memories WHEN new.context IS NOT NULL BEGIN
    INSERT INTO memories_ctx_fts(rowid, context) VALUES (new.seq, (SELECT group_concat(value, ' ') FROM json_each(new.context)));
  END;
  CREATE TRIGGER memories_ctx_delete AFTER DELETE ON memories WHEN old.context IS NOT NULL BEGIN
    INSERT INTO memories_ctx_fts(memories_ctx_fts, rowid, context) VALUES ('delete', old.seq, (SELECT group_concat(value, ' ') FROM json_each(old.context)));
  END;
  CREATE TRIGGER memories_ctx_update AFTER UPDATE OF context ON memories WHEN old.context IS NOT new.context BEGIN
    INSERT INTO memories_ctx_fts(memories_ctx_fts, rowid, context)
      SELECT 'delete', old.seq, (SELECT group_concat(value, ' ') FROM json_each(old.context)) WHERE old.context IS NOT NULL;
    INSERT INTO memories_ctx_fts(rowid, context) SELECT new.seq, (SELECT group_concat(value, ' ') FROM json_each(new.context)) WHERE new.context IS NOT NULL;
  END;
  ALTER TABLE embedding_cache ADD COLUMN namespace TEXT;         -- the namespace a query vector was cached for; NULL = every namespace
  DELETE FROM embedding_cache;
  CREATE INDEX embedding_cache_namespace ON embedding_cache(namespace) WHERE namespace IS NOT NULL;
  `,
  // 5 -> 6: the query-vector lookup by content hash within one namespace (src/store/store.ts
  // cachedEmbeddings) found its rows through memories_namespace_time, walking the whole namespace
  // (100 ms at 50,000 memories). One index on (content_hash, namespace) answers it in a few page
  // reads, and serves every content_hash lookup the old single-column index did, so that goes.
  `
  CREATE INDEX memories_hash_namespace ON memories(content_hash, namespace);
  DROP INDEX memories_content_hash;
  `,
  // 6 -> 7: working memory (src/backend/profile.ts): one document per namespace, its versions kept
  // (bounded), the highest one current.
  `
  CREATE TABLE profiles (
    namespace TEXT NOT NULL,
    version   INTEGER NOT NULL,
    content   TEXT NOT NULL,
    saved_at  TEXT NOT NULL,                                      -- ISO 8601 UTC
    PRIMARY KEY (namespace, version)
  ) WITHOUT ROWID;
  `,
  // 7 -> 8: the vector index's int8 rows kept in the file (src/search/vector-codes.ts), so an open
  // reads ~580 bytes per memory instead of the 2,048-byte float32 row and quantises nothing. A cache:
  // the float32 embedding stays the source of truth. Triggers drop a memory's row whenever its
  // vectors or model change (they cannot quantise); the writer then stores a fresh one, and an open
  // quantises the memories that have none. A centre, once stored, never changes while codes made
  // with it exist (changing it drops them). The quantisation itself is part of this schema version:
  // a build that quantises differently must add a migration that empties vector_codes.
  `
  CREATE TABLE vector_centres (
    id     INTEGER PRIMARY KEY AUTOINCREMENT,                     -- never reused: codes name their centre by id
    model  TEXT NOT NULL UNIQUE,                                  -- embedding_model of the vectors coded
    dims   INTEGER NOT NULL,
    centre BLOB NOT NULL                                          -- float32: the int8 rows are relative to it
  );
  CREATE TABLE vector_codes (
    seq    INTEGER PRIMARY KEY,                                   -- memories.seq
    centre INTEGER,                                               -- vector_centres.id; NULL = the memory has no vector
    q      BLOB,                                                  -- int8 of (vector - centre), padded to a multiple of 16
    scale  BLOB,                                                  -- float32: q * scale + centre ~ vector
    sign   BLOB                                                   -- 1-bit sign code of the vector, padded to a multiple of 16 bytes
  );
  CREATE TRIGGER memories_codes_insert AFTER INSERT ON memories BEGIN
    DELETE FROM vector_codes WHERE seq = new.seq;
  END;
  CREATE TRIGGER memories_codes_update AFTER UPDATE OF seq, embedding, embedding_model, context_embedding ON memories BEGIN
    DELETE FROM vector_codes WHERE seq IN (old.seq, new.seq);
  END;
  CREATE TRIGGER memories_codes_delete AFTER DELETE ON memories BEGIN
    DELETE FROM vector_codes WHERE seq = old.seq;
  END;
  CREATE TRIGGER vector_centres_update AFTER UPDATE ON vector_centres BEGIN
    DELETE FROM vector_codes WHERE centre = old.id;
  END;
  CREATE TRIGGER vector_centres_delete AFTER DELETE ON vector_centres BEGIN
    DELETE FROM vector_codes WHERE centre = old.id;
  END;
  `,
  // 8 -> 9: the keyword index's postings of common terms kept in the file (src/search/kept-postings.ts),
  // so a new process reads a term's memories from one BLOB instead of one FTS5 row per occurrence.
  // A cache, exact as of the change-log `version` it names: readers add what the log says changed
  // since. A memory deleted or given new content drops every row (the words of a forgotten memory
  // must not stay in the file); a writer stores them again at close.
  `
  CREATE TABLE keyword_postings (
    term    TEXT PRIMARY KEY,                                     -- an FTS5 term of memories_fts (stemmed)
    version INTEGER NOT NULL,                                     -- changes.version the postings are exact at
    n       INTEGER NOT NULL,                                     -- memories holding the term
    docs    BLOB NOT NULL                                         -- per memory: varint seq delta, varint term frequency
  );
  CREATE TRIGGER memories_kept_delete AFTER DELETE ON memories BEGIN
    DELETE FROM keyword_postings;
  END;
  CREATE TRIGGER memories_kept_update AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN
    DELETE FROM keyword_postings;
  END;
  `,
  // 9 -> 10: the kept postings per keyword field (content, and the context of memories in sessions):
  // rows keyed by (field, term). A memory deleted drops every row, new content the content field's,
  // a new context the context field's (a forget rewrites the contexts of the turns after it). The
  // rows are a cache, so the old table goes whole (a file made by schema 9 had one field) and the
  // next close of a writer that searched stores them again.
  `
  DROP TRIGGER IF EXISTS memories_kept_delete;
  DROP TRIGGER IF EXISTS memories_kept_update;
  DROP TRIGGER IF EXISTS memories_kept_context;
  DROP TABLE IF EXISTS keyword_postings;
  CREATE TABLE keyword_postings (
    field   TEXT NOT NULL,                                        -- 'content' (memories_fts) or 'context' (memories_ctx_fts)
    term    TEXT NOT NULL,                                        -- an FTS5 term of that table (stemmed)
    version INTEGER NOT NULL,                                     -- changes.version the postings are exact at
    n       INTEGER NOT NULL,                                     -- memories holding the term
    docs    BLOB NOT NULL,                                        -- per memory: varint seq delta, varint term frequency
    PRIMARY KEY (field, term)
  );
  CREATE TRIGGER memories_kept_delete AFTER DELETE ON memories BEGIN
    DELETE FROM keyword_postings;
  END;
  CREATE TRIGGER memories_kept_update AFTER UPDATE OF content ON memories WHEN old.content IS NOT new.content BEGIN
    DELETE FROM keyword_postings WHERE field = 'content';
  END;
  CREATE TRIGGER memories_kept_context AFTER UPDATE OF context ON memories WHEN old.context IS NOT new.context BEGIN
    DELETE FROM keyword_postings WHERE field = 'context';
  END;
  `,
];

/** Bring a writable database up to {@link SCHEMA_VERSION}. Runs inside one IMMEDIATE transaction. */
export function migrate(db: Database.Database, from: number): void {
  const run = db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const current = db.pragma('user_version', { simple: true }) as number;
    for (let v = Math.max(from, current); v < SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
    }
    if (current < SCHEMA_VERSION) {
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
      db.prepare("INSERT OR IGNORE INTO meta(key, value) VALUES ('created_at', ?)").run(new Date().toISOString());
    }
  });
  run.immediate();
}
