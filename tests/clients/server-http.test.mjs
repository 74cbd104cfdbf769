// The real agentcompute server driven by the official TypeScript MCP SDK client, over
// Streamable HTTP (with and without bearer tokens) and stdio; plus the command line's refusals
// and configuration reload as /health reports it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  JAVA, serverJar, configDir, writeConfig, cleanup, runServer, startHttp, eventually,
} from './server-harness.mjs';

const TOOLS = ['describe_api', 'execute', 'search_api'];
const INIT = {
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};
const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

async function connect(url, token) {
  const transport = new StreamableHTTPClientTransport(new URL(url), token
    ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: 'agentcompute-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The three CodeMode tools: shape, and one real call of each. */
async function exerciseTools(client) {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  const search = await client.callTool({ name: 'search_api', arguments: { query: 'sandbox' } });
  assert.equal(search.isError ?? false, false, JSON.stringify(search));
  assert.ok(search.structuredContent.results.some((r) => r.name === 'sandbox.create'),
    'the compute capabilities are in the catalogue');
  const described = await client.callTool({ name: 'describe_api', arguments: { name: 'image.list' } });
  assert.equal(described.structuredContent.name, 'image.list');
  const missing = await client.callTool({ name: 'describe_api', arguments: { name: 'no.such' } });
  assert.equal(missing.isError, true);
  assert.equal(missing.content[0].text, 'capability not found');
  const run = await client.callTool({
    name: 'execute', arguments: { source: 'def main():\n    return {"sum": 1 + 2, "who": "x"}\n' },
  });
  assert.equal(run.isError ?? false, false, JSON.stringify(run));
  assert.deepEqual(run.structuredContent, { result: { sum: 3, who: 'x' } });
  const images = await client.callTool({
    name: 'execute',
    arguments: { source: 'def main():\n    return [i["name"] for i in image.list()["items"]]\n' },
  });
  assert.equal(images.isError ?? false, false, JSON.stringify(images));
  assert.ok(images.structuredContent.result.includes('busybox'), 'a real capability call');
}

describe('HTTP without tokens (loopback, subject development)', () => {
  let dir; let server;
  before(async () => {
    dir = configDir();
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml')]);
  });
  after(async () => {
    const code = await server.stop();
    assert.equal(code, 0, 'SIGTERM is a clean exit');
    assert.match(server.stderr(), /msg="shutting down" drain_timeout=900s/);
    assert.match(server.stderr(), /msg="shut down cleanly"/);
    assert.equal(server.stdout(), '', 'nothing on stdout');
    cleanup(dir);
  });

  test('initialize, tools/list and the three tools', async () => {
    const { client, transport } = await connect(server.url);
    assert.equal(client.getServerVersion().name, 'agentcompute');
    assert.ok(transport.sessionId, 'the server assigned a session');
    await exerciseTools(client);
    await client.close();
  });

  test('session reuse, then DELETE ends the session', async () => {
    const { client, transport } = await connect(server.url);
    const id = transport.sessionId;
    await client.listTools();
    await client.listTools();
    assert.equal(transport.sessionId, id, 'the same session serves every request');
    await transport.terminateSession();
    const after = await fetch(server.url, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
    await client.close();
  });

  test('a browser on another origin is refused', async () => {
    const res = await fetch(server.url, {
      method: 'POST', headers: { ...MCP_HEADERS, Origin: 'http://evil.example' },
      body: JSON.stringify(INIT),
    });
    assert.equal(res.status, 403);
  });

  test('/health reports liveness, readiness with Incus, and the configuration digest', async () => {
    const res = await fetch(`${server.base}/health`);
    const body = await res.json();
    const config = body.checks.find((c) => c.name === 'config');
    assert.match(config.data.digest, /^sha256:[0-9a-f]{64}$/);
    const deps = body.checks.find((c) => c.name === 'dependencies');
    assert.ok(deps.data.incus, 'readiness includes the Incus connection');
    const metrics = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metrics, /agentcompute_mcp_sessions/);
    // The build's identity, the same on /health and /metrics, and stamped by the build.
    const version = body.checks.find((c) => c.name === 'server').data.version;
    const [, v, commit, date] = version.match(/^agentcompute (\S+) \((\S+)\) built (\S+)$/);
    assert.notEqual(v, 'dev');
    assert.match(commit, /^([0-9a-f]{12,40}(-dirty)?|no-git-metadata)$/);
    assert.ok(!Number.isNaN(Date.parse(date)), `build date ${date}`);
    const info = metrics.split('\n').find((l) => l.startsWith('agentcompute_build_info{'));
    assert.ok(info, 'agentcompute_build_info in /metrics');
    assert.match(info, new RegExp(`commit="${commit}"`));
    assert.match(info, new RegExp(`version="${v}"`));
    assert.match(info, / 1(\.0)?$/);
  });

  test('config reload: valid edit applies, invalid is refused, restart-only is pending', async () => {
    const file = join(dir, 'agentcompute.yaml');
    const health = async () => (await (await fetch(`${server.base}/health`)).json())
      .checks.find((c) => c.name === 'config').data;
    const first = (await health()).digest;

    writeConfig(dir, 'log_level: debug');
    const applied = await eventually(async () => {
      const h = await health();
      return h.digest !== first ? h : null;
    }, 20_000, 'the valid edit to be applied');
    assert.deepEqual(applied.pending_restart, []);
    assert.equal(applied.rejected_digest, undefined);
    await eventually(() => /msg="configuration applied".*changed=log_level/.test(server.stderr()),
      10_000, 'the reload log line');

    // Sandbox policy takes effect through a new compute generation, without restart.
    const compute = async () => (await (await fetch(`${server.base}/health/ready`)).json())
      .checks.find((c) => c.name === 'dependencies').data.compute.details;
    assert.equal((await compute()).generation, 1);
    writeFileSync(file, readFileSync(file, 'utf8').replace('max_ttl_minutes: 120', 'max_ttl_minutes: 90'));
    await eventually(async () => {
      const c = await compute();
      return c.generation === 2 && !c.swap_pending;
    }, 60_000, 'compute generation 2');
    // The server logs the swap after the new generation becomes visible: wait for the line.
    await eventually(
      () => /msg="compute reconfigured" generation=2 default_ttl=PT30M max_ttl=PT1H30M/.test(server.stderr()),
      10_000, 'the compute reconfigured log line');
    // At debug level the server prints its own debug records (one per Incus call), never the
    // HTTP client's wire log.
    await eventually(() => /level=DEBUG msg="incus call" method=GET path=\/1\.0/.test(server.stderr()),
      10_000, 'a debug record of ours');
    assert.doesNotMatch(server.stderr(), /org\.apache\.hc/);
    const { client: after } = await connect(server.url);
    const ttl = await after.callTool({ name: 'execute', arguments: { source: 'def main():\n    return 1\n' } });
    assert.equal(ttl.isError ?? false, false);
    await after.close();
    const inForce = (await health()).digest;
    assert.notEqual(inForce, applied.digest);

    writeFileSync(file, readFileSync(file, 'utf8') + 'unknown_key: 1\n');
    const refused = await eventually(async () => {
      const h = await health();
      return h.rejected_digest ? h : null;
    }, 20_000, 'the invalid edit to be refused');
    assert.equal(refused.digest, inForce, 'the old version keeps serving');
    assert.deepEqual(refused.rejected_problems, ['decode configuration: unknown key "unknown_key"']);
    const { client } = await connect(server.url);
    await client.listTools();
    await client.close();

    writeConfig(dir, 'log_level: debug', 'other-pool');
    const pending = await eventually(async () => {
      const h = await health();
      return h.pending_restart.length ? h : null;
    }, 20_000, 'the restart-only change to show as pending');
    assert.match(pending.pending_restart[0], /^incus\.pool: /);
    assert.equal(pending.rejected_digest, undefined);
    writeConfig(dir, 'log_level: info');
  });
});

describe('HTTP with bearer tokens', () => {
  let dir; let server;
  before(async () => {
    dir = configDir();
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ alice: 'alice-secret-1', bob: 'bob-secret-2' }));
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml'),
      '--auth-tokens-file', join(dir, 'tokens.json')]);
  });
  after(async () => {
    await server.stop();
    assert.doesNotMatch(server.stderr(), /alice-secret-1|bob-secret-2/, 'tokens never reach the logs');
    cleanup(dir);
  });

  test('a valid token initializes and calls tools', async () => {
    const { client } = await connect(server.url, 'alice-secret-1');
    await exerciseTools(client);
    await client.close();
  });

  test('no token and a wrong token are 401 with a WWW-Authenticate challenge', async () => {
    for (const headers of [{}, { Authorization: 'Bearer not-a-token' }, { Authorization: 'Basic YWxpY2U=' }]) {
      const res = await fetch(server.url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(INIT) });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate'), /^Bearer realm="agentcompute"/);
      assert.doesNotMatch(await res.text(), /not-a-token/);
    }
    await assert.rejects(connect(server.url, 'wrong-token'));
  });

  test('another identity is refused on a session it did not create', async () => {
    const { client, transport } = await connect(server.url, 'alice-secret-1');
    const id = transport.sessionId;
    for (const method of ['POST', 'GET', 'DELETE']) {
      const res = await fetch(server.url, {
        method,
        headers: {
          ...(method === 'POST' ? MCP_HEADERS : { Accept: 'text/event-stream' }),
          Authorization: 'Bearer bob-secret-2', 'Mcp-Session-Id': id,
        },
        body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }) : undefined,
      });
      assert.equal(res.status, 403, `${method} with bob's token on alice's session`);
    }
    await client.listTools();
    await client.close();
  });

  test('health and metrics need no token', async () => {
    const health = await fetch(`${server.base}/health/live`);
    assert.equal(health.status, 200);
    assert.equal((await fetch(`${server.base}/metrics`)).status, 200);
  });

  test('tokens lift the Host check so a reverse proxy can keep its public name', async () => {
    const { request } = await import('node:http');
    const status = await new Promise((done, fail) => {
      const req = request({
        host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST',
        headers: { ...MCP_HEADERS, Host: 'mcp.example.com', Authorization: 'Bearer bob-secret-2' },
      }, (res) => { res.resume(); done(res.statusCode); });
      req.on('error', fail);
      req.end(JSON.stringify(INIT));
    });
    assert.equal(status, 200);
  });
});

