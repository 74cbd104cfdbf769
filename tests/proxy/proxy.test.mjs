// deploy/nginx/agentcompute.conf in front of two real agentcompute servers (the packaged jar, on the
// dev incusd), driven by the official TypeScript MCP SDK client through a real nginx (Debian's
// package). The repository's file is used as it is, with only its listen line and its upstream
// server lines replaced by loopback ports. Checked: an execute longer than nginx's 60 s default
// timeouts (with and without progress) whose progress arrives while it runs, 20 identities over
// both servers without a lost session, a screenshot fetched through the proxy, a client sending
// its headers slowly is cut, and /health, /metrics, /admin, /console answer 403 outside the
// management network. "Outside" is a client bound to 127.0.0.2: the file's management network
// holds 127.0.0.1/32 only among loopback addresses.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StreamableHTTPClientTransport } from '../clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js';
import { ROOT, INCUS_SOCKET, startHttp, cleanup } from '../clients/server-harness.mjs';

const IDENTITIES = Array.from({ length: 20 }, (_, i) => `agent${String(i + 1).padStart(2, '0')}`);
const TOKENS = Object.fromEntries(IDENTITIES.map((id) => [id, `${id}-proxy-test-token`]));
const PREFIX = `itproxy-${Math.floor(Math.random() * 0xffffff).toString(16)}`;
const SLEEP_SECONDS = 65; // longer than nginx's default proxy_read_timeout of 60 s
const LONG = { timeout: 240_000 };

/** A loopback port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** GET through the proxy from `localAddress` (127.0.0.2 is outside the management network). */
function get(port, path, localAddress = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, timeout: 10_000 }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** The repository's nginx file, with only its listen line and upstream servers replaced. */
function proxyConfig(port, upstreams) {
  const original = readFileSync(join(ROOT, 'deploy', 'nginx', 'agentcompute.conf'), 'utf8');
  let listens = 0; let servers = 0;
  const out = original
    .replace(/^(\s*)listen 8443;$/m, (_, indent) => { listens++; return `${indent}listen 127.0.0.1:${port};`; })
    .replace(/^(\s*)server 10\.212\.50\.1[12]:8080 (.*)$/gm, (_, indent, rest) =>
      `${indent}server 127.0.0.1:${upstreams[servers++]} ${rest}`);
  assert.equal(listens, 1, 'the file has one `listen 8443;` line to replace');
  assert.equal(servers, 2, 'the file has two upstream server lines to replace');
  return out;
}

function startNginx(dir, port, upstreams) {
  writeFileSync(join(dir, 'agentcompute.conf'), proxyConfig(port, upstreams));
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d));
  writeFileSync(join(dir, 'nginx.conf'), `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log info;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/agentcompute.conf;
}
`);
  const check = spawnSync('nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
  assert.equal(check.status, 0, `nginx -t refused the configuration:\n${check.stderr}`);
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += d; });
  const exited = new Promise((done) => child.on('close', (code, signal) => done(code ?? signal)));
  return {
    stderr: () => err,
    errorLog: () => { try { return readFileSync(join(dir, 'error.log'), 'utf8'); } catch { return ''; } },
    stop: async () => { child.kill('SIGTERM'); return exited; },
    ready: async () => {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        try { await get(port, '/nothing'); return; } catch { await new Promise((r) => setTimeout(r, 100)); }
      }
      throw new Error(`nginx did not listen on 127.0.0.1:${port}:\n${err}`);
    },
  };
}

function serverConfig(dir, proxyPort) {
  mkdirSync(join(dir, 'images'));
  copyFileSync(join(ROOT, 'capabilities', 'src', 'test', 'resources', 'desktop-catalog.yaml'),
    join(dir, 'images', 'catalog.yaml'));
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify(TOKENS));
  writeFileSync(join(dir, 'agentcompute.yaml'), [
    `incus: {url: "unix://${INCUS_SOCKET}", pool: default, host: none}`,
    'sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}',
    // Agents reach the servers through the proxy, so screenshot URLs name it.
    `screenshots: {base_url: "http://127.0.0.1:${proxyPort}/", listen: "127.0.0.1:0"}`,
  ].join('\n') + '\n');
  return join(dir, 'agentcompute.yaml');
}

