// desktop.* end to end: the real server over stdio, driven by the official TypeScript MCP SDK
// client; an agent program takes a screenshot of a busybox-desktop container (its cua-driver is a
// test double, see images/busybox-desktop/README.md) and the test fetches the PNG from the URL it
// returned, from the server's own screenshot listener. Needs the busybox-desktop image (dev/setup).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JAVA, ROOT, serverJar, configDir, cleanup, INCUS_SOCKET } from './server-harness.mjs';

/** A loopback port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

async function execute(client, source) {
  const r = await client.callTool({ name: 'execute', arguments: { source } });
  assert.equal(r.isError ?? false, false, JSON.stringify(r));
  return r.structuredContent.result;
}

test('an agent takes a screenshot and the PNG is fetched from the returned URL', async () => {
  const dir = configDir();
  copyFileSync(join(ROOT, 'capabilities', 'src', 'test', 'resources', 'desktop-catalog.yaml'),
    join(dir, 'images', 'catalog.yaml'));
  const port = await freePort();
  writeFileSync(join(dir, 'agentcompute.yaml'), [
    `incus: {url: "unix://${INCUS_SOCKET}", pool: default, host: none}`,
    'sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}',
    `screenshots: {base_url: "http://127.0.0.1:${port}/", listen: "127.0.0.1:${port}"}`,
  ].join('\n') + '\n');
  const transport = new StdioClientTransport({
    command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', join(dir, 'agentcompute.yaml')],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'agentcompute-desktop-test', version: '1.0.0' });
  await client.connect(transport);
  const sandbox = `itnode-desk-${Math.floor(Math.random() * 0xffffff).toString(16)}`;
  try {
    const shot = await execute(client, `
def main():
    sandbox.create(name="${sandbox}")
    instance.create(sandbox="${sandbox}", name="desk", image="busybox-desktop")
    info = desktop.info(sandbox="${sandbox}", instance="desk")
    shot = desktop.screenshot(sandbox="${sandbox}", instance="desk", max_dimension=32)
    return {"ready": info["ready"], "shot": shot}
`);
    assert.equal(shot.ready, true);
    assert.equal(shot.shot.width, 32);
    assert.equal(shot.shot.height, 24);
    assert.equal(shot.shot.scale, 2);
    assert.match(shot.shot.url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/screenshots/[0-9a-f]{32}$`));
    assert.match(stderr, new RegExp(`msg="serving screenshots" addr=127\\.0\\.0\\.1:${port}`));

    const got = await fetch(shot.shot.url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/png');
    assert.equal(got.headers.get('cache-control'), 'no-store');
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    const png = Buffer.from(await got.arrayBuffer());
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.equal(png.readUInt32BE(16), 32, 'IHDR width');
    assert.equal(png.readUInt32BE(20), 24, 'IHDR height');

    // The same image as an MCP resource, by the id in its URL.
    const id = shot.shot.url.split('/').at(-1);
    const resource = await client.readResource({ uri: `agentcompute://screenshots/${id}` });
    assert.equal(resource.contents[0].mimeType, 'image/png');
    assert.deepEqual(Buffer.from(resource.contents[0].blob, 'base64'), png);

    const posted = await fetch(shot.shot.url, { method: 'POST' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');

    const call = await execute(client, `
def main():
    r = desktop.call(sandbox="${sandbox}", instance="desk", tool="get_desktop_state")
    return {"ok": r["ok"], "url": r.get("screenshot_url", ""), "w": json.decode(r["result"])["screenshot_width"]}
`);
    assert.equal(call.ok, true);
    assert.equal(call.w, 64);
    assert.equal((await fetch(call.url)).status, 200);

    await execute(client, `def main():\n    return sandbox.delete(name="${sandbox}")\n`);
    assert.equal((await fetch(shot.shot.url)).status, 404, 'deleting the sandbox purged its screenshots');
    await assert.rejects(client.readResource({ uri: `agentcompute://screenshots/${id}` }),
      (e) => { assert.equal(e.code, -32002, e.message); return true; }, 'a purged screenshot is an unknown resource');
  } finally {
    await client.callTool({
      name: 'execute',
      arguments: { source: `def main():\n    return [s for s in sandbox.list()["items"] if s["name"] == "${sandbox}" and sandbox.delete(name="${sandbox}") == {}]\n` },
    }).catch(() => {});
    await client.close();
    cleanup(dir);
  }
});
