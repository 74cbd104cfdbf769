// What an agent sees when it makes the usual mistakes (docs/agents.md): the real server over stdio with
// agent guidance on (its default), driven by the official TypeScript MCP SDK client. Each mistake
// answers with a text that names the fix; a failure lists the state-changing calls that already
// ran; the quirks agents fell into are gone; exec keeps the end of a long output.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { JAVA, serverJar, configDir, cleanup } from './server-harness.mjs';

const TIMEOUT = { timeout: 300_000 };
const SANDBOX = `itnode-guide-${Math.floor(Math.random() * 0xffffff).toString(16)}`;
let dir;
let client;
let stderr = '';

before(async () => {
  dir = configDir();
  const transport = new StdioClientTransport({
    command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', join(dir, 'agentcompute.yaml')],
    stderr: 'pipe',
  });
  transport.stderr.on('data', (d) => { stderr += d; });
  client = new Client({ name: 'agentcompute-guidance-test', version: '1.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client.callTool({
    name: 'execute',
    arguments: { source: `def main():\n    return [s for s in sandbox.list()["items"] if s["name"].startswith("${SANDBOX}") and sandbox.delete(name=s["name"]) == {}]\n` },
  }).catch(() => {});
  await client.close();
  cleanup(dir);
});

async function ok(source) {
  const r = await client.callTool({ name: 'execute', arguments: { source } });
  assert.equal(r.isError ?? false, false, JSON.stringify(r) + stderr.slice(-2000));
  return r.structuredContent.result;
}

async function failure(source) {
  const r = await client.callTool({ name: 'execute', arguments: { source } });
  assert.equal(r.isError, true, JSON.stringify(r));
  return r.content[0].text;
}

test('execute says how to call and that failures are not rolled back', TIMEOUT, async () => {
  const { tools } = await client.listTools();
  const execute = tools.find((t) => t.name === 'execute');
  assert.match(execute.description, /keyword arguments only/);
  assert.match(execute.description, /r\["key"\]/);
  assert.match(execute.description, /A failure is not rolled back/);
});

test('descriptions teach, and search finds by the words agents use', TIMEOUT, async () => {
  const wait = await client.callTool({ name: 'describe_api', arguments: { name: 'instance.wait' } });
  const d = wait.structuredContent;
  assert.notEqual(d.description, d.summary);
  assert.match(d.description, /'running'.*'agent'.*'network'.*'desktop'.*'stopped'/);
  const found = async (query) => (await client.callTool({ name: 'search_api', arguments: { query } }))
    .structuredContent.results.map((r) => r.name);
  assert.equal((await found('container image catalogue'))[0], 'image.list');
  assert.equal((await found('private network between containers'))[0], 'net.create');
  assert.equal((await found('instance ip address'))[0], 'instance.get');
});