async function connect(url, id) {
  const transport = new StreamableHTTPClientTransport(new URL(url),
    { requestInit: { headers: { Authorization: `Bearer ${TOKENS[id]}` } } });
  const client = new Client({ name: `proxy-test-${id}`, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function execute(client, source, options = {}) {
  const r = await client.callTool({ name: 'execute', arguments: { source } }, undefined, { ...LONG, ...options });
  assert.equal(r.isError ?? false, false, JSON.stringify(r));
  return r.structuredContent.result;
}

/** The open-sessions gauge of one server, read from it directly (not through the proxy). */
async function sessions(server) {
  const text = await (await fetch(`${server.base}/metrics`)).text();
  const m = /^agentcompute_mcp_sessions(?:\{[^}]*\})?\s+(\S+)$/m.exec(text);
  assert.ok(m, 'the server reports its open sessions');
  return Number(m[1]);
}

describe('nginx in front of two servers', { concurrency: true }, () => {
  let nginxDir; let dirs; let servers; let nginx; let port; let mcp;
  const clients = [];

  before(async () => {
    assert.equal(spawnSync('nginx', ['-v']).status, 0, 'nginx is not installed: dev/setup installs Debian\'s package');
    port = await freePort();
    mcp = `http://127.0.0.1:${port}/mcp`;
    nginxDir = mkdtempSync(join(tmpdir(), 'agentcompute-nginx-'));
    dirs = [mkdtempSync(join(tmpdir(), 'agentcompute-proxy-a-')), mkdtempSync(join(tmpdir(), 'agentcompute-proxy-b-'))];
    servers = await Promise.all(dirs.map((d) => startHttp(['--config', serverConfig(d, port),
      '--auth-tokens-file', join(d, 'tokens.json')])));
    nginx = startNginx(nginxDir, port, servers.map((s) => s.port));
    await nginx.ready();
  });

  after(async () => {
    // Whatever a test created: every sandbox of this run, through the proxy.
    try {
      const client = await connect(mcp, IDENTITIES[0]);
      await execute(client, `def main():\n    return [s["name"] for s in sandbox.list()["items"] if s["name"].startswith("${PREFIX}") and sandbox.delete(name=s["name"]) == {}]\n`);
      await client.close();
    } catch (e) {
      console.error(`[proxy] cleanup through the proxy failed: ${e.message}`);
    }
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    // What nginx saw go wrong (upstream failures, refused requests), for a failed run's reader.
    const problems = (nginx?.errorLog() ?? '').split('\n').filter((l) => /\[(warn|error|crit|alert)\]/.test(l));
    if (problems.length) console.error(`[proxy] nginx error.log:\n${problems.join('\n')}`);
    for (const [i, s] of (servers ?? []).entries()) {
      const bad = s.stderr().split('\n').filter((l) => /level=(WARN|ERROR)/.test(l));
      if (bad.length) console.error(`[proxy] server ${i + 1} warnings and errors:\n${bad.slice(-20).join('\n')}`);
    }
    await nginx?.stop();
    await Promise.all((servers ?? []).map((s) => s.stop()));
    for (const d of [nginxDir, ...(dirs ?? [])]) if (d) cleanup(d);
  });

  test('an execute longer than nginx\'s 60 s defaults succeeds, its progress arriving while it runs', LONG, async () => {
    const [withProgress, silent] = await Promise.all([connect(mcp, 'agent01'), connect(mcp, 'agent02')]);
    clients.push(withProgress, silent);
    const name = `${PREFIX}-long`;
    await execute(withProgress, `def main():\n    sandbox.create(name="${name}")\n    instance.create(sandbox="${name}", name="w", image="busybox")\n`);
    const sleep = `def main():\n    return instance.exec(sandbox="${name}", name="w", command="sleep ${SLEEP_SECONDS}; echo slept", timeout_seconds=120)\n`;
    const events = [];
    const started = Date.now();
    // The second execute asks for no progress: only the server's keep-alive comments (every 15 s)
    // cross the proxy. Those keep nginx's read timer from firing even at its 60 s default, so this
    // shows that a long call completes through the proxy, not which timeout value allows it.
    const [loud, quiet] = await Promise.all([
      execute(withProgress, sleep, { onprogress: (p) => events.push({ at: Date.now(), message: p.message }) }),
      execute(silent, sleep),
    ]);
    const finished = Date.now();
    for (const r of [loud, quiet]) {
      assert.equal(r.exit_code, 0, JSON.stringify(r));
      assert.match(r.stdout, /slept/);
    }
    assert.ok(finished - started > SLEEP_SECONDS * 1000, `took ${finished - started} ms`);
    const ticks = events.filter((e) => /still running/.test(e.message ?? ''));
    assert.ok(ticks.length >= 5, `progress every 10 s during the exec: ${events.map((e) => e.message).join(' | ')}`);
    // Unbuffered: the ticks arrived spread over the exec, the first long before the result.
    assert.ok(finished - ticks[0].at > 40_000, `first tick ${finished - ticks[0].at} ms before the result`);
    assert.ok(ticks.at(-1).at - ticks[0].at > 30_000, 'ticks spread over the run, not delivered at the end');
    await execute(withProgress, `def main():\n    return sandbox.delete(name="${name}")\n`);
  });

  test('20 identities spread over both servers lose no session', LONG, async () => {
    const all = await Promise.all(IDENTITIES.map((id) => connect(mcp, id)));
    clients.push(...all);
    // Every request of every session must reach the server holding it: three requests each, the
    // CodeMode tools that run in the server (an execute starts a worker JVM: 20 at once would
    // measure the machine, not the proxy), then one execute each for a few of them.
    await Promise.all(all.map(async (client) => {
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'execute'));
      const found = await client.callTool({ name: 'search_api', arguments: { query: 'sandbox' } });
      assert.equal(found.isError ?? false, false, JSON.stringify(found));
      const described = await client.callTool({ name: 'describe_api', arguments: { name: 'sandbox.list' } });
      assert.equal(described.isError ?? false, false, JSON.stringify(described));
    }));
    for (const [i, client] of all.slice(0, 4).entries()) {
      assert.equal(await execute(client, `def main():\n    return ${i} * 2\n`), i * 2);
    }
    const open = await Promise.all(servers.map(sessions));
    assert.ok(open.every((n) => n >= 2), `both servers hold sessions (${open.join(' and ')})`);
    assert.ok(open[0] + open[1] >= IDENTITIES.length, `${open[0] + open[1]} sessions open`);
  });

  test('a screenshot is fetched through the proxy, whichever server took it', LONG, async () => {
    const client = await connect(mcp, 'agent03');
    clients.push(client);
    const name = `${PREFIX}-d`;
    const shot = await execute(client, `
def main():
    sandbox.create(name="${name}")
    instance.create(sandbox="${name}", name="desk", image="busybox-desktop")
    return desktop.screenshot(sandbox="${name}", instance="desk", max_dimension=32)
`);
    assert.match(shot.url, new RegExp(`^http://127\\.0\\.0\\.1:${port}/screenshots/[0-9a-f]{32}$`));
    // Without a token the hash cannot pick the server: nginx asks the other one on a 404.
    for (let i = 0; i < 4; i++) {
      const got = await fetch(shot.url);
      assert.equal(got.status, 200, `fetch ${i + 1} of the screenshot`);
      assert.equal(got.headers.get('content-type'), 'image/png');
      const png = Buffer.from(await got.arrayBuffer());
      assert.equal(png.readUInt32BE(16), 32, 'IHDR width');
    }
    await execute(client, `def main():\n    return sandbox.delete(name="${name}")\n`);
    assert.equal((await fetch(shot.url)).status, 404, 'a purged screenshot is not found on either server');
  });

  test('a client sending its headers slowly is cut after client_header_timeout (10 s)', { timeout: 60_000 }, async () => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.setEncoding('utf8');
    let answer = '';
    socket.on('data', (d) => { answer += d; });
    socket.on('error', () => {});
    let sent = 0; let drip;
    const connectedAt = await new Promise((resolve) => socket.on('connect', () => {
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      drip = setInterval(() => { sent++; socket.write(`X-Slow-${sent}: x\r\n`); }, 1000);
      resolve(Date.now());
    }));
    const closedAt = await new Promise((resolve) => socket.on('close', () => resolve(Date.now())));
    clearInterval(drip);
    const elapsed = closedAt - connectedAt;
    // Not before the timeout; the upper bound is loose because this runs beside the other tests
    // on a loaded machine (timers and the close event can lag by seconds).
    assert.ok(elapsed >= 9_500 && elapsed < 40_000, `closed after ${elapsed} ms, ${sent} header lines sent`);
    assert.ok(sent >= 2, `the client kept sending (${sent} header lines)`);
    assert.doesNotMatch(answer, /HTTP\/1\.1 [25]\d\d/, 'no request reached the servers');
    // nginx says why it closed: the header timeout, not an idle or a malformed request.
    assert.match(nginx.errorLog(), /client timed out .* while reading client request headers/);
  });

  test('/health, /metrics, /admin and /console answer 403 outside the management network', { timeout: 30_000 }, async () => {
    for (const path of ['/health', '/health/ready', '/metrics', '/admin/sandboxes', '/console']) {
      assert.equal((await get(port, path, '127.0.0.2')).status, 403, `${path} from outside`);
    }
    assert.equal((await get(port, '/health', '127.0.0.1')).status, 200, '/health from the management network');
    const metrics = await get(port, '/metrics', '127.0.0.1');
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^agentcompute_/m);
    // Only /mcp and screenshots are served to the world; anything else is not found.
    assert.equal((await get(port, '/', '127.0.0.2')).status, 404);
    assert.equal((await get(port, '/healthz', '127.0.0.2')).status, 404);
  });
});