describe('stdio', () => {
  test('serves the three tools with subject local and exits 0 when stdin closes', async () => {
    const dir = configDir();
    const transport = new StdioClientTransport({
      command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', join(dir, 'agentcompute.yaml')],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr.on('data', (d) => { stderr += d; });
    const client = new Client({ name: 'agentcompute-test', version: '1.0.0' });
    await client.connect(transport);
    await exerciseTools(client);
    await client.close();
    await eventually(() => /msg="shut down cleanly"/.test(stderr), 20_000, 'clean stdio shutdown');
    assert.match(stderr, /msg="serving over stdio"/);
    cleanup(dir);
  });
});

describe('command line', () => {
  const MALFORMED = [
    ['[]', 'bearer credential file must be a JSON object of identity names to tokens'],
    ['{"ci": 42}', 'invalid bearer credential entry'],
    ['{"ci": "has space"}', 'bearer identity names and tokens must be nonempty strings without whitespace or control characters'],
    ['{"ci": "tok-1", "ops": "tok-1"}', 'bearer credential file contains a duplicate identity or token'],
    ['{}', 'bearer credential file must contain at least one identity'],
    ['{"ci": "tok-1"} trailing', 'unexpected data after bearer credential object'],
  ];
  for (const [content, message] of MALFORMED) {
    test(`tokens file ${content} is rejected: ${message}`, () => {
      const dir = configDir();
      writeFileSync(join(dir, 'tokens.json'), content);
      const r = runServer(['http', '--config', join(dir, 'agentcompute.yaml'), '--addr', '127.0.0.1:0',
        '--auth-tokens-file', join(dir, 'tokens.json')]);
      assert.equal(r.status, 1, r.stderr);
      assert.ok(r.stderr.includes(message), r.stderr);
      assert.doesNotMatch(r.stderr, /tok-1|has space|trailing/);
      cleanup(dir);
    });
  }

  test('servers on the same screenshots.dir each keep a directory of their own', async () => {
    const dir = configDir();
    const config = join(dir, 'agentcompute.yaml');
    const shots = join(dir, 'screenshots');
    const stores = () => readdirSync(shots).filter((f) => !f.endsWith('.lock')).sort();
    const first = await startHttp(['--config', config]);
    let second;
    try {
      const [own] = stores();
      assert.match(own, /^\.agentcompute-screenshots-\d+-[0-9a-f]+$/);
      second = await startHttp(['--config', config]);
      assert.equal(stores().length, 2, 'the second server started beside the first');
      assert.equal((await fetch(`${second.base}/health/live`)).status, 200);
      assert.equal(await second.stop(), 0);
      second = undefined;
      assert.deepEqual(stores(), [own], 'a stopped server removes only its own directory');
      assert.equal((await fetch(`${first.base}/health/live`)).status, 200);
    } finally {
      if (second) await second.stop();
      assert.equal(await first.stop(), 0);
      assert.deepEqual(readdirSync(shots), []);
      cleanup(dir);
    }
  });

  test('a missing tokens file is an open error', () => {
    const dir = configDir();
    const r = runServer(['http', '--config', join(dir, 'agentcompute.yaml'), '--auth-tokens-file', join(dir, 'nope.json')]);
    assert.equal(r.status, 1);
    assert.ok(r.stderr.includes(`open bearer credential file: ${join(dir, 'nope.json')}: no such file`), r.stderr);
    cleanup(dir);
  });

  test('a non-loopback address without tokens or --insecure is refused', () => {
    const dir = configDir();
    const r = runServer(['http', '--config', join(dir, 'agentcompute.yaml'), '--addr', '0.0.0.0:0']);
    assert.equal(r.status, 2);
    assert.ok(r.stderr.includes('refusing to bind non-loopback address "0.0.0.0:0" without authentication: set --auth-tokens-file (env AGENTCOMPUTE_AUTH_TOKENS_FILE) to require a bearer token, or pass --insecure to expose all tools unauthenticated (UNSAFE)'), r.stderr);
    cleanup(dir);
  });

  test('configuration is required', () => {
    const r = runServer(['stdio'], { AGENTCOMPUTE_CONFIG: '' });
    assert.equal(r.status, 2);
    assert.ok(r.stderr.includes('configuration is required: use --config or AGENTCOMPUTE_CONFIG'), r.stderr);
    assert.equal(r.stdout, '');
  });

  test('validate: exit 0 for a valid candidate, 1 with every problem for an invalid one', () => {
    const dir = configDir();
    const ok = runServer(['validate', '--config', join(dir, 'agentcompute.yaml')]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /: valid \(config sha256:[0-9a-f]{12}, catalogue sha256:[0-9a-f]{12}/);
    writeFileSync(join(dir, 'bad.yaml'), 'incus: {remote: a, url: "https://b", pool: p}\nsandbox: {default_network_kind: vxlan}\nscreenshots: {base_url: "ftp://h/"}\n');
    const bad = runServer(['validate', '--config', join(dir, 'bad.yaml')]);
    assert.equal(bad.status, 1);
    assert.deepEqual(bad.stderr.trim().split('\n'), [
      `${join(dir, 'bad.yaml')}: configure exactly one of incus.remote and incus.url`,
      `${join(dir, 'bad.yaml')}: sandbox.default_network_kind must be bridge or ovn`,
      `${join(dir, 'bad.yaml')}: screenshots.base_url must be an absolute http or https URL without userinfo, query, or fragment`,
    ]);
    cleanup(dir);
  });

  test('--version', () => {
    const r = runServer(['--version']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /^agentcompute \S+ \(\S+\) built \S+\n$/);
    assert.doesNotMatch(r.stdout, /^agentcompute dev |\(none\)| built unknown/, 'placeholders');
  });
});

describe('HTTP with a Rego authorization policy', () => {
  let dir; let server;
  const policy = (extra) => `package agentcompute.authz

default allow := false

allow if input.capability.id == "image.list"

# A policy bug the agent must see as a policy failure, not a denial.
allow if {
  input.capability.id == "sandbox.list"
  x := 1 / 0
  x > 0
}
${extra}
`;
  before(async () => {
    dir = configDir();
    mkdirSync(join(dir, 'policy'));
    writeFileSync(join(dir, 'policy', 'authz.rego'), policy(''));
    writeConfig(dir, 'authorization: {rego: {decision: data.agentcompute.authz.allow, files: [policy/authz.rego]}}');
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml')]);
  });
  after(async () => {
    await server.stop();
    cleanup(dir);
  });

  const call = async (client, source) => client.callTool({ name: 'execute', arguments: { source } });
  const config = async () => (await (await fetch(`${server.base}/health`)).json())
    .checks.find((c) => c.name === 'config').data;

  test('allowed, denied and failing decisions read as the agent must see them', async () => {
    const { client } = await connect(server.url);
    const ok = await call(client, 'def main():\n    return len(image.list()["items"]) > 0\n');
    assert.equal(ok.isError ?? false, false, JSON.stringify(ok));
    const denied = await call(client, 'def main():\n    return sandbox.create(name="nope")\n');
    assert.equal(denied.isError, true);
    assert.equal(denied.content[0].text, 'permission denied');
    const failing = await call(client, 'def main():\n    return sandbox.list()\n');
    assert.equal(failing.isError, true);
    assert.equal(failing.content[0].text, 'authorization policy failure');
    await client.close();
    assert.match((await config()).authorization, /^sha256:[0-9a-f]{64}$/);
  });

  test('an edited policy is reloaded and a broken one never replaces the running one', async () => {
    const first = (await config()).authorization;
    writeFileSync(join(dir, 'policy', 'authz.rego'), policy('allow if input.capability.id == "instance.list"'));
    const second = await eventually(async () => {
      const c = await config();
      return c.authorization !== first ? c.authorization : null;
    }, 20_000, 'the new policy digest');
    writeFileSync(join(dir, 'policy', 'authz.rego'), 'package agentcompute.authz\n\nallow if {\n');
    const refused = await eventually(async () => {
      const c = await config();
      return c.rejected_digest ? c : null;
    }, 20_000, 'the broken policy to be refused');
    assert.equal(refused.authorization, second, 'the running policy keeps serving');
    assert.match(refused.rejected_problems[0], /^authorization\.rego: /);
    const { client } = await connect(server.url);
    const ok = await call(client, 'def main():\n    return len(image.list()["items"]) > 0\n');
    assert.equal(ok.isError ?? false, false, JSON.stringify(ok));
    await client.close();
  });
});
