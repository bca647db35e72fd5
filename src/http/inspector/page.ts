// The inspector's page and style sheet, served as strings so they always ship inside dist/
// (no build step, no files to copy). The script is in script.ts.

const ICON =
  'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 16 16%22%3E%3Crect width=%2216%22 height=%2216%22 rx=%223%22 fill=%22%23334155%22/%3E%3Cpath d=%22M4 12V4l4 5 4-5v8%22 stroke=%22%23fff%22 stroke-width=%221.6%22 fill=%22none%22/%3E%3C/svg%3E';

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mnemolite inspector</title>
<link rel="icon" href="${ICON}">
<link rel="stylesheet" href="/inspector.css">
<script src="/inspector.js" defer></script>
</head>
<body>
<header class="top">
  <h1>mnemolite <span>inspector</span></h1>
  <div class="file" id="file-path" title="memory file"></div>
  <button type="button" id="token-button" class="ghost" hidden>Token</button>
</header>

<section id="stats" class="stats" aria-label="Statistics">
  <div class="card"><div class="label">Memories</div><div class="value" id="stat-memories">–</div><div class="sub" id="stat-namespaces"></div></div>
  <div class="card"><div class="label">Embedded</div><div class="value" id="stat-embedded">–</div><div class="sub" id="stat-unembedded"></div></div>
  <div class="card wide"><div class="label">Embedding model</div><div class="value small" id="stat-model">–</div><div class="sub" id="stat-semantic"></div></div>
  <div class="card"><div class="label">File size</div><div class="value" id="stat-size">–</div><div class="sub" id="stat-cache"></div></div>
</section>

<form id="controls" class="controls" autocomplete="off">
  <div class="row search">
    <input type="search" id="q" name="q" placeholder="Search memories (keywords or a question)" aria-label="Search query">
    <select id="mode" name="mode" aria-label="Search mode">
      <option value="hybrid">hybrid</option>
      <option value="keyword">keyword</option>
      <option value="vector">vector</option>
    </select>
    <input type="number" id="min-relevance" name="minRelevance" min="0" max="1" step="any" value="0" title="Hide hits below this calibrated relevance (0 to 1; 0.5 drops most off-topic hits)" aria-label="Minimum relevance">
    <button type="submit" id="search-button" class="primary">Search</button>
    <button type="button" id="clear-button">Browse all</button>
  </div>
  <div class="row filters">
    <label>Namespace <select id="f-namespace" name="namespace"><option value="*">all namespaces</option></select></label>
    <label>Category <input id="f-category" name="category" placeholder="any"></label>
    <label>Session <input id="f-session" name="session" placeholder="any"></label>
    <label>Since <input type="datetime-local" id="f-since" name="since"></label>
    <label>Until <input type="datetime-local" id="f-until" name="until"></label>
    <label class="check"><input type="checkbox" id="f-expired" name="expired"> show expired</label>
  </div>
</form>

<section id="profile" class="profile" aria-labelledby="profile-title" hidden>
  <div class="profile-head">
    <h2 id="profile-title">Profile <span class="mono" id="profile-ns"></span></h2>
    <span class="muted" id="profile-meta"></span>
    <button type="button" id="profile-edit" class="small" hidden>Edit profile</button>
  </div>
  <p class="muted profile-note">Working memory: the always-current document at the top of context() for this namespace.</p>
  <pre id="profile-content" class="profile-text"></pre>
</section>

