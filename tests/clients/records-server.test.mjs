// Drives examples/records-server over stdio with the official TypeScript MCP SDK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TIMEOUT = { timeout: 60000 };

async function connect(args, capabilities = {}) {
  const transport = new StdioClientTransport({
    command: path.join(root, 'dev/records-server'),
    args,
    stderr: 'ignore',
  });
  const c = new Client({ name: 'records-server-test', version: '1.0.0' }, { capabilities });
  return { client: c, connected: c.connect(transport) };
}

// A client without elicitation, and one that declared form elicitation and answers as `answer` says.
let client;
let asking;
let answer = 'accept';
const asked = [];

before(async () => {
  const plain = await connect(['--authorizer', 'deny-forbidden']);
  client = plain.client;
  const eliciting = await connect(
    ['--limit', 'MaxConfirmationWait=2s', '--limit', 'MaxSearchResults=1'],
    { elicitation: { form: {} } },
  );
  asking = eliciting.client;
  asking.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    switch (answer) {
      case 'accept': return { action: 'accept', content: { confirm: true } };
      case 'decline': return { action: 'decline' };
      default: return new Promise(() => {}); // no answer, ever
    }
  });
  await Promise.all([plain.connected, eliciting.connected]);
});

after(async () => { await Promise.all([client?.close(), asking?.close()]); });

const call = (name, args, c = client, options = {}) =>
  c.callTool({ name, arguments: args }, undefined, { ...TIMEOUT, ...options });
const DELETE = { source: 'def main():\n    return records.delete(key="a")\n' };

