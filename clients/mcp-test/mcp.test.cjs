// Calls plantmock's MCP endpoint (/__admin/mcp) with the official
// TypeScript SDK's client over Streamable HTTP: lists the tools, calls
// each, reads the resources, and checks that a refused request is
// explained with the words the dashboard shows for it.
// Run by .ci/mcp-client, which starts the mock and sets PLANTMOCK_URL
// and PLANTMOCK_ADMIN_TOKEN.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const base = process.env.PLANTMOCK_URL;
const token = process.env.PLANTMOCK_ADMIN_TOKEN;
const auth = { Authorization: `Bearer ${token}` };

async function connect(headers) {
  const client = new Client({ name: 'plantmock-ci', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/__admin/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

async function admin(method, path, body) {
  const resp = await fetch(base + path, {
    method, headers: { ...auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(resp.status, 200, `${method} ${path}`);
  return resp.text();
}

// The dashboard's own violationText, read from the page's script as
// the mock serves it.
async function dashboardViolationText() {
  const js = await (await fetch(`${base}/__admin/ui/app.js`)).text();
  const src = js.match(/function violationText\(v\) \{[\s\S]*?\n\}/);
  assert.ok(src, 'app.js has violationText');
  return new Function(`${src[0]}; return violationText;`)();
}

function text(result) {
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  return result.content[0].text;
}

test('the MCP endpoint, through the TypeScript SDK', async (t) => {
  const client = await connect(auth);
  t.after(() => client.close());

  const listed = (await client.listTools()).tools;
  const tools = listed.map((x) => x.name).sort();
  assert.deepEqual(tools, ['activate_scenario', 'check_document', 'diff_document', 'explain_request', 'list_operations', 'list_scenarios',
    'read_journal', 'reset_scenario', 'reset_session', 'run_workflow', 'verify_service', 'why_refused']);
  // An agent tells the tools that only read from those that send
  // requests out by their annotations.
  const hints = Object.fromEntries(listed.map((x) => [x.name, x.annotations || {}]));
  for (const name of ['check_document', 'diff_document', 'explain_request', 'list_operations', 'list_scenarios', 'read_journal', 'why_refused']) {
    assert.equal(hints[name].readOnlyHint, true, name);
  }
  for (const name of ['verify_service', 'run_workflow']) {
    assert.equal(hints[name].readOnlyHint, false, name);
    assert.equal(hints[name].openWorldHint, true, name);
  }
  assert.equal(hints.reset_session.destructiveHint, true);
  assert.equal(client.getServerCapabilities().prompts, undefined);

  const call = async (name, args = {}) => {
    const r = await client.callTool({ name, arguments: args });
    assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content)}`);
    return text(r);
  };

  await call('reset_session');
  assert.equal(await call('why_refused'), 'No request of this session was refused: the journal holds no answer of status 400 or more.');

  // A refused request, sent by the client code.
  const resp = await fetch(`${base}/plants`, {
    method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' }, body: '{"id":"x"}',
  });
  assert.equal(resp.status, 400);
  const refusal = await resp.json();

  // Explained with the dashboard's words: the journal entry it shows,
  // each violation as its violationText writes it, and the message.
  const why = await call('why_refused');
  const { requests } = JSON.parse(await admin('GET', '/__admin/requests'));
  const entry = requests[requests.length - 1];
  const violationText = await dashboardViolationText();
  assert.ok(entry.violations.length >= 2);
  assert.ok(why.startsWith(`Request ${entry.seq}, POST /plants (operation: POST /plants), was answered 400, error ${entry.code}.\n`), why);
  assert.ok(why.includes(`\nMessage: ${refusal.message}\n`), why);
  for (const v of entry.violations) {
    assert.ok(why.includes(`\n- ${violationText(v)} (schema ${v.schema})`), `${why}\nlacks ${violationText(v)}`);
  }

  // Each tool answers what its admin call answers.
  assert.equal(await call('list_operations'), await admin('GET', '/__admin/operations'));
  const described = { method: 'POST', path: '/plants', headers: { Authorization: 'Bearer t' }, body: { id: 'x' } };
  assert.equal(await call('explain_request', described), await admin('POST', '/__admin/explain', described));
  const explained = JSON.parse(await call('explain_request', described));
  assert.deepEqual(explained.violations.map(violationText), entry.violations.map(violationText));
  assert.equal(await call('read_journal', { limit: 1 }), await admin('GET', '/__admin/requests?limit=1'));
  assert.equal(await call('read_journal', { status: 400 }), await admin('POST', '/__admin/requests/find', { status: 400 }));
  assert.equal(await call('list_scenarios'), await admin('GET', '/__admin/scenarios'));
  assert.equal(await call('activate_scenario', { name: 'slow', session: 'ci' }), '{"active":"slow"}');
  assert.equal(JSON.parse(await call('list_scenarios', { session: 'ci' })).active, 'slow');
  assert.equal(await call('reset_scenario', { session: 'ci' }), '{"active":null}');
  assert.equal(await call('check_document', { document: "openapi: 3.1.0\ninfo: {title: Tiny, version: '1'}\npaths: {}\n" }),
    'plantmock: Tiny 1 and scenarios first-call-fails, flaky, slow are fine\n');
  const verified = JSON.parse(await call('verify_service', { target: base, dry_run: true }));
  assert.equal(verified.exit, 0);
  assert.ok(verified.report, 'verify gives its report');
  const refused = await client.callTool({ name: 'verify_service', arguments: { target: base, max_requests: -1 } });
  assert.equal(refused.isError, true);
  assert.deepEqual(JSON.parse(text(refused)), { error: 'plantmock verify: --max-requests -1: want 0 or more; run plantmock verify --help\n', exit: 2 });
  assert.equal(await call('reset_session'), 'done');
  assert.equal(await call('read_journal'), '{"requests":[]}');

  const doc = await client.readResource({ uri: 'plantmock://document' });
  assert.equal(doc.contents[0].text, await admin('GET', '/__admin/document'));
  // The served document against a proposed version: the summary as
  // text, the changes as structured content.
  const same = await client.callTool({ name: 'diff_document', arguments: { proposed: doc.contents[0].text } });
  assert.equal(text(same), 'no changes from the served document to the proposed document');
  assert.deepEqual(same.structuredContent, { old: 'the served document', new: 'the proposed document', changes: [] });
  const cut = doc.contents[0].text.replace(/\n {2}\/plants:\n/, '\n  /gone:\n');
  const removed = await client.callTool({ name: 'diff_document', arguments: { proposed: cut } });
  assert.match(text(removed), /^\d+ changes? from the served document to the proposed document: [1-9]\d* breaks? clients/);
  assert.ok(removed.structuredContent.changes.some((c) => c.rule === 'operation-removed' && c.operation === 'POST /plants'), JSON.stringify(removed.structuredContent));
  const bad = await client.callTool({ name: 'diff_document', arguments: { proposed: 'title: notes\n' } });
  assert.equal(bad.isError, true);
  assert.equal(text(bad), 'the proposed document cannot be loaded: not an OpenAPI document: no openapi field');
  const contract = await client.readResource({ uri: 'plantmock://contract' });
  assert.equal(contract.contents[0].text, await admin('GET', '/__admin/contract'));
});

test('the MCP endpoint wants the admin token', async () => {
  await assert.rejects(connect({}), /401|Unauthorized|admin token/);
});
