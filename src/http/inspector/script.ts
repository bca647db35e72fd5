// The inspector's browser script, served as /inspector.js. Plain ES2020 for any current browser;
// it only calls the JSON API and builds the DOM with textContent (memory text is never parsed as HTML).
// Kept in a String.raw literal, so it must not contain backticks or dollar-brace sequences.

// biome-ignore lint/complexity/noUselessStringRaw: raw so a backslash added to the browser code (a regex) reaches the browser unchanged
export const INSPECTOR_JS = String.raw`
(function () {
  'use strict';

  var PAGE = 50;
  var state = {
    token: sessionStorage.getItem('mnemolite.token') || '',
    me: null,
    stats: null,
    view: 'browse',     // 'browse' or 'search'
    offset: 0,
    total: 0,
    rows: [],
    editing: null,
    deleting: null,
    profile: null       // the selected namespace's profile, as GET /api/namespaces/{ns}/profile returns it
  };

  function $(id) { return document.getElementById(id); }

  // h('tag', { attr: value, onclick: fn }, child, ...): children are nodes or text, never HTML.
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === null || v === undefined || v === false) return;
        if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
        else if (k === 'className') el.className = v;
        else if (k === 'text') el.textContent = v;
        else el.setAttribute(k, v === true ? '' : String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }
  function append(el, c) {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { append(el, x); }); return; }
    el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); }

  function setStatus(text, isError) {
    var s = $('status');
    s.textContent = text;
    s.className = isError ? 'status error' : 'status';
  }

  // ---- API ---------------------------------------------------------------------------------

  async function api(method, path, body) {
    var headers = { accept: 'application/json' };
    if (state.token) headers.authorization = 'Bearer ' + state.token;
    var init = { method: method, headers: headers };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var res = await fetch(path, init);
    var data = null;
    var type = res.headers.get('content-type') || '';
    if (type.indexOf('json') !== -1) data = await res.json().catch(function () { return null; });
    if (res.ok) return data;
    var msg = data && data.error && data.error.message ? data.error.message : 'HTTP ' + res.status;
    var err = new Error(msg);
    err.status = res.status;
    if (res.status === 401) askToken(msg);
    throw err;
  }

  function askToken(msg) {
    $('token-button').hidden = false;
    $('token-error').textContent = state.token ? msg : '';
    var d = $('token-dialog');
    if (!d.open) d.showModal();
  }

  // ---- filters -----------------------------------------------------------------------------

  function isoFromLocal(v) {
    if (!v) return undefined;
    var d = new Date(v);
    return isNaN(d.getTime()) ? undefined : d.toISOString();
  }

  function filters() {
    var f = {};
    var ns = $('f-namespace').value;
    if (ns) f.namespace = ns;
    var c = $('f-category').value.trim();
    if (c) f.category = c;
    var s = $('f-session').value.trim();
    if (s) f.sessionId = s;
    var since = isoFromLocal($('f-since').value);
    if (since) f.since = since;
    var until = isoFromLocal($('f-until').value);
    if (until) f.until = until;
    return f;
  }

  function listParams() {
    var f = filters();
    if ($('f-expired').checked) f.includeExpired = 'true';
    return f;
  }

  // ---- stats -------------------------------------------------------------------------------

  function fmtBytes(n) {
    if (n < 1024) return n + ' B';
    var units = ['KB', 'MB', 'GB', 'TB'];
    var v = n, i = -1;
    do { v /= 1024; i++; } while (v >= 1024 && i < units.length - 1);
    return (v >= 100 ? v.toFixed(0) : v.toFixed(1)) + ' ' + units[i];
  }

  function fmtDate(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) return iso;
    function p(n) { return (n < 10 ? '0' : '') + n; }
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + ' ' + p(d.getHours()) + ':' + p(d.getMinutes());
  }

  // A limited token works in one namespace at a time; with none to show there is nothing to load.
  function noNamespace() {
    if (!state.me || state.me.namespaces === '*' || $('f-namespace').value) return false;
    setStatus('No namespace of this token (' + state.me.namespaces.join(', ') + ') holds memories yet.');
    return true;
  }

  async function loadStats() {
    if (noNamespace()) return;
    var ns = $('f-namespace').value;
    var q = ns && ns !== '*' && state.me && state.me.namespaces !== '*' ? '?namespace=' + encodeURIComponent(ns) : '';
    var s = await api('GET', '/api/stats' + q);
    state.stats = s;
    $('file-path').textContent = s.path || '';
    $('stat-memories').textContent = String(s.memories);
    var names = Object.keys(s.namespaces);
    $('stat-namespaces').textContent = names.length + (names.length === 1 ? ' namespace' : ' namespaces');
    $('stat-embedded').textContent = String(s.embedded);
    $('stat-unembedded').textContent = s.unembedded ? s.unembedded + ' without a vector (run mnemolite reindex)' : 'all memories have vectors';
    if (s.embedding) {
      $('stat-model').textContent = s.embedding.model;
      $('stat-semantic').textContent = s.embedding.provider + ', ' + s.embedding.dims + ' dims, semantic recall ' + (s.semantic ? 'on' : 'off');
    } else {
      $('stat-model').textContent = 'none';
      $('stat-semantic').textContent = s.semantic ? 'semantic recall on' : 'semantic recall off' + (s.semanticReason ? ' (' + s.semanticReason + ')' : '');
    }
    // A namespace-limited token is not told the whole file's size or cache.
    $('stat-size').textContent = s.fileBytes === undefined ? 'n/a' : fmtBytes(s.fileBytes);
    $('stat-cache').textContent = (s.cacheEntries === undefined ? '' : s.cacheEntries + ' cached embeddings, ') + 'schema v' + s.schemaVersion;
    var mode = $('mode');
    Array.prototype.forEach.call(mode.options, function (o) { o.disabled = !s.semantic && o.value !== 'keyword'; });
    if (!s.semantic) mode.value = 'keyword';
    fillNamespaces(names);
  }

  function fillNamespaces(fromStats) {
    var sel = $('f-namespace');
    var current = sel.value;
    var restricted = state.me && state.me.namespaces !== '*';
    // A limited token lists its exact names plus the namespaces in use inside its grant (the
    // server filters them): a prefix such as team-* cannot be listed any other way.
    var names = restricted
      ? state.me.namespaces.filter(function (n) { return n.slice(-1) !== '*'; }).concat(state.me.namespacesInUse || [], fromStats)
      : fromStats.slice();
    names = names.filter(function (n, i) { return names.indexOf(n) === i; }).sort();
    clear(sel);
    if (!restricted) sel.appendChild(h('option', { value: '*' }, 'all namespaces'));
    names.forEach(function (n) { sel.appendChild(h('option', { value: n }, n)); });
    if (Array.prototype.some.call(sel.options, function (o) { return o.value === current; })) sel.value = current;
  }

  // ---- views -------------------------------------------------------------------------------

  function tags(m) {
    return [
      h('span', { className: 'tag', title: 'namespace' }, m.namespace),
      m.eventAt ? h('span', { className: 'tag happened', title: 'when it happened (eventAt)' }, 'happened ' + fmtDate(m.eventAt)) : null,
      m.category ? h('span', { className: 'tag', title: 'category' }, m.category) : null,
      m.sessionId ? h('span', { className: 'tag', title: 'session' }, 'session ' + m.sessionId) : null,
      m.key ? h('span', { className: 'tag', title: 'key' }, 'key ' + m.key) : null,
      m.pinned ? h('span', { className: 'tag pinned', title: 'pinned: never expires, never pruned' }, 'pinned') : null,
      m.importance !== undefined ? h('span', { className: 'tag', title: 'importance' }, 'importance ' + m.importance) : null,
      m.expiresAt ? h('span', { className: 'tag' + (new Date(m.expiresAt).getTime() <= Date.now() ? ' expired' : ''), title: 'expiry' }, (new Date(m.expiresAt).getTime() <= Date.now() ? 'expired ' : 'expires ') + fmtDate(m.expiresAt)) : null,
      m.supersededBy ? h('span', { className: 'tag', title: 'replaced by ' + m.supersededBy }, 'superseded') : null
    ];
  }

  function contentCell(m) {
    var meta = Object.keys(m.metadata || {}).length ? JSON.stringify(m.metadata) : '';
    return h('td', { className: 'content' },
      h('div', { className: 'text', title: 'click to expand', onclick: function (e) { e.currentTarget.closest('tr').classList.toggle('expanded'); } }, m.content),
      h('div', { className: 'meta' }, tags(m), meta ? h('span', { className: 'mono' }, meta) : null));
  }

  function actionsCell(m) {
    return h('td', { className: 'actions' },
      h('button', { type: 'button', className: 'small edit', 'aria-label': 'Edit memory', onclick: function () { openEdit(m); } }, 'Edit'),
      h('button', { type: 'button', className: 'small delete', 'aria-label': 'Delete memory', onclick: function () { openDelete(m); } }, 'Delete'));
  }

  function head(cols) {
    var thead = $('results-head');
    clear(thead);
    thead.appendChild(h('tr', null, cols.map(function (c) { return h('th', { className: c[1] || '' }, c[0]); })));
  }

  function renderBrowse(data) {
    state.view = 'browse';
    state.rows = data.memories;
    state.total = data.total;
    $('legend').hidden = true;
    head([['Created'], ['Memory'], ['Updated'], ['', 'actions']]);
    var body = $('results-body');
    clear(body);
    data.memories.forEach(function (m) {
      body.appendChild(h('tr', { 'data-id': m.id },
        h('td', { className: 'when' }, fmtDate(m.createdAt)),
        contentCell(m),
        h('td', { className: 'when' }, fmtDate(m.updatedAt)),
        actionsCell(m)));
    });
    var from = data.total ? data.offset + 1 : 0;
    var to = data.offset + data.memories.length;
    $('pager').hidden = data.total <= PAGE && data.offset === 0;
    $('page-info').textContent = from + '–' + to + ' of ' + data.total;
    $('prev').disabled = data.offset === 0;
    $('next').disabled = to >= data.total;
    setStatus(data.total ? data.total + (data.total === 1 ? ' memory' : ' memories') + ' match the filters' : 'No memories match the filters.');
  }

  function matchOf(hit) {
    var k = hit.keywordRank !== undefined, v = hit.vectorRank !== undefined;
    if (k && v) return { cls: 'both', label: 'keyword + semantic', title: 'found by both legs' };
    if (v) return { cls: 'semantic', label: 'semantic only', title: 'found by meaning only: no keyword in common with the query' };
    return { cls: 'keyword', label: 'keyword only', title: 'found by the keyword leg only' };
  }

  function rank(n) {
    return n === undefined ? h('span', { className: 'none', title: 'not found by this leg' }, '–') : String(n);
  }

  function renderSearch(query, mode, hits) {
    state.view = 'search';
    state.rows = hits;
    $('legend').hidden = false;
    $('pager').hidden = true;
    head([['#', 'num'], ['Score', 'num'], ['Relevance', 'num'], ['Keyword rank', 'num'], ['Vector rank', 'num'], ['Match'], ['Memory'], ['Created'], ['', 'actions']]);
    var body = $('results-body');
    clear(body);
    hits.forEach(function (hit, i) {
      var m = matchOf(hit);
      body.appendChild(h('tr', { 'data-id': hit.id, 'data-match': m.cls === 'semantic' ? 'semantic-only' : m.cls, className: m.cls === 'semantic' ? 'semantic-only' : '' },
        h('td', { className: 'num' }, String(i + 1)),
        h('td', { className: 'num score', title: String(hit.score) }, hit.score.toFixed(4)),
        h('td', { className: 'num relevance', title: 'calibrated relevance, 0 to 1' }, hit.relevance === undefined ? '–' : hit.relevance.toFixed(2)),
        h('td', { className: 'num keyword-rank' }, rank(hit.keywordRank)),
        h('td', { className: 'num vector-rank' }, rank(hit.vectorRank)),
        h('td', { className: 'match' }, h('span', { className: 'badge ' + m.cls, title: m.title }, m.label)),
        contentCell(hit),
        h('td', { className: 'when' }, fmtDate(hit.createdAt)),
        actionsCell(hit)));
    });
    var sem = hits.filter(function (x) { return x.vectorRank !== undefined && x.keywordRank === undefined; }).length;
    setStatus(hits.length + (hits.length === 1 ? ' hit' : ' hits') + ' for "' + query + '" (' + mode + ')' + (mode === 'hybrid' ? ', ' + sem + ' semantic only' : ''));
  }

  async function browse() {
    if (noNamespace()) return;
    var f = listParams();
    var p = new URLSearchParams();
    Object.keys(f).forEach(function (k) { p.set(k, f[k]); });
    p.set('limit', String(PAGE));
    p.set('offset', String(state.offset));
    setStatus('Loading…');
    renderBrowse(await api('GET', '/api/memories?' + p.toString()));
  }

  async function search() {
    if (noNamespace()) return;
    var q = $('q').value.trim();
    if (!q) { state.offset = 0; return browse(); }
    var mode = $('mode').value;
    var body = filters();
    body.query = q;
    body.mode = mode;
    body.limit = 50;
    var minRel = parseFloat($('min-relevance').value);
    if (!isNaN(minRel) && minRel > 0) body.minRelevance = minRel;
    if (!body.namespace) body.namespace = '*';
    setStatus('Searching…');
    var res = await api('POST', '/api/recall', body);
    renderSearch(q, mode, res.hits);
  }

  function refresh() {
    return (state.view === 'search' ? search() : browse()).then(function () { return loadStats(); });
  }

  function run(p) {
    return Promise.resolve(p).catch(function (e) { setStatus(e.message, true); });
  }

  // ---- profile (working memory) ------------------------------------------------------------

  function profilePath(ns) { return '/api/namespaces/' + encodeURIComponent(ns) + '/profile'; }

  // One namespace selected: show its profile (editable unless the server is read-only); all: none.
  async function loadProfile() {
    var ns = $('f-namespace').value;
    if (!ns || ns === '*') { state.profile = null; $('profile').hidden = true; return; }
    var p = await api('GET', profilePath(ns));
    if ($('f-namespace').value !== ns) return; // another namespace was chosen meanwhile
    var kept = p.version ? (await api('GET', profilePath(ns) + '/history?limit=1')).total : 0;
    state.profile = p;
    $('profile').hidden = false;
    $('profile-ns').textContent = ns;
    var text = $('profile-content');
    text.textContent = p.version && p.content ? p.content : p.version ? '(empty: cleared)' : 'No profile yet.';
    text.className = p.version && p.content ? 'profile-text' : 'profile-text empty';
    $('profile-meta').textContent = p.version
      ? 'version ' + p.version + ' · updated ' + fmtDate(p.updatedAt) + ' · ' + kept + (kept === 1 ? ' version kept' : ' versions kept')
      : '';
    var edit = $('profile-edit');
    edit.hidden = !!(state.me && state.me.readOnly);
    edit.textContent = p.version ? 'Edit profile' : 'Write profile';
  }

  function openProfile() {
    var p = state.profile;
    if (!p) return;
    $('profile-dialog-ns').textContent = p.namespace + ' · version ' + p.version;
    $('profile-input').value = p.content;
    $('profile-error').textContent = '';
    $('profile-dialog').showModal();
    $('profile-input').focus();
  }

  async function saveProfile(ev) {
    ev.preventDefault();
    var p = state.profile;
    if (!p) return;
    var content = $('profile-input').value;
    if (content === p.content && p.version) { $('profile-dialog').close(); setStatus('Nothing changed.'); return; }
    $('profile-save').disabled = true;
    try {
      // expectedVersion: another writer's change in between is a 409, never overwritten.
      var saved = await api('PUT', profilePath(p.namespace), { content: content, expectedVersion: p.version });
      $('profile-dialog').close();
      await loadProfile();
      setStatus('Saved the profile of ' + p.namespace + ' (version ' + saved.version + ').');
    } catch (e) {
      $('profile-error').textContent = e.message;
      if (e.status === 409) {
        await loadProfile();
        $('profile-dialog-ns').textContent = p.namespace + ' · now version ' + state.profile.version + ': your text is kept here; save again to replace it';
      }
    } finally {
      $('profile-save').disabled = false;
    }
  }

  // ---- edit & delete ------------------------------------------------------------------------

  function openEdit(m) {
    state.editing = m;
    $('edit-id').textContent = m.id + ' · ' + m.namespace;
    $('edit-content').value = m.content;
    $('edit-key').value = m.key || '';
    $('edit-category').value = m.category || '';
    $('edit-session').value = m.sessionId || '';
    $('edit-metadata').value = JSON.stringify(m.metadata || {}, null, 2);
    $('edit-error').textContent = '';
    $('edit-dialog').showModal();
    $('edit-content').focus();
  }

  async function saveEdit(ev) {
    ev.preventDefault();
    var m = state.editing;
    if (!m) return;
    var patch = {};
    var content = $('edit-content').value;
    if (content !== m.content) patch.content = content;
    // Only fields the user changed are sent, exactly as typed: trimming an untouched " key " would rename it.
    [['key', 'edit-key'], ['category', 'edit-category'], ['sessionId', 'edit-session']].forEach(function (f) {
      var v = $(f[1]).value;
      var was = m[f[0]] === undefined || m[f[0]] === null ? '' : m[f[0]];
      if (v === was) return;
      patch[f[0]] = v.trim() === '' ? null : v;
    });
    var metaText = $('edit-metadata').value.trim() || '{}';
    var meta;
    try { meta = JSON.parse(metaText); } catch (e) { $('edit-error').textContent = 'Metadata is not valid JSON.'; return; }
    if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) { $('edit-error').textContent = 'Metadata must be a JSON object, e.g. {"source": "chat"}.'; return; }
    if (JSON.stringify(meta) !== JSON.stringify(m.metadata || {})) patch.metadata = meta;
    if (!Object.keys(patch).length) { $('edit-dialog').close(); setStatus('Nothing changed.'); return; }
    $('edit-save').disabled = true;
    try {
      await api('PATCH', '/api/memories/' + encodeURIComponent(m.id), patch);
      $('edit-dialog').close();
      state.editing = null;
      await refresh();
      setStatus('Saved memory ' + m.id + '.');
    } catch (e) {
      $('edit-error').textContent = e.message;
    } finally {
      $('edit-save').disabled = false;
    }
  }

  function openDelete(m) {
    state.deleting = m;
    $('delete-preview').textContent = m.content;
    $('delete-error').textContent = '';
    $('delete-dialog').showModal();
    $('delete-cancel').focus();
  }

  async function confirmDelete(ev) {
    ev.preventDefault();
    var m = state.deleting;
    if (!m) return;
    $('delete-confirm').disabled = true;
    try {
      await api('DELETE', '/api/memories/' + encodeURIComponent(m.id));
      $('delete-dialog').close();
      state.deleting = null;
      await refresh();
      setStatus('Deleted memory ' + m.id + '.');
    } catch (e) {
      $('delete-error').textContent = e.message;
    } finally {
      $('delete-confirm').disabled = false;
    }
  }

  // ---- wiring -------------------------------------------------------------------------------

  async function start() {
    state.me = await api('GET', '/api/me');
    $('token-button').hidden = state.me.auth !== 'token';
    if (state.me.namespaces !== '*') fillNamespaces([]);
    await loadStats();
    await browse();
    await loadProfile();
  }

  function init() {
    $('controls').addEventListener('submit', function (e) { e.preventDefault(); state.offset = 0; run(search()); });
    $('clear-button').addEventListener('click', function () { $('q').value = ''; state.offset = 0; run(browse()); });
    ['f-namespace', 'f-since', 'f-until', 'f-expired'].forEach(function (id) {
      $(id).addEventListener('change', function () { state.offset = 0; run(state.view === 'search' ? search() : browse().then(loadStats)); });
    });
    ['f-category', 'f-session'].forEach(function (id) {
      $(id).addEventListener('keydown', function (e) { if (e.key === 'Enter') { e.preventDefault(); state.offset = 0; run(state.view === 'search' ? search() : browse()); } });
      $(id).addEventListener('change', function () { state.offset = 0; run(state.view === 'search' ? search() : browse()); });
    });
    $('f-namespace').addEventListener('change', function () { run(loadProfile()); });
    $('profile-edit').addEventListener('click', openProfile);
    $('profile-form').addEventListener('submit', function (e) { run(saveProfile(e)); });
    $('profile-cancel').addEventListener('click', function () { $('profile-dialog').close(); });
    $('prev').addEventListener('click', function () { state.offset = Math.max(0, state.offset - PAGE); run(browse()); });
    $('next').addEventListener('click', function () { state.offset += PAGE; run(browse()); });
    $('edit-form').addEventListener('submit', function (e) { run(saveEdit(e)); });
    $('edit-cancel').addEventListener('click', function () { $('edit-dialog').close(); state.editing = null; });
    $('delete-form').addEventListener('submit', function (e) { run(confirmDelete(e)); });
    $('delete-cancel').addEventListener('click', function () { $('delete-dialog').close(); state.deleting = null; });
    $('token-button').addEventListener('click', function () { askToken(''); });
    $('token-form').addEventListener('submit', function (e) {
      e.preventDefault();
      state.token = $('token-input').value.trim();
      sessionStorage.setItem('mnemolite.token', state.token);
      $('token-dialog').close();
      run(start());
    });
    run(start());
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
`;