test('lists exactly the three CodeMode tools', async () => {
  const { tools } = await client.listTools(undefined, TIMEOUT);
  assert.deepEqual(tools.map((t) => t.name).sort(), ['describe_api', 'execute', 'search_api']);
  const execute = tools.find((t) => t.name === 'execute');
  assert.deepEqual(execute.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
});

test('search_api and describe_api', async () => {
  const s = await call('search_api', { query: 'look up record' });
  assert.equal(s.isError, false);
  assert.equal(s.structuredContent.results[0].name, 'records.lookup');
  assert.equal(s.content[0].text, JSON.stringify(s.structuredContent));
  const d = await call('describe_api', { name: 'records.lookup' });
  assert.equal(d.structuredContent.signature, 'records.lookup(*, key: str, limit: int | None)');
  assert.deepEqual(d.structuredContent.hints, { read_only: true, destructive: false, idempotent: true, open_world: false });
  const hidden = await call('describe_api', { name: 'records.hidden' });
  assert.equal(hidden.isError, true);
  assert.equal(hidden.content[0].text, 'capability not found');
});

test('execute with native calls and error results', async () => {
  const ok = await call('execute', { source: 'def main():\n    return [records.lookup(key="a", limit=2), health.status()]\n' });
  assert.equal(ok.isError, false);
  assert.deepEqual(ok.structuredContent, { result: [{ count: 2, key: 'a' }, { state: 'ok' }] });
  const denied = await call('execute', { source: 'def main():\n    return records.lookup(key="forbidden")\n' });
  assert.equal(denied.content[0].text, 'permission denied');
  const agent = await call('execute', { source: 'def main():\n    return errors.fail(mode="agent", message="bad\\nkey")\n' });
  assert.equal(agent.content[0].text, 'capability failed: bad key');
  const bad = await call('execute', { source: 'def main():\n    return records.lookup(keu="a")\n' });
  assert.equal(bad.content[0].text, 'invalid capability arguments: unknown argument "keu"');
  const nan = await call('execute', { source: 'def main():\n    return errors.score(score=1.0)\n' });
  assert.equal(nan.content[0].text, 'capability failed');
});

test('search_api pages with next_cursor', async () => {
  const first = await call('search_api', { query: 'record' }, asking);
  assert.equal(first.structuredContent.truncated, true);
  const second = await call('search_api', { query: 'record', cursor: first.structuredContent.next_cursor }, asking);
  assert.notDeepEqual(second.structuredContent.results, first.structuredContent.results);
  const replayed = await call('search_api', { query: 'record', cursor: first.structuredContent.next_cursor }, client);
  assert.equal(replayed.isError, true);
  assert.equal(replayed.content[0].text, 'invalid cursor');
});

test('without elicitation a confirmation comes back as a token that approves the call once', async () => {
  const pending = await call('execute', DELETE);
  assert.equal(pending.isError, true);
  assert.match(pending.content[0].text, /^confirmation required: records\.delete\(key="a"\) needs approval; if the user agrees, run execute again with confirmation "[^"]+" \(valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\. Calls made before this one already ran\.$/);
  const { token, capability, arguments: args, expires_at: expiresAt } = pending.structuredContent.confirmation;
  assert.equal(capability, 'records.delete');
  assert.equal(args, 'key="a"');
  assert.ok(pending.content[0].text.includes(`"${token}" (valid until ${expiresAt})`));
  const approved = await call('execute', { ...DELETE, confirmation: token });
  assert.equal(approved.isError, false);
  assert.deepEqual(approved.structuredContent, { result: { deleted: true, key: 'a' } });
  const reused = await call('execute', { ...DELETE, confirmation: token });
  assert.equal(reused.content[0].text, 'invalid confirmation');
});

test('elicitation: the user accepts', async () => {
  answer = 'accept';
  asked.length = 0;
  const r = await call('execute', DELETE, asking);
  assert.equal(r.isError, false);
  assert.deepEqual(r.structuredContent, { result: { deleted: true, key: 'a' } });
  assert.equal(asked[0].message, 'Allow records.delete(key="a")? Delete one record by key.');
  assert.deepEqual(asked[0].requestedSchema, { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
});

test('elicitation: the user declines', async () => {
  answer = 'decline';
  const r = await call('execute', DELETE, asking);
  assert.equal(r.isError, true);
  assert.equal(r.content[0].text, 'confirmation declined');
});

test('elicitation: no answer within MaxConfirmationWait declines', async () => {
  answer = 'never';
  const r = await call('execute', DELETE, asking);
  assert.equal(r.isError, true);
  assert.equal(r.content[0].text, 'confirmation declined');
});

test('resources are listed in URI order and read', async () => {
  const { resources } = await client.listResources(undefined, TIMEOUT);
  assert.deepEqual(resources.map((r) => r.uri), ['records://entries/a', 'records://entries/b', 'records://entries/c', 'records://status']);
  const { resourceTemplates } = await client.listResourceTemplates(undefined, TIMEOUT);
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['records://entries/{key}']);
  const { contents } = await client.readResource({ uri: 'records://entries/z' }, TIMEOUT);
  assert.deepEqual(contents, [{ uri: 'records://entries/z', mimeType: 'application/json', text: '{"count":0,"key":"z"}' }]);
});

test('an unknown resource is MCP error -32002', async () => {
  await assert.rejects(
    client.readResource({ uri: 'records://nope' }, TIMEOUT),
    (e) => e instanceof McpError && e.code === -32002 && e.message.includes('Resource not found'),
  );
});

// The TypeScript SDK handles a notification in a microtask but a response at once, so a progress
// notification read in the same chunk as the response is dropped: the program works a while after
// its last call so that the response arrives on its own.
test('progress: one notification per completed native call, without changing the result', async () => {
  const seen = [];
  const r = await call(
    'execute',
    { source: 'def main():\n    r = [records.lookup(key=k) for k in ["a", "b", "c"]]\n    n = 0\n    for i in range(300000):\n        n += 1\n    return r\n' },
    client,
    { onprogress: (p) => seen.push([p.progress, p.message]) },
  );
  assert.equal(r.isError, false);
  assert.deepEqual(r.structuredContent, { result: [{ count: 0, key: 'a' }, { count: 0, key: 'b' }, { count: 0, key: 'c' }] });
  assert.deepEqual(seen, [[1, 'records.lookup done'], [2, 'records.lookup done'], [3, 'records.lookup done']]);
});
