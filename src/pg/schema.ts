/**
 * The PostgreSQL layout, in its own schema (default `mnemolite`), created and migrated by the
 * library. Same tables and meanings as the SQLite file (src/store/schema.ts), in PostgreSQL's
 * terms: a generated `tsvector` with a GIN index for the keyword leg, a pgvector `vector(d)`
 * column with an HNSW index (cosine) for the vector leg, triggers for history and the cache.
 *
 * Conversational context (schema 3, src/lifecycle/context.ts): `context` lists the contents of the
 * memories before a memory in its session, `ctx_tsv` is its own keyword field, `context_embedding`
 * the mean of their vectors. `embedding` stays the memory's own vector (export, cache);
 * `search_embedding` is what the vector leg searches (the blend of own and context vectors, or
 * the own vector when there is no context), written with it, so the HNSW index serves it.
 */

/** Schema version this build writes (meta key `schema_version`). */
export const PG_SCHEMA_VERSION = 8;

/** HNSW indexes take at most this many dimensions (pgvector); wider vectors are scanned exactly. */
export const HNSW_MAX_DIMS = 2000;

/**
 * Forward-only migrations: entry `i` upgrades from version `i` to `i + 1`. Run with the schema
 * first on the search path (functions keep it: `SET search_path FROM CURRENT`). Never edit a released entry; append a new one.
 * The vector column is not here: it needs pgvector and the embedder's width, so it is added
 * when a store is first opened with an embedder ({@link vectorColumnSql}).
 */
