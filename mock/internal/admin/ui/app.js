// plantmock dashboard: the journal live, the store, the scenarios and the
// operations of a running mock, through its admin API only.
//
// Everything shown is built with DOM calls and textContent, never markup:
// journal entries hold whatever clients sent.
'use strict';

const API = '../'; // the page is /__admin/ui/, the admin API /__admin/
const KEPT = 5000; // entries of the selected session kept in memory
const ROWS = 1000; // rows rendered at once, the newest that match
const TOKEN_KEY = 'plantmock-admin-token';

const $ = (id) => document.getElementById(id);

const state = {
  session: '', // the selected session; '' is the default one
  entries: [], // its journal, oldest first
  loading: null, // while the journal loads: entries streamed meanwhile
  pending: [], // entries waiting for the next frame
  frame: 0, // the requested animation frame, if any
  keys: new Set(), // entryKey of every entry in entries and pending
  expanded: new Set(), // the rows open, by entryKey
  texts: new WeakMap(), // entry -> the lower-case text the filter searches
  sessions: new Set(['']),
  operations: [], // the document's operations
  document: '', // the selected document of several; '' for all of them
  bases: new Map(), // of a mock of several documents: each one's base path, by name
};

// mounted names an operation of a document as the mock's operations list
// does, with the base path the document is mounted at in front:
// "POST /notes" of tasks at /tasks is "POST /tasks/notes".
function mounted(doc, op) {
  const base = doc && op ? state.bases.get(doc) : undefined;
  if (!base || base === '/') return op;
  const i = op.indexOf(' ');
  return op.slice(0, i + 1) + base + op.slice(i + 1);
}

// DOCUMENT_CALLS are the calls about the selected document alone, where
// one is selected: the journal is read whole and filtered here, so that
// its list shows every document's requests.
const DOCUMENT_CALLS = new Set(['GET store', 'DELETE store', 'GET scenarios', 'PUT scenario', 'GET contract', 'GET ui/operations', 'GET health']);

// el makes an element with a class and text.
function el(tag, cls, text) {
  const n = document.createElement(tag);
  if (cls) n.className = cls;
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
}

function showProblem(err) {
  const p = $('problem');
  p.textContent = err ? String(err.message || err) : '';
  p.hidden = !err;
}

// The admin token, asked for when a call answers 401 and kept in this
// tab's sessionStorage. It only ever goes in the Authorization header.

let token = sessionStorage.getItem(TOKEN_KEY) || '';
let asking = null; // the open token form, shared by every call refused meanwhile

function askToken(refused) {
  if (!asking) {
    asking = new Promise((resolve) => {
      const form = $('login');
      $('login-error').hidden = !refused;
      form.hidden = false;
      $('main').hidden = true;
      $('token').focus();
      form.onsubmit = (ev) => {
        ev.preventDefault();
        token = $('token').value;
        sessionStorage.setItem(TOKEN_KEY, token);
        $('token').value = '';
        form.hidden = true;
        $('main').hidden = false;
        asking = null;
        resolve();
      };
    });
  }
  return asking;
}

// api calls the admin API (path relative to /__admin/) in the selected
// session, asking for the token as often as it is refused.
async function api(path, { method = 'GET', body } = {}) {
  for (;;) {
    const headers = {};
    if (token) headers.Authorization = 'Bearer ' + token;
    if (state.session) headers['X-Mock-Session'] = state.session;
    const init = { method, headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let url = API + path;
    if (state.document && DOCUMENT_CALLS.has(method + ' ' + path)) url += '?document=' + encodeURIComponent(state.document);
    const resp = await fetch(url, init);
    if (resp.status !== 401) return resp;
    await askToken(token !== '');
  }
}

// call is api for calls whose failure is shown as a problem; it returns
// the JSON answer, or null for none.
async function call(path, opts) {
  const resp = await api(path, opts);
  if (!resp.ok) {
    let msg = resp.status + ' ' + resp.statusText;
    try { msg = (await resp.json()).message || msg; } catch (e) { /* not JSON */ }
    throw new Error(`${opts && opts.method || 'GET'} ${path}: ${msg}`);
  }
  showProblem(null);
  return resp.status === 204 ? null : resp.json();
}

// later returns a function that runs fn once, ms after it is first
// called: refreshes follow a burst of entries without one per entry.
function later(fn, ms) {
  let timer = 0;
  return () => {
    if (!timer) timer = setTimeout(() => { timer = 0; fn().catch(showProblem); }, ms);
  };
}

// The live journal: GET /__admin/events read with fetch (so that the
// token goes in a header, which EventSource cannot send), parsed here.

let retry = 2000; // the stream's retry field: the first wait before reconnecting

async function follow() {
  let wait = retry;
  for (let n = 0; ; n++) {
    const opened = Date.now();
    try {
      const resp = await api('events');
      if (!resp.ok || !resp.body) throw new Error('GET events: ' + resp.status);
      setStream('Live', true);
      loadJournal(); // the stream is open: what came before it is in the journal
      if (n > 0) refresh(); // the mock may have restarted meanwhile
      await readEvents(resp.body, onEvent);
    } catch (err) { /* the mock stopped, or the network failed */ }
    if (Date.now() - opened > 30000) wait = retry; // it was up for a while: start again
    setStream(`Disconnected; trying again in ${Math.round(wait / 1000)} s`, false);
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 30000);
  }
}

