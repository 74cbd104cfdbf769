// dev/run's first steps: the configuration dev/setup writes (dev/config/agentcompute.yaml) serves
// an HTTP server, as dev/run starts it, and beside it a stdio server, as an MCP client starts it
// from the configuration dev/run prints, both on the same file and so the same screenshot
// directory. Through each, the official TypeScript MCP SDK client takes a screenshot of the
// busybox-desktop test image (a test double of a desktop) from dev/run's catalogue, and the test
// fetches the URL it got back and checks it is a PNG. Needs the busybox-desktop image (dev/setup).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JAVA, ROOT, serverJar, startHttp, cleanup, INCUS_SOCKET } from './server-harness.mjs';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** dev/config/agentcompute.yaml rendered as dev/setup renders it, screenshots under `dir`. */
function devRunConfig(dir) {
  const ovn = process.env.AGENTCOMPUTE_OVN_NB_UNIX ?? join(ROOT, '.state', 'ovn', 'ovnnb_db.sock');
  const text = readFileSync(join(ROOT, 'dev', 'config', 'agentcompute.yaml'), 'utf8')
    .replaceAll('@INCUS_SOCKET@', INCUS_SOCKET)
    .replaceAll('@OVN_NB_SOCKET@', ovn)
    .replaceAll('@ROOT@', ROOT)
    .replaceAll('@SCREENSHOTS_DIR@', join(dir, 'screenshots'));
  const file = join(dir, 'agentcompute.yaml');
  writeFileSync(file, text);
  return file;
}

async function execute(client, source) {
  const r = await client.callTool({ name: 'execute', arguments: { source } });
  assert.equal(r.isError ?? false, false, JSON.stringify(r));
  return r.structuredContent.result;
}

/** Creates a busybox-desktop instance, takes a screenshot and returns its URL. */
async function screenshot(client, sandbox) {
  const r = await execute(client, `
def main():
    sandbox.create(name="${sandbox}")
    instance.create(sandbox="${sandbox}", name="desk", image="busybox-desktop")
    return desktop.screenshot(sandbox="${sandbox}", instance="desk", max_dimension=32)
`);
  return r.url;
}

async function fetchPng(url) {
  const got = await fetch(url);
  assert.equal(got.status, 200, url);
  assert.equal(got.headers.get('content-type'), 'image/png');
  const png = Buffer.from(await got.arrayBuffer());
  assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE);
  return png;
}

async function deleteSandbox(client, sandbox) {
  await client.callTool({
    name: 'execute',
    arguments: { source: `def main():\n    return [s for s in sandbox.list()["items"] if s["name"] == "${sandbox}" and sandbox.delete(name="${sandbox}") == {}]\n` },
  }).catch(() => {});
}

test('dev/run\'s configuration: HTTP and stdio side by side, a screenshot URL from each fetches a PNG', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentcompute-devrun-'));
  const config = devRunConfig(dir);
  const suffix = Math.floor(Math.random() * 0xffffff).toString(16);
  const http = await startHttp(['--config', config]);
  const httpClient = new Client({ name: 'agentcompute-devrun-http', version: '1.0.0' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  const transport = new StdioClientTransport({
    command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', config], stderr: 'pipe',
  });
  let stdioErr = '';
  transport.stderr.on('data', (d) => { stdioErr += d; });
  const stdioClient = new Client({ name: 'agentcompute-devrun-stdio', version: '1.0.0' });
  const sandboxes = { http: `itnode-devh-${suffix}`, stdio: `itnode-devs-${suffix}` };
  try {
    await stdioClient.connect(transport);
    // The catalogue offers the desktop test double, saying what it is.
    const images = await execute(httpClient, 'def main():\n    return image.list()\n');
    const desk = (images.items ?? images).find((i) => i.name === 'busybox-desktop');
    assert.ok(desk, JSON.stringify(images));
    assert.match(desk.description, /test double/i);

    // Each server keeps its screenshots in a directory of its own under the configured one.
    const own = readdirSync(join(dir, 'screenshots')).filter((f) => !f.endsWith('.lock'));
    assert.equal(own.length, 2, `${own}\n${stdioErr}`);

    const [viaHttp, viaStdio] = await Promise.all([
      screenshot(httpClient, sandboxes.http), screenshot(stdioClient, sandboxes.stdio)]);
    // Over HTTP the URL is the MCP listener's; over stdio, the stdio server's own listener's.
    assert.match(viaHttp, new RegExp(`^http://127\\.0\\.0\\.1:${http.port}/screenshots/[0-9a-f]{32}$`));
    const stdioPort = /msg="serving screenshots" addr=127\.0\.0\.1:(\d+)/.exec(stdioErr)?.[1];
    assert.ok(stdioPort, stdioErr);
    assert.match(viaStdio, new RegExp(`^http://127\\.0\\.0\\.1:${stdioPort}/screenshots/[0-9a-f]{32}$`));
    const a = await fetchPng(viaHttp);
    const b = await fetchPng(viaStdio);
    assert.equal(a.readUInt32BE(16), 32, 'IHDR width');
    assert.equal(b.readUInt32BE(16), 32, 'IHDR width');
  } finally {
    await deleteSandbox(httpClient, sandboxes.http);
    await deleteSandbox(stdioClient, sandboxes.stdio);
    await stdioClient.close().catch(() => {});
    await httpClient.close().catch(() => {});
    assert.equal(await http.stop(), 0, http.stderr());
    cleanup(dir);
  }
});
