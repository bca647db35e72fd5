/**
 * Markdown memory files (`MEMORY.md`, `memory/YYYY-MM-DD.md`, any notes) as memories:
 * heading-aware chunks of about 400 tokens with overlap, each remembering its source path,
 * line range and the file's hash. Re-importing an unchanged file writes nothing; a changed
 * file replaces its old chunks.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { MnemoliteError, invalid } from '../errors.js';
import type { Memory } from '../memory/memory.js';
import type { AddInput, MemoryRecord } from '../types/memory.js';
import { estimateTokens, wordCount } from '../text/words.js';

/** Options for {@link chunkMarkdown}. */
export interface ChunkOptions {
  /** Target chunk size in (approximate) tokens, heading included (default 400). */
  maxTokens?: number;
  /** Tokens of the previous chunk repeated at the start of the next one within a section (default 80). */
  overlapTokens?: number;
}

/** One chunk of a Markdown file. */
export interface MarkdownChunk {
  /** Text to store: the heading path (e.g. "Projects > mnemolite"), a blank line, then the chunk's lines. */
  content: string;
  /** 1-based first line in the file (the heading line for a section's first chunk). */
  lineStart: number;
  /** 1-based last line in the file. */
  lineEnd: number;
  /** Heading path, or `null` for text before the first heading. */
  heading: string | null;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const blank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/**
 * An ATX heading (`## Title ##`): its level and title (`undefined` for a bare `##`), or null. What
 * `/^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/` matches, in one pass: that regex was
 * quadratic on a heading line with a long run of spaces (12.5 s for one line).
 */
export function atxHeading(line: string): { level: number; title: string | undefined } | null {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let j = i;
  while (j < line.length && line[j] === '#') j++;
  const level = j - i;
  if (level < 1 || level > 6) return null;
  // `.` stops at a line terminator and `$` is the end of the line: one in the rest is no heading.
  if (/[\n\r\u2028\u2029]/.test(line.slice(j))) return null;
  let end = line.length;
  while (end > j && blank(line[end - 1])) end--;
  if (end === j) return { level, title: j < line.length ? '' : undefined };
  if (!blank(line[j])) return null;
  let start = j;
  while (blank(line[start])) start++;
  // A closing run of '#' counts only when a blank inside the title precedes it.
  let h = end;
  while (h > start && line[h - 1] === '#') h--;
  if (h < end && h > start && blank(line[h - 1])) {
    end = h;
    while (blank(line[end - 1])) end--;
  }
  return { level, title: line.slice(start, end) };
}

interface Section {
  heading: string | null;
  headingLine: number;
  start: number;
  end: number;
}
interface Unit {
  text: string;
  line: number;
  tokens: number;
  breakable: boolean;
}

/** Split lines into sections at ATX headings (`#` … `######`) outside fenced code blocks. */
function sections(lines: string[]): Section[] {
  const out: Section[] = [];
  const stack: { level: number; title: string }[] = [];
  let fence: string | null = null;
  let cur: Section = { heading: null, headingLine: -1, start: 0, end: 0 };
  lines.forEach((line, i) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = null;
      return;
    }
    if (f) {
      fence = f[1]!;
      return;
    }
    const h = atxHeading(line);
    if (!h) return;
    cur.end = i;
    out.push(cur);
    const level = h.level;
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    const title = (h.title ?? '').trim();
    if (title) stack.push({ level, title });
    cur = { heading: stack.length ? stack.map((s) => s.title).join(' > ') : null, headingLine: i, start: i + 1, end: lines.length };
  });
  cur.end = lines.length;
  out.push(cur);
  return out;
}

