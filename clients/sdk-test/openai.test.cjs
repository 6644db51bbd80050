// The official openai npm SDK against plantmock serving OpenAI's own
// published description (openapi.yaml of openai/openai-openapi), as a
// user points it at the mock: baseURL is the mock's URL and the path of
// the document's server (https://api.openai.com/v1), no scenario, no
// header of the test's own. The SDK sends Accept: application/json on
// streaming calls too: the mock streams because the body says
// stream: true.
// Run by .ci/sdk-clients, which starts the mock and sets PLANTMOCK_URL.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const OpenAI = require('openai');
const { toFile } = require('openai');

const client = new OpenAI({ apiKey: 'sk-plantmock', baseURL: `${process.env.PLANTMOCK_URL}/v1`, maxRetries: 0, timeout: 20000 });
const messages = [{ role: 'user', content: 'Say hello' }];

test('chat completion', async () => {
  const c = await client.chat.completions.create({ model: 'gpt-4o', messages });
  assert.equal(c.object, 'chat.completion');
  assert.equal(typeof c.id, 'string');
  assert.ok(Array.isArray(c.choices));
  for (const ch of c.choices) {
    assert.equal(typeof ch.message, 'object');
    assert.equal(ch.message.role, 'assistant');
  }
});

test('chat completion, streamed', { timeout: 20000 }, async () => {
  const s = await client.chat.completions.create({ model: 'gpt-4o', messages, stream: true });
  const chunks = [];
  for await (const chunk of s) chunks.push(chunk); // the loop ends: the stream terminates
  assert.ok(chunks.length >= 1, 'no chunk');
  for (const chunk of chunks) {
    assert.equal(chunk.object, 'chat.completion.chunk');
    assert.equal(typeof chunk.id, 'string');
    assert.ok(Array.isArray(chunk.choices));
  }
  // The raw answer: server-sent events, though the SDK asked for JSON.
  const { response } = await client.chat.completions.create({ model: 'gpt-4o', messages, stream: true }).withResponse();
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  await response.body.cancel();
});

test('responses, streamed', { timeout: 20000 }, async () => {
  const s = await client.responses.create({ model: 'gpt-4o', input: 'Say hello', stream: true });
  const events = [];
  for await (const e of s) events.push(e);
  assert.ok(events.length >= 1, 'no event');
  for (const e of events) {
    assert.match(e.type, /^(response\.[a-z_.]+|error)$/);
    assert.equal(typeof e.sequence_number, 'number');
  }
});

test('chat completion with tools, then the tool result', async () => {
  const tools = [{
    type: 'function',
    function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  }];
  const c = await client.chat.completions.create({ model: 'gpt-4o', messages, tools, tool_choice: 'required' });
  assert.equal(c.object, 'chat.completion');
  for (const ch of c.choices) {
    for (const call of ch.message.tool_calls ?? []) {
      assert.equal(typeof call.id, 'string');
      assert.ok(call.type === 'function' || call.type === 'custom', call.type);
    }
  }
  const next = await client.chat.completions.create({
    model: 'gpt-4o', tools,
    messages: [...messages,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temperature":21}' }],
  });
  assert.equal(next.object, 'chat.completion');
});

test('embeddings', async () => {
  const e = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['hello', 'world'] });
  assert.equal(e.object, 'list');
  assert.ok(e.data.length >= 1);
  for (const d of e.data) {
    assert.equal(d.object, 'embedding');
    assert.equal(typeof d.index, 'number');
    assert.ok(Array.isArray(d.embedding) && d.embedding.every((x) => typeof x === 'number'), JSON.stringify(d.embedding));
  }
});

test('files: create, then retrieve', async () => {
  const file = await toFile(Buffer.from('{"messages":[{"role":"user","content":"hi"}]}\n'), 'train.jsonl');
  const created = await client.files.create({ file, purpose: 'fine-tune' });
  assert.equal(created.object, 'file');
  assert.equal(typeof created.id, 'string');
  assert.equal(created.purpose, 'fine-tune');
  const got = await client.files.retrieve(created.id);
  // The file as created: its purpose as sent, and what the mock made
  // up for it (bytes, filename, created_at) the same on every read.
  assert.deepEqual(got, created);
});
