// An Incus that stops answering (a frozen incusd), as an agent sees it: the real server over stdio,
// driven by the official TypeScript MCP SDK client, talks to the real incusd through a Unix-socket
// proxy this test can freeze. While frozen, the proxy accepts connections and forwards nothing,
// as a SIGSTOPped incusd would; sandbox.list then fails naming the wait and the fix, and works
// again once Incus answers. (The shared incusd itself is never stopped.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JAVA, serverJar, configDir, cleanup, freezableProxy } from './server-harness.mjs';

test('a silent Incus answers "did not answer within 30 s; retry later", and recovers', { timeout: 240_000 }, async () => {
  const dir = configDir();
  const socket = join(dir, 'incus-proxy.socket');
  const proxy = await freezableProxy(socket);
  writeFileSync(join(dir, 'agentcompute.yaml'), [
    `incus: {url: "unix://${socket}", pool: default, host: none}`,
    'sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}',
    'screenshots: {base_url: "http://127.0.0.1:8081", listen: "127.0.0.1:0"}',
  ].join('\n') + '\n');
  const transport = new StdioClientTransport({
    command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', join(dir, 'agentcompute.yaml')],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'agentcompute-silent-incus-test', version: '1.0.0' });
  const list = { name: 'execute', arguments: { source: 'def main():\n    return len(sandbox.list()["items"]) >= 0\n' } };
  try {
    await client.connect(transport);
    const before = await client.callTool(list);
    assert.equal(before.isError ?? false, false, JSON.stringify(before) + stderr.slice(-2000));

    proxy.freeze();
    const started = Date.now();
    const frozen = await client.callTool(list, undefined, { timeout: 120_000 });
    const waited = (Date.now() - started) / 1000;
    assert.equal(frozen.isError, true, JSON.stringify(frozen));
    const text = frozen.content[0].text;
    assert.match(text, /capability failed: Incus did not answer within 30 s; retry later/, text);
    assert.doesNotMatch(text, /PT30S|unix|socket|\/1\.0/, 'no internals in the text');
    assert.ok(waited >= 29 && waited < 90, `answered after ${waited} s`);

    proxy.thaw();
    const after = await client.callTool(list);
    assert.equal(after.isError ?? false, false, JSON.stringify(after) + stderr.slice(-2000));
  } finally {
    await client.close().catch(() => {});
    proxy.close();
    cleanup(dir);
  }
});