/** Lines of a section as units no larger than `budget` tokens (over-long lines are split by words, then characters). */
function units(lines: string[], s: Section, budget: number): Unit[] {
  const out: Unit[] = [];
  let fence: string | null = null;
  for (let i = s.start; i < s.end; i++) {
    const line = lines[i]!;
    const f = FENCE.exec(line);
    const inFence = fence !== null;
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = null;
    } else if (f) fence = f[1]!;
    const tokens = estimateTokens(line);
    if (tokens <= budget) {
      out.push({ text: line, line: i, tokens, breakable: !inFence && !line.trim() });
      continue;
    }
    // The piece's words and characters are counted as it grows (each split part ends in
    // whitespace, so counts add up): re-estimating the whole piece per part cost O(budget) each.
    let piece = '';
    let words = 0;
    const estimate = (w: number, chars: number): number => (chars ? Math.max(Math.ceil(w * 1.3), Math.ceil(chars / 4)) : 0);
    const flush = (): void => {
      if (piece) out.push({ text: piece, line: i, tokens: estimate(words, piece.length), breakable: false });
      piece = '';
      words = 0;
    };
    for (const word of line.split(/(?<=\s)/)) {
      const w = wordCount(word);
      if (estimate(w, word.length) > budget) {
        flush();
        for (let k = 0; k < word.length; k += budget * 4) out.push({ text: word.slice(k, k + budget * 4), line: i, tokens: budget, breakable: false });
      } else if (estimate(words + w, piece.length + word.length) > budget) {
        flush();
        piece = word;
        words = w;
      } else {
        piece += word;
        words += w;
      }
    }
    flush();
  }
  return out;
}

/**
 * Split Markdown into heading-aware chunks: a chunk never spans two sections, carries its
 * heading path, stays near `maxTokens`, prefers to end at a blank line, and long sections
 * overlap by about `overlapTokens`. Sections with only a heading produce no chunk (the heading
 * appears in its subsections' heading paths).
 */
export function chunkMarkdown(text: string, options: ChunkOptions = {}): MarkdownChunk[] {
  const maxTokens = options.maxTokens ?? 400;
  const overlap = options.overlapTokens ?? 80;
  if (!Number.isInteger(maxTokens) || maxTokens < 32 || maxTokens > 8000) throw invalid('maxTokens must be a whole number from 32 to 8000.');
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= maxTokens / 2)
    throw invalid('overlapTokens must be a whole number ≥ 0 and less than half of maxTokens.');
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const out: MarkdownChunk[] = [];
  for (const s of sections(lines)) {
    const head = s.heading ? `${s.heading}\n\n` : '';
    const budget = Math.max(16, maxTokens - estimateTokens(head));
    const u = units(lines, s, budget);
    let a = 0;
    let b = u.length;
    while (a < b && !u[a]!.text.trim()) a++;
    while (b > a && !u[b - 1]!.text.trim()) b--;
    let start = a;
    let firstChunk = true;
    while (start < b) {
      let end = start;
      let tokens = 0;
      let lastBreak = -1;
      let tokensAtBreak = 0;
      while (end < b && (end === start || tokens + u[end]!.tokens <= budget)) {
        tokens += u[end]!.tokens;
        end++;
        if (u[end - 1]!.breakable) {
          lastBreak = end;
          tokensAtBreak = tokens;
        }
      }
      // Prefer ending at a paragraph break when one lies in the second half of the chunk.
      if (end < b && lastBreak > start && tokensAtBreak >= budget / 2) end = lastBreak;
      let last = end;
      while (last > start && !u[last - 1]!.text.trim()) last--;
      const body = u
        .slice(start, last)
        .map((x) => x.text)
        .join('\n');
      out.push({
        content: head + body,
        lineStart: (firstChunk && s.headingLine >= 0 ? s.headingLine : u[start]!.line) + 1,
        lineEnd: u[last - 1]!.line + 1,
        heading: s.heading,
      });
      firstChunk = false;
      if (end >= b) break;
      // Overlap: repeat the last lines of this chunk (up to `overlap` tokens) at the start of the next.
      let next = end;
      let ov = 0;
      while (next - 1 > start && ov + u[next - 1]!.tokens <= overlap) {
        next--;
        ov += u[next]!.tokens;
      }
      while (next < end && !u[next]!.text.trim()) next++;
      start = next;
    }
  }
  return out;
}

// ---- files ---------------------------------------------------------------------------