function setStream(text, live) {
  const s = $('stream');
  s.textContent = text;
  s.classList.toggle('live', live);
}

// readEvents calls on(type, data) for each event of a text/event-stream
// body, and returns when the body ends.
async function readEvents(body, on) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  let type = '';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const lines = (buf + value).split('\n');
    buf = lines.pop(); // a line not yet ended waits for the next chunk
    for (let line of lines) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') { // a blank line ends an event
        if (data.length) on(type || 'message', data.join('\n'));
        type = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue; // a comment: the mock's keep-alive
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let v = colon < 0 ? '' : line.slice(colon + 1);
      if (v.startsWith(' ')) v = v.slice(1);
      if (field === 'event') type = v;
      else if (field === 'data') data.push(v);
      else if (field === 'retry' && /^\d+$/.test(v)) retry = Number(v);
    }
  }
}

const storeSoon = later(loadStore, 1000);
const contractSoon = later(loadContract, 500);
const journalSoon = later(loadJournal, 300);

function onEvent(type, data) {
  if (type === 'lost') { // the page fell behind and the stream dropped entries:
    journalSoon(); // the journal has them
    return;
  }
  if (type === 'reload') { // --watch read the files again
    const st = JSON.parse(data);
    showReload(st);
    if (!st.problem) Promise.all([loadTitle(), loadOperations()]).then(refresh).catch(showProblem);
    return;
  }
  if (type === 'item') {
    onItem(JSON.parse(data));
    return;
  }
  if (type !== 'entry') return;
  const e = JSON.parse(data);
  endStream(e);
  const session = e.session || '';
  noteSession(session);
  contractSoon();
  if (session !== state.session) return;
  storeSoon();
  if (state.loading) state.loading.push(e);
  else if (!known(e)) queue(e);
}

// Streams under way: a streamed answer's items come as "item" events
// as they are sent, before the answer's entry. Each stream of the
// selected session has a line above the rows, showing its latest item,
// until its entry comes; it is known by the key its entry will have.
const streaming = new Map();

function onItem(it) {
  if ((it.session || '') !== state.session) return;
  const k = entryKey(it);
  let li = streaming.get(k);
  if (!li) {
    li = el('li', 'mono');
    streaming.set(k, li);
    $('live').prepend(li);
  }
  li.textContent = `${it.method} ${it.path} streaming: item ${it.n} of ${it.of}: ${it.text.trim()}`;
}

function endStream(e) {
  const k = entryKey(e);
  const li = streaming.get(k);
  if (li) {
    li.remove();
    streaming.delete(k);
  }
}

function clearStreams() {
  streaming.clear();
  $('live').replaceChildren();
}

// entryKey names an entry in its session: by its time (to the
// nanosecond), method, target and attempt. Not by its number: the
// stream's copy of an outbound entry has none, and numbers start again
// after a reset.
function entryKey(e) {
  return [e.time, e.method, e.url || e.path, e.attempt || 0].join(' ');
}

// known reports whether the page has the entry already (a stream may
// bring an entry the journal just gave), and notes it if not.
function known(e) {
  const k = entryKey(e);
  if (state.keys.has(k)) return true;
  state.keys.add(k);
  return false;
}

function forget(entries) {
  for (const e of entries) state.keys.delete(entryKey(e));
}

