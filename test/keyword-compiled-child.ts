// Child process for keyword-compiled.test.ts, run with --allow-natives-syntax: whether V8 keeps the
// keyword search compiled across a write. Prints one JSON line {before, after} of optimisation status.
import { KeywordIndex } from '../src/search/keyword-index.js';

const grouped = process.argv[2] === 'grouped';
const status = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void;
const optimize = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void;

const kw = new KeywordIndex();
const docs: string[][] = [];
for (let s = 0; s < 2000; s++) {
  const d = ['alpha', `w${s % 50}`, s % 3 ? 'beta' : 'gamma'];
  docs.push(d);
  kw.setLength(s, d.length, grouped ? s % 2 : 0);
}
const load = (t: string): string | null => {
  const out: number[] = [];
  docs.forEach((d, s) => {
    if (d.includes(t)) out.push(s);
  });
  return out.length ? out.join(',') : null;
};
const search = KeywordIndex.prototype.search;
const query = (): unknown => kw.search(['alpha', 'w3', 'beta'], 10, load, (seq) => seq, undefined, undefined, grouped ? 0 : undefined);
prepare(search);
query();
query();
optimize(search);
query();
const before = status(search);
kw.add(2000, ['alpha', 'beta', 'w3'], 0);
process.stdout.write(`${JSON.stringify({ before, after: status(search) })}\n`);