/** Options for {@link importMarkdown}. */
export interface MarkdownImportOptions extends ChunkOptions {
  /** Namespace (default `"default"`). */
  namespace?: string;
  /** Category of every chunk. */
  category?: string;
  /** Called after each file. */
  onFile?: (file: MarkdownFileResult) => void;
  /** Called before the first write and after each file: chunks handled so far (unchanged files count) of all chunks. */
  onProgress?: (done: number, total: number) => void;
}

/** What happened to one file. */
export interface MarkdownFileResult {
  /** Absolute path (the identity of the file's memories). */
  path: string;
  /** `added` (first import), `replaced` (changed since), `unchanged` (nothing written). */
  status: 'added' | 'replaced' | 'unchanged';
  /** Chunks the file has now. */
  chunks: number;
  /** Old chunks deleted because the changed file has fewer. */
  removed: number;
}

/** Result of {@link importMarkdown}. */
export interface MarkdownImportResult {
  files: MarkdownFileResult[];
  added: number;
  replaced: number;
  unchanged: number;
  /** Chunks written. */
  chunks: number;
  /** Old chunks deleted. */
  removed: number;
}

const MD_EXT = new Set(['.md', '.markdown']);
const DATED = /^(\d{4})-(\d{2})-(\d{2})(?=$|[^0-9])/;
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Chunker identity: a file imported with other settings is re-chunked even if unchanged. */
const CHUNKER = 'md1';

/** Every Markdown file under a directory (skipping hidden directories and node_modules), sorted. */
async function markdownFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true });
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules') await walk(p);
      } else if ((e.isFile() || e.isSymbolicLink()) && MD_EXT.has(extname(e.name).toLowerCase())) {
        if (
          e.isSymbolicLink() &&
          !(await stat(p).then(
            (s) => s.isFile(),
            () => false,
          ))
        )
          continue;
        out.push(p);
      }
    }
  };
  await walk(dir);
  return out.sort();
}

/** The date in a daily file's name (`2026-03-01.md`, `2026-03-01-standup.md`), at 00:00 UTC. */
export function dateFromFileName(path: string): string | undefined {
  const m = DATED.exec(basename(path));
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return undefined;
  return t.toISOString();
}

function keyFor(path: string, i: number): string {
  const plain = `md:${path}#${i}`;
  if (plain.length <= 512 && !CONTROL.test(plain) && (plain as string & { isWellFormed(): boolean }).isWellFormed()) return plain;
  return `md:sha256:${createHash('sha256').update(path).digest('hex').slice(0, 40)}#${i}`;
}

interface ParsedFile {
  path: string;
  fileHash: string;
  chunks: MarkdownChunk[];
  chunking: string;
  createdAt: string;
  date: string | undefined;
}

/** Read, decode and chunk a file (no writes). */
async function parseFile(path: string, o: ChunkOptions): Promise<ParsedFile> {
  const bytes = await readFile(path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid(`${path} is not UTF-8 text. Convert it to UTF-8 or leave it out; nothing was imported.`);
  }
  const chunkOpts = { maxTokens: o.maxTokens ?? 400, overlapTokens: o.overlapTokens ?? 80 };
  const date = dateFromFileName(path);
  return {
    path,
    fileHash: createHash('sha256').update(bytes).digest('hex'),
    chunks: chunkMarkdown(text, chunkOpts).filter((c) => c.content.trim()),
    chunking: `${CHUNKER}:${chunkOpts.maxTokens}:${chunkOpts.overlapTokens}`,
    createdAt: date ?? (await stat(path)).mtime.toISOString(),
    date,
  };
}

/** A parsed file with the memories it has now, and whether it needs writing. */
interface FilePlan {
  file: ParsedFile;
  existing: MemoryRecord[];
  keys: string[];
  unchanged: boolean;
}

async function planFile(mem: Memory, file: ParsedFile, o: MarkdownImportOptions & { namespace: string }): Promise<FilePlan> {
  const { path, fileHash, chunks, chunking } = file;
  const existing: MemoryRecord[] = await mem.list({ namespace: o.namespace, metadata: { source: 'markdown', path }, limit: 10_000 });
  const category = o.category ?? null;
  const keys = chunks.map((_, i) => keyFor(path, i));
  const unchanged =
    existing.length === chunks.length &&
    existing.every(
      (m) => m.metadata.fileHash === fileHash && m.metadata.chunking === chunking && m.category === category && m.key !== null && keys.includes(m.key),
    );
  return { file, existing, keys, unchanged };
}