export const PG_MIGRATIONS: string[] = [
  `
  CREATE TABLE meta (
    key   text PRIMARY KEY,
    value text NOT NULL
  );

  CREATE TABLE memories (
    seq             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- internal row id
    id              text NOT NULL UNIQUE,                            -- public id (UUID v7)
    namespace       text NOT NULL,
    key             text,                                            -- optional, unique per namespace
    content         text NOT NULL,
    category        text,
    session_id      text,
    metadata        json NOT NULL DEFAULT '{}',                      -- json, not jsonb: kept byte for byte
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL,
    content_hash    text NOT NULL,                                   -- sha256 of content, hex
    embedding_model text,                                            -- embedder id that made the vector
    expires_at      timestamptz,                                     -- NULL = never expires
    pinned          boolean NOT NULL DEFAULT false,                  -- never expires, never pruned
    importance      double precision CHECK (importance BETWEEN 0 AND 1),
    superseded_by   text,                                            -- id of the memory that replaced this one
    dedup_hash      text,                                            -- sha256 of the normalised content
    tsv             tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED
  );
  CREATE UNIQUE INDEX memories_namespace_key ON memories(namespace, key) WHERE key IS NOT NULL;
  CREATE INDEX memories_namespace_created ON memories(namespace, created_at);
  CREATE INDEX memories_content_hash ON memories(content_hash);
  CREATE INDEX memories_tsv ON memories USING gin (tsv);
  CREATE INDEX memories_expires ON memories(expires_at) WHERE expires_at IS NOT NULL;
  CREATE INDEX memories_superseded_by ON memories(superseded_by) WHERE superseded_by IS NOT NULL;
  CREATE INDEX memories_dedup ON memories(namespace, dedup_hash);

  -- Vectors by (model, content hash): query vectors, and vectors of content that left memories.
  CREATE TABLE embedding_cache (
    model        text NOT NULL,
    content_hash text NOT NULL,
    embedding    real[] NOT NULL,
    used_at      timestamptz NOT NULL,
    PRIMARY KEY (model, content_hash)
  );

  -- Previous contents of a memory, one row per content change, oldest first.
  CREATE TABLE memory_history (
    version     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    memory_id   text NOT NULL,
    content     text NOT NULL,
    category    text,
    metadata    json NOT NULL DEFAULT '{}',
    replaced_at timestamptz NOT NULL
  );
  CREATE INDEX memory_history_memory ON memory_history(memory_id, version);

  CREATE FUNCTION memories_history_update() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    INSERT INTO memory_history(memory_id, content, category, metadata, replaced_at)
    VALUES (OLD.id, OLD.content, OLD.category, OLD.metadata, NEW.updated_at);
    RETURN NULL;
  END $$;
  CREATE TRIGGER memories_history_update AFTER UPDATE OF content ON memories
    FOR EACH ROW WHEN (OLD.content IS DISTINCT FROM NEW.content) EXECUTE FUNCTION memories_history_update();

  -- Forgetting a memory forgets its history; memories it superseded stand on their own again.
  CREATE FUNCTION memories_lifecycle_delete() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    DELETE FROM memory_history WHERE memory_id = OLD.id;
    UPDATE memories SET superseded_by = NULL WHERE superseded_by = OLD.id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER memories_lifecycle_delete AFTER DELETE ON memories
    FOR EACH ROW EXECUTE FUNCTION memories_lifecycle_delete();
  `,
  // 1 -> 2: document frequencies for the keyword leg's BM25 (made from ts_stat, refreshed as the store grows).
  `
  CREATE TABLE term_stats (
    term text PRIMARY KEY,   -- an english stem, as in memories.tsv
    df   integer NOT NULL    -- memories containing it
  );
  `,
  // 2 -> 3: conversational context (src/lifecycle/context.ts): the memories before a memory in its session.
  `
  ALTER TABLE memories ADD COLUMN context json; -- array of the preceding memories' contents in the session, oldest first (json: kept as written)
  ALTER TABLE memories ADD COLUMN ctx_tsv tsvector GENERATED ALWAYS AS (json_to_tsvector('english', context, '["string"]')) STORED;
  CREATE INDEX memories_ctx_tsv ON memories USING gin (ctx_tsv);
  CREATE INDEX memories_session ON memories(namespace, session_id, seq) WHERE session_id IS NOT NULL;
  -- Document frequencies of the context field (as term_stats for tsv).
  CREATE TABLE ctx_term_stats (
    term text PRIMARY KEY,
    df   integer NOT NULL
  );
  -- A store that has its vector column already: the context and search vectors of the same width,
  -- and the HNSW index moves to the searched vector (the own vector stays for export and the cache).
  DO $$
  DECLARE t text; d integer; vs text;
  BEGIN
    SELECT format_type(atttypid, atttypmod), atttypmod INTO t, d FROM pg_attribute
      WHERE attrelid = 'memories'::regclass AND attname = 'embedding' AND NOT attisdropped;
    IF t IS NULL THEN RETURN; END IF;
    SELECT extnamespace::regnamespace::text INTO vs FROM pg_extension WHERE extname = 'vector';
    EXECUTE format('ALTER TABLE memories ADD COLUMN context_embedding %s, ADD COLUMN search_embedding %s', t, t);
    UPDATE memories SET search_embedding = embedding WHERE embedding IS NOT NULL;
    DROP INDEX IF EXISTS memories_embedding_hnsw;
    IF d <= ${HNSW_MAX_DIMS} THEN
      EXECUTE format('CREATE INDEX memories_search_hnsw ON memories USING hnsw (search_embedding %s.vector_cosine_ops)', vs);
    END IF;
  END $$;
  `,
  // 3 -> 4: keyword statistics per namespace (a recall in one namespace scores with that namespace's alone).
  `
  DROP TABLE term_stats;
  DROP TABLE ctx_term_stats;
  CREATE TABLE term_stats (
    namespace text NOT NULL,
    term      text NOT NULL,   -- an english stem, as in memories.tsv
    df        integer NOT NULL, -- memories of the namespace containing it
    PRIMARY KEY (namespace, term)
  );
  CREATE TABLE ctx_term_stats (
    namespace text NOT NULL,
    term      text NOT NULL,   -- as term_stats, for ctx_tsv
    df        integer NOT NULL,
    PRIMARY KEY (namespace, term)
  );
  CREATE INDEX term_stats_term ON term_stats(term);
  CREATE INDEX ctx_term_stats_term ON ctx_term_stats(term);
  CREATE TABLE namespace_stats (
    namespace text PRIMARY KEY,
    docs      float8 NOT NULL, -- memories
    avgdl     float8 NOT NULL, -- their mean tsv length
    cdocs     float8 NOT NULL, -- memories with context
    cavgdl    float8 NOT NULL  -- their mean ctx_tsv length
  );
  DELETE FROM meta WHERE key IN ('term_stats_docs', 'term_stats_avgdl', 'ctx_stats_docs', 'ctx_stats_avgdl');
  `,
  // 4 -> 5: when it happened: a memory's event time, set by the caller (a chat's date, a meeting's).
  `
  ALTER TABLE memories ADD COLUMN event_at timestamptz; -- NULL = not given (its time is created_at)
  -- since / until filter on "when it happened" (src/pg/sql.ts uses this exact expression).
  CREATE INDEX memories_namespace_time ON memories(namespace, (coalesce(event_at, created_at)));
  `,
  // 5 -> 6: erase a namespace (src/pg/erase.ts): the cache records the namespace a vector was cached
  // for. Entries cached for a namespace before cannot be told apart, so the cache starts empty.
  `
  ALTER TABLE embedding_cache ADD COLUMN IF NOT EXISTS namespace text; -- NULL = cached for every namespace
  DELETE FROM embedding_cache;
  CREATE INDEX IF NOT EXISTS embedding_cache_namespace ON embedding_cache(namespace) WHERE namespace IS NOT NULL;
  `,
  // 6 -> 7: the query-vector lookup by content hash within one namespace (src/pg/backend.ts
  // cachedVectors): one index on (content_hash, namespace), which also serves every lookup of the
  // single-column hash index, so that goes.
  `
  CREATE INDEX IF NOT EXISTS memories_hash_namespace ON memories(content_hash, namespace);
  DROP INDEX IF EXISTS memories_content_hash;
  `,
  // 7 -> 8: working memory (src/pg/profile.ts): one document per namespace, its versions kept
  // (bounded), the highest one current.
  `
  CREATE TABLE IF NOT EXISTS profiles (
    namespace text NOT NULL,
    version   integer NOT NULL,
    content   text NOT NULL,
    saved_at  timestamptz NOT NULL,
    PRIMARY KEY (namespace, version)
  );
  `,
];

