// Drives examples/records-server over stdio with the official TypeScript MCP SDK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let client;

before(async () => {
  const transport = new StdioClientTransport({
    command: path.join(root, 'dev/records-server'),
    args: ['--authorizer', 'deny-forbidden'],
    stderr: 'ignore',
  });
  client = new Client({ name: 'records-server-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => { await client?.close(); });

const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });

test('lists exactly the three CodeMode tools', async () => {
  const { tools } = await client.listTools(undefined, { timeout: 60000 });
  assert.deepEqual(tools.map((t) => t.name).sort(), ['describe_api', 'execute', 'search_api']);
});

test('search_api and describe_api', async () => {
  const s = await call('search_api', { query: 'look up record' });
  assert.equal(s.isError, false);
  assert.equal(s.structuredContent.results[0].name, 'records.lookup');
  assert.equal(s.content[0].text, JSON.stringify(s.structuredContent));
  const d = await call('describe_api', { name: 'records.lookup' });
  assert.equal(d.structuredContent.signature, 'records.lookup(*, key: str, limit: int | None)');
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
