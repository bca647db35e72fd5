import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Real chat turns (`"<speaker>: <text>"`, every session in order) and questions from the LoCoMo dev
 * half, read in place (never copied into the repository), files in name order. For the speed
 * benchmarks; the quality protocol (captions, dates, evidence) is eval/locomo.ts.
 */
export function locomoCorpus(dir: string): { turns: string[]; questions: string[] } {
  const turns: string[] = [];
  const questions: string[] = [];
  for (const f of readdirSync(dir)
    .filter((x) => x.endsWith('.json'))
    .sort()) {
    const d = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
    for (const k of Object.keys(d).filter((x) => /^session_\d+$/.test(x))) {
      for (const t of d[k] as { speaker: string; text: string }[]) turns.push(`${t.speaker}: ${t.text}`);
    }
    for (const q of d.qa as { question: string }[]) questions.push(q.question);
  }
  return { turns, questions };
}