// The harness configures sandbox.default_ttl_minutes 30 and max_ttl_minutes 120, not the defaults.
test('describe_api and sandbox.limits state the limits this server is configured with', TIMEOUT, async () => {
  const describe = async (name) =>
    (await client.callTool({ name: 'describe_api', arguments: { name } })).structuredContent.description;
  const create = await describe('sandbox.create');
  assert.match(create, /default \(30 minutes on this server, sandbox\.default_ttl_minutes\)/);
  assert.match(create, /maximum \(120 minutes on this server, sandbox\.max_ttl_minutes\) is refused/);
  assert.doesNotMatch(create, /unless configured|\b240\b|\b1440\b/);
  assert.match(await describe('sandbox.extend'), /at most the server's maximum \(120 minutes on this server/);
  const limits = await ok('def main():\n    return sandbox.limits()\n');
  assert.equal(limits.caller, 'local');
  assert.deepEqual(limits.ttl, { default_minutes: 30, max_minutes: 120, max_lifetime_minutes: 4320 });
  assert.equal(limits.sandboxes.max, 10);
  assert.equal(typeof limits.sandboxes.used, 'number');
  assert.equal(limits.background.processes, 8);
  assert.ok(limits.files.upload_max_bytes > 0, JSON.stringify(limits));
  const found = (await client.callTool({ name: 'search_api', arguments: { query: 'my limits and quota' } }))
    .structuredContent.results.map((r) => r.name);
  assert.equal(found[0], 'sandbox.limits');
});

test('a capability that does not exist names the one meant', TIMEOUT, async () => {
  assert.equal(await failure('def main():\n    return instance.run(sandbox="x", name="y", command="ls")\n'),
    'invalid program: 2:20: instance has no attribute "run" (did you mean instance.exec?)');
  assert.equal(await failure('def main():\n    return sandbox.remove(name="x")\n'),
    'invalid program: 2:19: sandbox has no attribute "remove" (did you mean sandbox.delete?)');
});

test('entry-point mistakes name the entry point', TIMEOUT, async () => {
  assert.equal(await failure('sandbox.list()\n'),
    'invalid program: 1:13: sandbox.list called outside main: capabilities run only inside def main():; move the call there');
  assert.equal(await failure('x = 1\n'),
    'invalid program: main is missing: define def main(): with no parameters and put the calls inside it');
  assert.equal(await failure('def main(x):\n    return x\n'),
    'invalid program: main must take no parameters: define def main(): (nothing is passed to it)');
});

test('results are dicts: attribute access and a missing key say how to read them', TIMEOUT, async () => {
  assert.equal(await failure('def main():\n    r = sandbox.list()\n    return r.items_count\n'),
    'invalid program: 3:13: dict has no attribute "items_count": results are dicts, read a field with r["items_count"]');
  assert.equal(await failure('def main():\n    r = sandbox.list()\n    return r["sandboxes"]\n'),
    'invalid program: 3:13: key "sandboxes" not in dict (keys: items)');
  assert.equal(await failure('def main():\n    n = 0\n    return 1 // n\n'),
    'invalid program: 3:14: floored division by zero: check the divisor before dividing');
});

test('unsupported syntax is named for what it is', TIMEOUT, async () => {
  assert.match(await failure('import json\ndef main():\n    return 1\n'),
    /^invalid program: 1:1: import is not available: json\.\* and math\.\* are builtins/);
  assert.match(await failure('def main():\n    x = 1\n    return f"{x}"\n'),
    /^invalid program: 3:12: f-strings are not available: use "%s" % x or "\{\}"\.format\(x\)$/);
});

test('a resource limit names the limit, its value and the line', TIMEOUT, async () => {
  assert.match(await failure('def main():\n    for i in range(100000000):\n        pass\n'),
    /^resource limit exceeded: execution step limit \(\d+ steps\) exceeded at line 2: /);
});

test('a failure after a state-changing call says what already ran', TIMEOUT, async () => {
  const name = `${SANDBOX}-b`;
  const text = await failure(`def main():\n    sandbox.create(name="${name}", ttl_minutes=10)\n    sandbox.list()\n    return 1 // 0\n`);
  assert.equal(text,
    `invalid program: 4:14: floored division by zero: check the divisor before dividing; before this: sandbox.create -> "${name}"`);
  await ok(`def main():\n    return sandbox.delete(name="${name}")\n`);
});

test('the quirks agents fell into answer with the fix, and exec keeps the end', TIMEOUT, async () => {
  const made = await ok(`
def main():
    sb = sandbox.create(name="${SANDBOX}", ttl_minutes=30)
    lan = net.create(sandbox=sb["name"], name="lan")
    instance.create(sandbox=sb["name"], name="web", image="busybox")
    extended = sandbox.extend(name=sb["name"], ttl_minutes=5)
    return {"kind": sb["network"]["kind"], "lan": lan["kind"], "extended": extended, "expires_at": sb["expires_at"]}
`);
  // net.create without kind takes the sandbox's fabric (bridge here), so the obvious call works.
  assert.equal(made.lan, made.kind);
  // extend never shortens: asking for 5 minutes keeps the 30, and says so.
  assert.equal(made.extended.expires_at, made.expires_at);
  assert.match(made.extended.note, /^kept the expiry at .*extend never shortens/);

  assert.equal(await failure(`def main():\n    return instance.wait(sandbox="${SANDBOX}", name="web", until="bogus-stage")\n`),
    'capability failed: until "bogus-stage" is not a stage: use one of running, agent, network, desktop, stopped');
  assert.equal(await failure(`def main():\n    return desktop.info(sandbox="${SANDBOX}", name="web")\n`),
    'capability failed: instance "web" runs image "busybox", which has no desktop: create the instance from an image that image.list shows with desktop: true');
  assert.equal(await failure(`def main():\n    return instance.exec(sandbox="${SANDBOX}", name="web", command="env", env="A=1,B=2")\n`),
    'capability failed: env entry "A=1,B=2" holds several variables on one line: env is one KEY=VALUE per line, e.g. "A=1\\nB=2"');

  const long = await ok(`
def main():
    return instance.exec(sandbox="${SANDBOX}", name="web", command="awk 'BEGIN { for (i = 0; i < 70000; i++) printf \\"a\\" }'; echo; echo the error is at the end")
`);
  assert.equal(long.stdout_truncated, true, JSON.stringify({ ...long, stdout: long.stdout.length }));
  assert.match(long.stdout, /^a{16384}\n\[\.\.\. \d+ bytes left out here: the output keeps its start and its end \.\.\.\]\na+\nthe error is at the end\n$/);
});