function noteSession(name) {
  if (state.sessions.has(name)) return;
  state.sessions.add(name);
  const o = el('option');
  o.value = name;
  $('sessions').append(o);
}

let loads = 0; // journal loads started; only the latest one's answer is shown

// loadJournal reads the selected session's journal; entries streamed
// while it loads, or after, are added unless it has them already.
async function loadJournal() {
  const mine = ++loads;
  state.loading = [];
  state.pending = [];
  try {
    const { requests } = await call('requests');
    if (mine !== loads) return;
    state.keys = new Set();
    const fresh = requests.filter((e) => !known(e));
    const streamed = state.loading.filter((e) => !known(e));
    state.entries = fresh.concat(streamed);
    if (state.entries.length > KEPT) forget(state.entries.splice(0, state.entries.length - KEPT));
  } catch (err) {
    if (mine === loads) {
      state.entries = [];
      state.keys = new Set();
    }
    showProblem(err);
  } finally {
    if (mine === loads) {
      state.loading = null;
      render();
    }
  }
}

// The journal's rows: new entries are added in the next animation frame,
// however many came, newest first, at most ROWS of them.

function queue(e) {
  state.pending.push(e);
  // A hidden tab gets no frames: keep only what would be kept anyway.
  if (state.pending.length > 2 * KEPT) forget(state.pending.splice(0, KEPT));
  if (!state.frame) state.frame = requestAnimationFrame(flush);
}

function flush() {
  state.frame = 0;
  const added = state.pending;
  state.pending = [];
  state.entries.push(...added);
  if (state.entries.length > KEPT) forget(state.entries.splice(0, state.entries.length - KEPT));
  const f = filter();
  const frag = document.createDocumentFragment();
  for (let i = added.length - 1, n = 0; i >= 0 && n < ROWS; i--) {
    if (f(added[i])) {
      frag.append(row(added[i]));
      n++;
    }
  }
  const rows = $('rows');
  rows.prepend(frag);
  while (rows.childElementCount > ROWS) rows.lastElementChild.remove();
  count();
}

// render draws the rows again, for a new filter or journal.
function render() {
  const f = filter();
  const frag = document.createDocumentFragment();
  let n = 0;
  for (let i = state.entries.length - 1; i >= 0 && n < ROWS; i--) {
    if (f(state.entries[i])) {
      frag.append(row(state.entries[i]));
      n++;
    }
  }
  $('rows').replaceChildren(frag);
  count();
}

let renderFrame = 0;
function renderSoon() {
  if (!renderFrame) renderFrame = requestAnimationFrame(() => { renderFrame = 0; render(); });
}

function count() {
  const shown = $('rows').childElementCount;
  const all = state.entries.length;
  let text = `${shown} of ${all} ${all === 1 ? 'request' : 'requests'}`;
  if (shown === ROWS) text += ` (the newest ${ROWS} that match)`;
  $('shown').textContent = text;
}

// filter returns the test the filter fields make.
function filter() {
  const op = $('f-operation').value.trim();
  const exact = state.operations.includes(op);
  const opLower = op.toLowerCase();
  const status = $('f-status').value.trim().replace(/x+$/i, '');
  const text = $('f-text').value.trim().toLowerCase();
  const doc = state.document;
  return (e) =>
    (!doc || e.document === doc) &&
    (!op || (exact ? mounted(e.document, e.operation) === op : (mounted(e.document, e.operation) || '').toLowerCase().includes(opLower))) &&
    (!status || String(e.status).startsWith(status)) &&
    (!text || searchText(e).includes(text));
}

function searchText(e) {
  let t = state.texts.get(e);
  if (t === undefined) {
    t = JSON.stringify(e).toLowerCase();
    state.texts.set(e, t);
  }
  return t;
}

