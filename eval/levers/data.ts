import { readFileSync } from 'node:fs';
export interface Turn {
  conv: string;
  session: number;
  idx: number;
  dia: string;
  speaker: string;
  text: string;
  date: string;
  full: string;
}
export interface Q {
  conv: string;
  question: string;
  evidence: string[];
  category: number;
}
export interface Conv {
  id: string;
  a: string;
  b: string;
  turns: Turn[];
  qs: Q[];
  cat5: Q[];
}
export const IDS = ['26', '30', '41', '43', '47'];
export function load(): Conv[] {
  return IDS.map((id) => {
    const j = JSON.parse(readFileSync(`${process.env.LOCOMO_DIR ?? new URL('../../../shared/locomo-dev/', import.meta.url).pathname}conv-${id}.json`, 'utf8'));
    const turns: Turn[] = [];
    for (let n = 1; j[`session_${n}`]; n++) {
      const date = j[`session_${n}_date_time`];
      j[`session_${n}`].forEach((t: any, i: number) => {
        const full = `${t.speaker}: ${t.text}${t.blip_caption ? ` [${t.blip_caption}]` : ''}`;
        turns.push({ conv: id, session: n, idx: i, dia: t.dia_id, speaker: t.speaker, text: t.text, date, full });
      });
    }
    const dias = new Set(turns.map((t) => t.dia));
    const norm = (e: string) => {
      const m = /^D:?(\d+):0*(\d+)$/.exec(e.trim());
      return m ? `D${Number(m[1])}:${Number(m[2])}` : e;
    };
    const all: Q[] = j.qa.map((q: any) => ({
      conv: id,
      question: q.question,
      category: q.category,
      evidence: [...new Set((q.evidence ?? []).map(norm))].filter((e: any) => dias.has(e)) as string[],
    }));
    return {
      id,
      a: j.speaker_a,
      b: j.speaker_b,
      turns,
      qs: all.filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length),
      cat5: all.filter((q) => q.category === 5),
    };
  });
}
