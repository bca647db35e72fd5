/**
 * A dependency-free SVG line chart: hybrid p50 latency against corpus size, one line per system
 * (log-log). Systems without a hybrid mode (PostgreSQL without pgvector) can be drawn dashed with
 * their keyword p50, marked as such in the legend.
 */
import type { Result } from './systems.js';

const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f'];

/** Render the chart for the given results (synthetic-vector runs with a hybrid mode), plus `keywordOnly` ones dashed. */
export function renderChart(rs: Result[], keywordOnly: Result[] = []): string {
  const W = 720,
    H = 440,
    L = 70,
    R = 190,
    T = 40,
    B = 60;
  const p50 = (r: Result): number => (r.hybrid ? r.hybrid.p50 : r.keyword.p50);
  const hybridSystems = [...new Set(rs.map((r) => r.system))];
  const kwSystems = [...new Set(keywordOnly.map((r) => r.system))].filter((s) => !hybridSystems.includes(s));
  const systems = [...hybridSystems, ...kwSystems];
  const all = [...rs, ...keywordOnly.filter((r) => kwSystems.includes(r.system))];
  const sizes = [...new Set(all.map((r) => r.size))].sort((a, b) => a - b);
  const ys = all.map(p50).filter((v) => v > 0);
  if (!sizes.length || !ys.length) return '<svg xmlns="http://www.w3.org/2000/svg"/>';
  const lx0 = Math.log10(sizes[0]!) - 0.15,
    lx1 = Math.log10(sizes[sizes.length - 1]!) + 0.15;
  const ly0 = Math.floor(Math.log10(Math.min(...ys))),
    ly1 = Math.ceil(Math.log10(Math.max(...ys)));
  const x = (n: number): number => L + ((Math.log10(n) - lx0) / (lx1 - lx0)) * (W - L - R);
  const y = (ms: number): number => T + (1 - (Math.log10(ms) - ly0) / (ly1 - ly0 || 1)) * (H - T - B);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${L}" y="22" font-size="15" font-weight="bold">Hybrid recall p50 latency vs corpus size (512-d, log-log)</text>`);
  for (let e = ly0; e <= ly1; e++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (Math.log10(v) > ly1 + 1e-9) continue;
      const yy = y(v);
      out.push(`<line x1="${L}" x2="${W - R}" y1="${yy}" y2="${yy}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`);
      if (m === 1 || ly1 - ly0 <= 3) out.push(`<text x="${L - 6}" y="${yy + 4}" text-anchor="end">${v >= 1 ? v : v.toPrecision(1)} ms</text>`);
    }
  }
  for (const s of sizes) {
    out.push(`<line x1="${x(s)}" x2="${x(s)}" y1="${T}" y2="${H - B}" stroke="#eee"/>`);
    out.push(`<text x="${x(s)}" y="${H - B + 18}" text-anchor="middle">${s >= 1000 ? `${s / 1000}k` : s}</text>`);
  }
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 18}" text-anchor="middle">memories</text>`);
  out.push(`<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#999"/>`);
  systems.forEach((sys, i) => {
    const kwOnly = kwSystems.includes(sys);
    const pts = all
      .filter((r) => r.system === sys)
      .sort((a, b) => a.size - b.size)
      .map((r) => [x(r.size), y(p50(r))] as const);
    const color = COLORS[i % COLORS.length]!;
    const dash = kwOnly ? ' stroke-dasharray="6,4"' : '';
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2.5"${dash} points="${pts.map((p) => p.map((v) => v.toFixed(1)).join(',')).join(' ')}"/>`);
    for (const [px, py] of pts) out.push(`<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3.5" fill="${color}"/>`);
    const ly = T + 10 + i * 22;
    out.push(`<line x1="${W - R + 14}" x2="${W - R + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2.5"${dash}/>`);
    out.push(`<text x="${W - R + 46}" y="${ly + 4}">${sys.replace(/&/g, '&amp;').replace(/</g, '&lt;')}${kwOnly ? ' *' : ''}</text>`);
  });
  if (kwSystems.length) {
    // Dashed lines are not hybrid latencies: say what they are under the legend.
    const ly = T + 10 + systems.length * 22 + 6;
    out.push(`<text x="${W - R + 14}" y="${ly}" font-size="10.5">* keyword p50: no pgvector on</text>`);
    out.push(`<text x="${W - R + 14}" y="${ly + 14}" font-size="10.5">that server, so no hybrid mode</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