async function importFile(mem: Memory, plan: FilePlan, o: MarkdownImportOptions & { namespace: string }): Promise<MarkdownFileResult> {
  const { file, existing, keys } = plan;
  const { path, fileHash, chunks, chunking, createdAt, date } = file;
  if (plan.unchanged) return { path, status: 'unchanged', chunks: chunks.length, removed: 0 };

  const items: AddInput[] = chunks.map((c, i) => ({
    content: c.content,
    key: keys[i]!,
    namespace: o.namespace,
    ...(o.category !== undefined ? { category: o.category } : {}),
    createdAt,
    metadata: {
      source: 'markdown',
      path,
      file: basename(path),
      lineStart: c.lineStart,
      lineEnd: c.lineEnd,
      heading: c.heading,
      chunk: i,
      chunks: chunks.length,
      fileHash,
      chunking,
      ...(date ? { date: date.slice(0, 10) } : {}),
    },
  }));
  if (items.length) await mem.addMany(items);
  const keep = new Set(keys);
  let removed = 0;
  for (const m of existing) {
    if (m.key === null || !keep.has(m.key)) {
      if (await mem.forget(m.id, { namespace: o.namespace })) removed++;
    }
  }
  return { path, status: existing.length ? 'replaced' : 'added', chunks: chunks.length, removed };
}

/**
 * Import a Markdown file, or every Markdown file under a directory. Each chunk is keyed
 * `md:<absolute path>#<n>` and carries `{ source: "markdown", path, lineStart, lineEnd, heading,
 * fileHash, date? }` in its metadata; files named `YYYY-MM-DD….md` get that date as `createdAt`
 * (other files their modification time).
 */
export async function importMarkdown(mem: Memory, target: string, options: MarkdownImportOptions = {}): Promise<MarkdownImportResult> {
  if (typeof target !== 'string' || !target.trim()) throw invalid('importMarkdown needs a file or directory path.');
  const namespace = options.namespace ?? 'default';
  if (namespace === '*') throw invalid('importMarkdown needs one namespace, not "*".');
  const abs = resolve(target);
  const st = await stat(abs).catch(() => null);
  if (!st) throw new MnemoliteError('NOT_FOUND', `${target} does not exist. Pass a Markdown file (e.g. MEMORY.md) or a directory of them.`);
  const files = st.isDirectory() ? await markdownFiles(abs) : [abs];
  if (st.isDirectory() && !files.length) throw new MnemoliteError('NOT_FOUND', `${target} holds no Markdown (.md) files.`);
  // Every file is read and chunked before the first write: an unreadable file imports nothing.
  chunkMarkdown('', options);
  const parsed: ParsedFile[] = [];
  for (const f of files) parsed.push(await parseFile(f, options));
  const plans: FilePlan[] = [];
  for (const f of parsed) plans.push(await planFile(mem, f, { ...options, namespace }));
  // Say how much is coming, so a worker-thread embedder starts its workers for a large import
  // (each file is its own addMany, many of them below the workers' threshold alone).
  mem.embedder?.prepareBulk?.(plans.reduce((n, p) => n + (p.unchanged ? 0 : p.file.chunks.length), 0));
  const total = plans.reduce((n, p) => n + p.file.chunks.length, 0);
  let done = 0;
  options.onProgress?.(done, total);
  const res: MarkdownImportResult = { files: [], added: 0, replaced: 0, unchanged: 0, chunks: 0, removed: 0 };
  for (const p of plans) {
    const r = await importFile(mem, p, { ...options, namespace });
    res.files.push(r);
    res[r.status]++;
    if (r.status !== 'unchanged') res.chunks += r.chunks;
    res.removed += r.removed;
    options.onFile?.(r);
    done += r.chunks;
    options.onProgress?.(done, total);
  }
  return res;
}