<div id="status" class="status" role="status" aria-live="polite"></div>
<p id="legend" class="legend" hidden>
  <b>Score</b>: fused score, 0 to 1 (adaptive fusion of the two legs; in keyword or vector mode, that leg's own score).
  <b>Keyword rank</b>: position in the full-text (FTS5 BM25) leg. <b>Vector rank</b>: position in the embedding (cosine) leg.
  <span class="badge semantic">semantic only</span> found by meaning, with no keyword in common.
</p>

<table id="results" class="results">
  <thead id="results-head"></thead>
  <tbody id="results-body"></tbody>
</table>
<nav class="pager" id="pager" hidden>
  <button type="button" id="prev">← Newer</button>
  <span id="page-info"></span>
  <button type="button" id="next">Older →</button>
</nav>

<dialog id="edit-dialog" aria-labelledby="edit-title">
  <form method="dialog" id="edit-form">
    <h2 id="edit-title">Edit memory</h2>
    <p class="muted mono" id="edit-id"></p>
    <label>Content <textarea name="content" id="edit-content" rows="6" required></textarea></label>
    <div class="grid3">
      <label>Key <input name="key" id="edit-key" placeholder="none"></label>
      <label>Category <input name="category" id="edit-category" placeholder="none"></label>
      <label>Session <input name="sessionId" id="edit-session" placeholder="none"></label>
    </div>
    <label>Metadata (JSON object) <textarea name="metadata" id="edit-metadata" rows="3" class="mono"></textarea></label>
    <p class="error" id="edit-error" role="alert"></p>
    <div class="actions">
      <button type="button" id="edit-cancel">Cancel</button>
      <button type="submit" id="edit-save" class="primary">Save changes</button>
    </div>
  </form>
</dialog>

<dialog id="delete-dialog" aria-labelledby="delete-title">
  <form method="dialog" id="delete-form">
    <h2 id="delete-title">Delete this memory?</h2>
    <blockquote id="delete-preview"></blockquote>
    <p class="muted">This cannot be undone (export first if you may need it).</p>
    <p class="error" id="delete-error" role="alert"></p>
    <div class="actions">
      <button type="button" id="delete-cancel">Cancel</button>
      <button type="submit" id="delete-confirm" class="danger">Delete</button>
    </div>
  </form>
</dialog>

<dialog id="profile-dialog" aria-labelledby="profile-dialog-title">
  <form method="dialog" id="profile-form">
    <h2 id="profile-dialog-title">Edit profile</h2>
    <p class="muted mono" id="profile-dialog-ns"></p>
    <label>Profile (Markdown, at most 8192 bytes; empty clears it) <textarea id="profile-input" rows="10" class="mono"></textarea></label>
    <p class="error" id="profile-error" role="alert"></p>
    <div class="actions">
      <button type="button" id="profile-cancel">Cancel</button>
      <button type="submit" id="profile-save" class="primary">Save profile</button>
    </div>
  </form>
</dialog>

<dialog id="token-dialog" aria-labelledby="token-title">
  <form method="dialog" id="token-form">
    <h2 id="token-title">Token needed</h2>
    <p class="muted">This server requires a bearer token (MNEMOLITE_TOKEN or one of MNEMOLITE_TOKENS). It is kept in this tab only.</p>
    <label>Token <input type="password" id="token-input" autocomplete="off"></label>
    <p class="error" id="token-error" role="alert"></p>
    <div class="actions"><button type="submit" id="token-save" class="primary">Use token</button></div>
  </form>
</dialog>
<noscript>The inspector needs JavaScript. The JSON API is described at <a href="/openapi.json">/openapi.json</a>.</noscript>
</body>
</html>
`;

export const INSPECTOR_CSS = `
:root {
  --bg: #f6f7f9; --panel: #fff; --ink: #1f2933; --muted: #66727f; --line: #dde1e6;
  --accent: #2f5bd3; --danger: #c0392b; --sem: #7c3aed; --kw: #0b7285; --both: #2b8a3e;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Ubuntu, sans-serif; font-size: 14px;
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: var(--bg); color: var(--ink); padding: 0 24px 40px; }
.mono, code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12px; }
.muted { color: var(--muted); }
.top { display: flex; align-items: baseline; gap: 16px; padding: 16px 0 8px; border-bottom: 1px solid var(--line); }
.top h1 { margin: 0; font-size: 20px; letter-spacing: -0.01em; }
.top h1 span { font-weight: 400; color: var(--muted); }
.top .file { color: var(--muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; flex: 1; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.stats { display: grid; grid-template-columns: repeat(5, minmax(0, 1fr)); gap: 12px; margin: 16px 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 0; }
.card.wide { grid-column: span 2; }
.card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; }
.card .value { font-size: 22px; font-weight: 600; margin-top: 2px; }
.card .value.small { font-size: 15px; word-break: break-all; }
.card .sub { color: var(--muted); font-size: 12px; margin-top: 2px; overflow-wrap: anywhere; }
.controls { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; display: grid; gap: 10px; }
.controls .row { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
.controls .search input[type=search] { flex: 1; min-width: 240px; font-size: 15px; }
.controls label { display: grid; gap: 3px; color: var(--muted); font-size: 12px; }
input, select, textarea, button { font: inherit; color: inherit; }
input, select, textarea { border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; background: #fff; }
textarea { width: 100%; resize: vertical; }
button { border: 1px solid var(--line); background: #fff; border-radius: 6px; padding: 6px 12px; cursor: pointer; }
button:hover { border-color: #b8c0c8; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
button.ghost { background: transparent; }
button.small { padding: 2px 8px; font-size: 12px; }
button:disabled { opacity: 0.5; cursor: default; }
.status { margin: 12px 2px 6px; min-height: 18px; color: var(--muted); }
.status.error { color: var(--danger); }
.legend { margin: 0 2px 8px; color: var(--muted); font-size: 12px; }
.results { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.results th { text-align: left; font-size: 12px; color: var(--muted); font-weight: 600; padding: 8px 10px; border-bottom: 1px solid var(--line); background: #fafbfc; white-space: nowrap; }
.results td { padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
.results tr:last-child td { border-bottom: none; }
.results td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.results td.when { white-space: nowrap; color: var(--muted); font-size: 12px; }
.results td.content { width: 50%; }
.results .text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 4.5em; overflow: hidden; cursor: pointer; }
.results tr.expanded .text { max-height: none; }
.results .meta { color: var(--muted); font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }
.results tr.semantic-only td:first-child { box-shadow: inset 3px 0 0 var(--sem); }
.results td.actions { white-space: nowrap; text-align: right; }
.results td.actions button + button { margin-left: 4px; }
.tag { display: inline-block; background: #eef1f4; border-radius: 4px; padding: 0 6px; font-size: 12px; margin: 0 4px 2px 0; }
.tag.pinned { background: #fff3bf; }
.tag.expired { background: #ffe3e3; color: var(--danger); }
.controls label.check { display: flex; align-items: center; gap: 6px; padding-bottom: 7px; }
.badge { display: inline-block; border-radius: 10px; padding: 1px 8px; font-size: 11px; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.semantic { background: var(--sem); }
.badge.keyword { background: var(--kw); }
.badge.both { background: var(--both); }
.none { color: #aab2bb; }
.pager { display: flex; gap: 12px; align-items: center; justify-content: center; margin: 12px 0; color: var(--muted); }
dialog { border: 1px solid var(--line); border-radius: 10px; padding: 18px 20px; width: min(640px, 92vw); box-shadow: 0 10px 40px rgba(0,0,0,0.18); }
dialog::backdrop { background: rgba(15, 23, 42, 0.35); }
dialog h2 { margin: 0 0 6px; font-size: 17px; }
dialog label { display: grid; gap: 3px; margin: 10px 0 0; color: var(--muted); font-size: 12px; }
dialog input { width: 100%; }
dialog .grid3 { display: grid; grid-template-columns: repeat(3, 1fr); gap: 10px; }
dialog .actions { display: flex; justify-content: flex-end; gap: 8px; margin-top: 14px; }
dialog blockquote { margin: 10px 0; padding: 8px 12px; border-left: 3px solid var(--danger); background: #fdf3f2; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 12em; overflow: auto; }
.error { color: var(--danger); min-height: 1em; margin: 8px 0 0; }
.profile { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; margin: 12px 0 0; }
.profile-head { display: flex; align-items: baseline; gap: 12px; }
.profile-head h2 { margin: 0; font-size: 15px; }
.profile-head button { margin-left: auto; }
.profile-note { margin: 2px 0 6px; font-size: 12px; }
.profile-text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 16em; overflow: auto; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.profile-text.empty { color: var(--muted); font-style: italic; font-family: inherit; }
@media (max-width: 900px) { .stats { grid-template-columns: repeat(2, 1fr); } .results td.content { width: auto; } }
`;