function clock(time) {
  const d = new Date(time);
  if (isNaN(d)) return '';
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

// errorCode is the error value of an answer: the mock's own, or for an
// answer a scenario wrote, the number in its body's error field (the
// mock's error shape), if any.
function errorCode(e) {
  if (e.code) return e.code;
  const r = e.response;
  if (e.status >= 400 && r && typeof r === 'object' && Number.isInteger(r.error)) return r.error;
  return '';
}



let rowIDs = 0;

// row makes an entry's row: a button that opens and closes its detail.
function row(e) {
  const out = e.direction === 'outbound';
  const li = el('li', out ? 'outbound' : '');
  const b = el('button', 'summary');
  b.type = 'button';
  const target = out ? e.url || e.path : e.path + (e.query ? '?' + e.query : '');
  b.append(
    el('span', 'time mono', clock(e.time)),
    el('span', 'method', out ? '→ ' + e.method : e.method),
    el('span', 'target mono', target),
    el('span', 'status s' + String(e.status || 0)[0], e.status || '—'),
    el('span', 'operation', (e.document ? e.document + ' · ' : '') + (e.operation || (out ? '' : 'no operation'))),
    el('span', 'scenario', e.scenario ? `${e.scenario} #${e.rule}` : ''),
    el('span', 'code', out ? (e.attempt ? 'try ' + e.attempt : 'not sent') : errorCode(e)),
  );
  const id = 'entry-' + ++rowIDs;
  b.setAttribute('aria-controls', id);
  b.setAttribute('aria-expanded', 'false');
  b.addEventListener('click', () => {
    const open = !state.expanded.has(entryKey(e));
    if (open) state.expanded.add(entryKey(e));
    else state.expanded.delete(entryKey(e));
    b.setAttribute('aria-expanded', String(open));
    const d = document.getElementById(id);
    if (d) d.remove();
    if (open) li.append(detail(e, id));
  });
  li.append(b);
  if (state.expanded.has(entryKey(e))) {
    b.setAttribute('aria-expanded', 'true');
    li.append(detail(e, id));
  }
  return li;
}

// pairs makes a definition list of [term, value] pairs, leaving out
// those without a value.
function pairs(list) {
  const dl = el('dl');
  for (const p of list) {
    if (!p || p[1] === undefined || p[1] === null || p[1] === '') continue;
    dl.append(el('dt', null, p[0]), el('dd', null, p[1]));
  }
  return dl;
}

function pretty(v) {
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

function headerLines(h) {
  if (!h) return '(none)';
  return Object.keys(h).sort().map((k) => h[k].map((v) => `${k}: ${v}`).join('\n')).join('\n');
}

// violationText is a violation as the mock's log and messages write it:
// "path: reason", with its side of a proxied exchange before it.
function violationText(v) {
  const where = v.path || 'body';
  if (!v.direction) return `${where}: ${v.reason}`;
  if (v.path === v.direction) return `${v.direction}: ${v.reason}`;
  return `${v.direction} ${where}: ${v.reason}`;
}

function detail(e, id) {
  const out = e.direction === 'outbound';
  const d = el('div', 'detail');
  d.id = id;

  const req = el('section');
  req.append(el('h3', null, out ? 'Sent' : 'Request'));
  req.append(pairs([
    out ? ['Method', e.method] : ['Request', `${e.method} ${e.path}${e.query ? '?' + e.query : ''}`],
    out && ['URL', e.url],
    out && ['Operation', e.operation],
    out && ['Attempt', e.attempt || 'not sent'],
    out && ['Trigger', e.trigger ? `the answer to request ${e.trigger}` : 'the admin API'],
    ['Session', e.session || 'default'],
    ['Time', e.time],
    ['Duration', e.duration ? (e.duration / 1e6).toFixed(2) + ' ms' : ''],
  ]));
  req.append(el('h4', null, 'Headers'), el('pre', null, headerLines(e.headers)));
  if (e.body !== undefined) req.append(el('h4', null, 'Body'), el('pre', null, pretty(e.body)));

  const ans = el('section');
  ans.append(el('h3', null, 'Answer'));
  ans.append(pairs([
    ['Status', e.status || 'none'],
    ['Error code', errorCode(e)],
    out && ['Error', e.error],
    !out && ['Operation', e.operation || 'none matched'],
    e.scenario && ['Scenario', `${e.scenario}, rule ${e.rule}`],
  ]));
  if (e.response !== undefined) ans.append(el('h4', null, 'Body'), el('pre', null, pretty(e.response)));

  // Why the mock answered so, across the width: violations, notes and
  // drift from the previous document.
  const why = el('section', 'wide');
  if (e.violations && e.violations.length) {
    const ul = el('ul', 'violations');
    for (const v of e.violations) {
      const li = el('li');
      li.append(el('span', 'text', violationText(v)));
      if (v.schema) li.append(el('code', 'schema', 'schema ' + v.schema));
      ul.append(li);
    }
    why.append(el('h3', null, 'Violations'), ul);
  }
  if (e.notes && e.notes.length) {
    const ul = el('ul', 'notes');
    for (const n of e.notes) ul.append(el('li', null, n));
    why.append(el('h3', null, 'Notes'), ul);
  }
  if (e.drift) why.append(el('h3', null, 'Drift'), el('p', 'drift', e.drift));
  if (why.childElementCount) d.append(why);
  d.append(req, ans);
  return d;
}

// The store of the selected session, a collection at a time.

const SHOWN_ITEMS = 200;

async function loadStore() {
  const { collections } = await call('store');
  const box = $('store');
  const names = Object.keys(collections).sort();
  if (!names.some((n) => collections[n].length)) {
    box.replaceChildren(el('p', 'empty', 'The store is empty.'));
    return;
  }
  const parts = [];
  for (const name of names) {
    const items = collections[name];
    parts.push(el('h3', 'mono', `${name} (${items.length})`));
    const ol = el('ol');
    items.slice(0, SHOWN_ITEMS).forEach((item, i) => {
      const del = el('button', null, 'Delete');
      del.type = 'button';
      del.setAttribute('aria-label', `Delete item ${i + 1} of ${name}`);
      del.addEventListener('click', () => removeItem(name, items, i).catch(showProblem));
      const li = el('li');
      li.append(el('pre', null, pretty(item)), del);
      ol.append(li);
    });
    parts.push(ol);
    if (items.length > SHOWN_ITEMS) parts.push(el('p', 'hint', `and ${items.length - SHOWN_ITEMS} more`));
  }
  box.replaceChildren(...parts);
}

// removeItem deletes one resource by writing its collection again
// without it: the admin API replaces a collection whole.
async function removeItem(name, items, i) {
  const path = 'store' + name.split('/').map(encodeURIComponent).join('/');
  await call(path, { method: 'PUT', body: items.filter((_, j) => j !== i) });
  await loadStore();
}

// The scenarios, one radio button each. Of a mock of several documents,
// each is labelled with its document and made active in it alone; with
// every document shown, each document's active one is checked.

async function loadScenarios() {
  const { active, documents, scenarios } = await call('scenarios');
  const set = $('scenarios');
  const on = (sc) => (documents ? documents[sc.document] === sc.name : active === sc.name);
  const none = documents ? Object.values(documents).every((n) => n === null) : active === null;
  const items = [choice(0, '', 'none', 'Answers as the document says.', none)];
  scenarios.forEach((sc, i) => {
    const c = choice(i + 1, sc.name, (sc.document ? sc.document + ' · ' : '') + sc.name, sc.description, on(sc));
    if (sc.document) c.querySelector('input').dataset.document = sc.document;
    items.push(c);
  });
  set.replaceChildren(set.querySelector('legend'), ...items);
  $('scenario-active').textContent = 'Active: ' + (documents
    ? Object.entries(documents).map(([d, n]) => d + ': ' + (n === null ? 'none' : n)).join(', ')
    : (active === null ? 'none' : active));
}

function choice(i, value, label, description, checked) {
  const div = el('div');
  const input = el('input');
  input.type = 'radio';
  input.name = 'scenario';
  input.id = 'scenario-' + i;
  input.value = value;
  input.checked = checked;
  const l = el('label', null, label);
  l.htmlFor = input.id;
  div.append(input, l);
  if (description) {
    const desc = el('span', 'desc', description);
    desc.id = input.id + '-desc';
    input.setAttribute('aria-describedby', desc.id);
    div.append(desc);
  }
  return div;
}

// activate makes a scenario active: in its document alone when it is
// labelled with one and every document is shown (else the selected
// document's call says which); none, in every document shown.
async function activate(name, doc) {
  $('scenario-active').textContent = 'Switching…';
  const path = doc && !state.document ? 'scenario?document=' + encodeURIComponent(doc) : 'scenario';
  try {
    await call(path, { method: 'PUT', body: { name: name || null } });
  } finally {
    await loadScenarios();
  }
}

// The operations: the document's, with the requests each got since the
// mock started (of every session) and how often they broke the document.

async function loadOperations() {
  state.operations = (await call('ui/operations')).operations;
  $('operation-names').replaceChildren(...state.operations.map((op) => {
    const o = el('option');
    o.value = op;
    return o;
  }));
}

// showReload shows how the last reload (--watch) went: its problem, or
// the stored resources that do not fit the document served now.
function showReload(st) {
  const parts = [];
  if (st.problem) {
    parts.push(el('p', 'error', 'The last reload failed; the mock still serves the previous version:'), el('pre', null, st.problem));
  } else if (st.reloads) {
    parts.push(el('p', null, `Reloaded at ${clock(st.time)} (${st.reloads} since start).`));
  }
  if (st.misfits && st.misfits.length) {
    parts.push(el('p', null, 'Stored resources that do not fit the document served now:'));
    const ul = el('ul');
    for (const m of st.misfits) ul.append(el('li', 'mono', m));
    parts.push(ul);
  }
  const box = $('reload');
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
  box.classList.toggle('failed', Boolean(st.problem));
}

async function loadContract() {
  const { operations } = await call('contract');
  const seen = new Map();
  for (const o of operations) {
    const name = mounted(o.document, o.operation);
    const had = seen.get(name); // requests of several documents that matched no operation
    seen.set(name, had ? { exchanges: had.exchanges + o.exchanges, violations: had.violations.concat(o.violations) } : o);
  }
  const names = [...new Set([...state.operations, ...seen.keys()])];
  // By path, then method; requests that matched no operation last.
  const key = (n) => (n === '' ? '\uffff' : n.slice(n.indexOf(' ') + 1) + ' ' + n);
  names.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const trs = names.map((name) => {
    const o = seen.get(name);
    const tr = el('tr', o ? '' : 'never');
    const th = el('td', 'mono', name || 'no operation');
    if (!o) th.append(' ', el('span', 'tag', 'never called'));
    const violations = o ? o.violations.reduce((n, v) => n + v.count, 0) : 0;
    tr.append(th, el('td', null, o ? o.exchanges : 0), el('td', null, violations));
    return tr;
  });
  $('operations').replaceChildren(...trs);
}

// Wiring.

// loadTitle shows the title and version of the document served.
async function loadTitle() {
  $('spec').textContent = (await call('health')).spec;
}

function refresh() {
  Promise.all([loadStore(), loadScenarios(), loadContract()]).catch(showProblem);
}

// loadDocuments offers the documents of a mock of several in the
// document switcher.
async function loadDocuments() {
  const { documents } = await call('documents');
  const pick = $('document');
  if (documents.length < 2) return;
  for (const d of documents) state.bases.set(d.name, d.base);
  pick.replaceChildren(el('option', null, 'All documents'), ...documents.map((d) => {
    const o = el('option', null, `${d.name} (${d.base})`);
    o.value = d.name;
    return o;
  }));
  pick.firstChild.value = '';
  $('document-form').hidden = false;
}

function selectDocument(name) {
  if (name === state.document) return;
  state.document = name;
  render();
  loadTitle().catch(showProblem);
  loadOperations().then(refresh).catch(showProblem);
}

function selectSession(name) {
  name = name.trim();
  if (name === state.session) return;
  state.session = name;
  clearStreams();
  state.entries = [];
  state.keys = new Set();
  state.expanded.clear();
  render();
  loadJournal();
  Promise.all([loadStore(), loadScenarios()]).catch(showProblem);
}

function start() {
  $('session-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    selectSession($('session').value);
  });
  $('session').addEventListener('change', () => selectSession($('session').value));
  const filters = $('filters');
  filters.addEventListener('input', renderSoon);
  filters.addEventListener('submit', (ev) => ev.preventDefault());
  filters.addEventListener('reset', (ev) => {
    ev.preventDefault();
    for (const input of filters.querySelectorAll('input')) input.value = '';
    renderSoon();
  });
  $('scenarios').addEventListener('change', (ev) => activate(ev.target.value, ev.target.dataset.document).catch(showProblem));
  $('document').addEventListener('change', () => selectDocument($('document').value));
  $('reset').addEventListener('click', () => {
    call('reset', { method: 'POST' })
      .then(() => Promise.all([loadJournal(), loadStore(), loadScenarios()]))
      .catch(showProblem);
  });
  $('empty-store').addEventListener('click', () => {
    call('store', { method: 'DELETE' }).then(loadStore).catch(showProblem);
  });

  loadTitle().catch(showProblem);
  call('reload').then(showReload).catch(showProblem);
  loadDocuments()
    .then(loadOperations)
    .then(() => {
      follow();
      refresh();
    })
    .catch(showProblem);
}

start();