/** The vector columns (own, context, searched), the HNSW index and the cache triggers that read them, for `dims`-wide vectors. */
export function vectorColumnSql(dims: number): string {
  if (!Number.isInteger(dims) || dims < 1 || dims > 16_000) throw new Error(`bad vector width ${dims}`);
  return `
  ALTER TABLE memories ADD COLUMN IF NOT EXISTS embedding vector(${dims});
  ALTER TABLE memories ADD COLUMN IF NOT EXISTS context_embedding vector(${dims});
  ALTER TABLE memories ADD COLUMN IF NOT EXISTS search_embedding vector(${dims});
  ${dims <= HNSW_MAX_DIMS ? 'CREATE INDEX IF NOT EXISTS memories_search_hnsw ON memories USING hnsw (search_embedding vector_cosine_ops);' : ''}
  ${VECTOR_TRIGGERS}`;
}

/** A new width for the vector column: old vectors cannot stay (reindex re-embeds); index and triggers are rebuilt around the change. */
export function vectorWidthSql(dims: number): string {
  if (!Number.isInteger(dims) || dims < 1 || dims > 16_000) throw new Error(`bad vector width ${dims}`);
  return `
  DROP TRIGGER IF EXISTS memories_cache_update ON memories;
  DROP INDEX IF EXISTS memories_embedding_hnsw;
  DROP INDEX IF EXISTS memories_search_hnsw;
  UPDATE memories SET embedding_model = NULL WHERE embedding_model IS NOT NULL;
  ALTER TABLE memories ALTER COLUMN embedding TYPE vector(${dims}) USING NULL,
    ALTER COLUMN context_embedding TYPE vector(${dims}) USING NULL, ALTER COLUMN search_embedding TYPE vector(${dims}) USING NULL;
  ${dims <= HNSW_MAX_DIMS ? 'CREATE INDEX memories_search_hnsw ON memories USING hnsw (search_embedding vector_cosine_ops);' : ''}
  ${VECTOR_TRIGGERS}`;
}

const VECTOR_TRIGGERS = `
  -- Keep the vector of content that leaves memories, so the same text is never embedded twice.
  CREATE OR REPLACE FUNCTION memories_cache_vector() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
  BEGIN
    IF OLD.embedding IS NOT NULL AND OLD.embedding_model IS NOT NULL
       AND (TG_OP = 'DELETE' OR OLD.content_hash <> NEW.content_hash) THEN
      INSERT INTO embedding_cache(model, content_hash, embedding, used_at)
      VALUES (OLD.embedding_model, OLD.content_hash, OLD.embedding::real[], now())
      ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
  END $$;
  DROP TRIGGER IF EXISTS memories_cache_delete ON memories;
  CREATE TRIGGER memories_cache_delete AFTER DELETE ON memories FOR EACH ROW EXECUTE FUNCTION memories_cache_vector();
  DROP TRIGGER IF EXISTS memories_cache_update ON memories;
  CREATE TRIGGER memories_cache_update AFTER UPDATE OF embedding ON memories FOR EACH ROW EXECUTE FUNCTION memories_cache_vector();
`;

/** Schema names accepted (they are spliced into SQL as identifiers, so they are checked strictly). */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
