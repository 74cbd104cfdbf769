// The policy module and the operations hooks as agentcompute uses them, through the real server,
// the real incusd and the official TypeScript MCP SDK client: capability hints, MCP resources per
// caller (sandbox.visibility: owner), confirmations (sandbox.confirm) with and without
// elicitation, progress notifications, the audit log, /metrics and worker reuse.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  JAVA, serverJar, configDir, writeConfig, cleanup, startHttp, eventually,
} from './server-harness.mjs';

const TOKENS = { alice: 'alice-policy-secret', bob: 'bob-policy-secret' };
const LONG = { timeout: 300_000 };

async function connect(url, token, capabilities = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url),
    { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  const client = new Client({ name: 'agentcompute-policy-test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  return client;
}

/** Every resource URI, following the pages (50 each: the capabilities alone fill most of one). */
async function allResources(client) {
  const uris = [];
  let cursor;
  do {
    const page = await client.listResources(cursor ? { cursor } : undefined);
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
  } while (cursor);
  return uris;
}

const run = (client, source, extra = {}, options = {}) =>
  client.callTool({ name: 'execute', arguments: { source, ...extra } }, undefined, { ...LONG, ...options });

/** Prometheus text format: every sample as { name, labels, value }. */
function parseMetrics(text) {
  const samples = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    assert.ok(m, `a valid sample line: ${line}`);
    const labels = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}
const sample = (samples, name, labels = {}) => samples
  .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  .reduce((sum, s) => sum + s.value, 0);

describe('policy, resources and operations over HTTP', () => {
  let dir; let server; let alice; let asking; let bob;
  let answer = 'accept';
  const asked = [];
  const metrics = async () => parseMetrics(await (await fetch(`${server.base}/metrics`)).text());

  before(async () => {
    dir = configDir();
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify(TOKENS));
    writeFileSync(join(dir, 'token-secret'), randomBytes(32));
    writeConfig(dir, [
      'tokens_secret_file: token-secret',
      'codemode: {worker_reuse: {max_executions: 10, max_idle_seconds: 60}}',
    ].join('\n'), 'default', ', confirm: [sandbox.delete], visibility: owner');
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml'),
      '--auth-tokens-file', join(dir, 'tokens.json')]);
    alice = await connect(server.url, TOKENS.alice);
    bob = await connect(server.url, TOKENS.bob);
    asking = await connect(server.url, TOKENS.alice, { elicitation: { form: {} } });
    asking.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return answer === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
  });

  after(async () => {
    // Whatever a failed test left: delete alice's sandboxes (confirmed through elicitation).
    answer = 'accept';
    await run(asking, 'def main():\n    for s in sandbox.list()["items"]:\n        sandbox.delete(name=s["name"])\n    return True\n')
      .catch(() => {});
    await Promise.all([alice?.close(), bob?.close(), asking?.close()]);
    await server?.stop();
    assert.doesNotMatch(server.stderr(), /alice-policy-secret|bob-policy-secret/, 'tokens never reach the logs');
    cleanup(dir);
  });

  test('hints: the tools carry ToolAnnotations and describe_api shows every capability\'s hints', async () => {
    const { tools } = await alice.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    assert.equal(byName.search_api.readOnlyHint, true);
    assert.equal(byName.execute.destructiveHint, true);
    const hints = async (name) =>
      (await alice.callTool({ name: 'describe_api', arguments: { name } })).structuredContent.hints;
    assert.deepEqual(await hints('sandbox.delete'),
      { read_only: false, destructive: true, idempotent: true, open_world: false });
    assert.deepEqual(await hints('sandbox.list'),
      { read_only: true, destructive: false, idempotent: true, open_world: false });
    assert.deepEqual(await hints('instance.exec'),
      { read_only: false, destructive: true, idempotent: false, open_world: true });
  });

  test('resources: per-caller sandboxes, templates, reads, and an unknown or hidden one is -32002', LONG, async () => {
    const created = await run(alice, 'def main():\n    return sandbox.create()["name"]\n');
    assert.equal(created.isError ?? false, false, JSON.stringify(created));
    const name = created.structuredContent.result;
    const uri = `agentcompute://sandboxes/${name}`;

    const mine = await allResources(alice);
    assert.ok(mine.includes('agentcompute://images'));
    assert.ok(mine.includes('agentcompute://capabilities/sandbox.delete'));
    assert.ok(mine.includes(uri), 'alice sees the sandbox she created');
    const theirs = await allResources(bob);
    assert.ok(!theirs.includes(uri), 'bob does not see alice\'s sandbox (visibility: owner)');

    const templates = (await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    assert.deepEqual(templates.sort(), [
      'agentcompute://capabilities/{name}',
      'agentcompute://sandboxes/{name}',
      'agentcompute://sandboxes/{sandbox}/instances/{name}',
      'agentcompute://screenshots/{id}',
    ]);

    const read = await alice.readResource({ uri });
    const body = JSON.parse(read.contents[0].text);
    assert.equal(body.name, name);
    assert.equal(read.contents[0].mimeType, 'application/json');
    const images = JSON.parse((await alice.readResource({ uri: 'agentcompute://images' })).contents[0].text);
    assert.ok(images.items.some((i) => i.name === 'busybox'));
    const doc = JSON.parse((await alice.readResource({ uri: 'agentcompute://capabilities/image.list' })).contents[0].text);
    assert.equal(doc.name, 'image.list');

    for (const [client, target] of [[bob, uri], [alice, 'agentcompute://sandboxes/no-such-sandbox']]) {
      await assert.rejects(client.readResource({ uri: target }), (e) => {
        assert.ok(e instanceof McpError);
        assert.equal(e.code, -32002);
        assert.match(e.message, /Resource not found/);
        return true;
      });
    }
    // The same rule in the capabilities: bob's sandbox.list and sandbox.get do not show it.
    const listed = await run(bob, 'def main():\n    return [s["name"] for s in sandbox.list()["items"]]\n');
    assert.ok(!listed.structuredContent.result.includes(name));
    const got = await run(bob, `def main():\n    return sandbox.get(name="${name}")\n`);
    assert.equal(got.isError, true);
    assert.match(got.content[0].text, /not found/);
  });

  test('confirmations: a token without elicitation, decline and accept with it, never another subject\'s', LONG, async () => {
    const created = await run(alice,
      'def main():\n    return [sandbox.create()["name"], sandbox.create()["name"]]\n');
    assert.equal(created.isError ?? false, false, JSON.stringify(created));
    const [first, second] = created.structuredContent.result;
    const del = (name) => `def main():\n    sandbox.delete(name="${name}")\n    return "deleted"\n`;

    const needs = await run(alice, del(first));
    assert.equal(needs.isError, true);
    assert.match(needs.content[0].text,
      new RegExp(`^confirmation required: sandbox\\.delete\\(name="${first}"\\) needs approval; if the user agrees, run execute again with confirmation "`));
    const token = needs.structuredContent.confirmation.token;
    assert.equal(needs.structuredContent.confirmation.capability, 'sandbox.delete');

    const stolen = await run(bob, del(first), { confirmation: token });
    assert.equal(stolen.isError, true);
    assert.equal(stolen.content[0].text, 'invalid confirmation');

    answer = 'decline';
    const declined = await run(asking, del(first));
    assert.equal(declined.isError, true);
    assert.match(declined.content[0].text, /confirmation declined/);
    assert.match(asked.at(-1).message, new RegExp(`^Allow sandbox\\.delete\\(name="${first}"\\)\\? `));

    const approved = await run(alice, del(first), { confirmation: token });
    assert.equal(approved.isError ?? false, false, JSON.stringify(approved));
    assert.equal(approved.structuredContent.result, 'deleted');
    const reused = await run(alice, del(first), { confirmation: token });
    assert.equal(reused.content[0].text, 'invalid confirmation');

    answer = 'accept';
    const accepted = await run(asking, del(second));
    assert.equal(accepted.isError ?? false, false, JSON.stringify(accepted));
  });

  test('progress: execute reports each native call and the waits inside instance.create', LONG, async () => {
    const events = [];
    const result = await run(alice, [
      'def main():',
      '    s = sandbox.create()["name"]',
      '    instance.create(sandbox=s, name="web", image="busybox")',
      '    return s',
    ].join('\n') + '\n', {}, { onprogress: (p) => events.push(p), resetTimeoutOnProgress: true });
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    const messages = events.map((e) => e.message);
    assert.ok(messages.includes('sandbox.create done'), messages.join(' | '));
    assert.ok(messages.some((m) => /^instance\.create: instance web created/.test(m)), messages.join(' | '));
    assert.ok(messages.includes('instance.create done'), messages.join(' | '));
    const progress = events.map((e) => e.progress);
    assert.deepEqual(progress, [...progress].sort((a, b) => a - b), 'progress only grows');

    // The audit trail: one line per native call, naming the sandbox, never argument values.
    const name = result.structuredContent.result;
    await eventually(() => new RegExp(`msg="native call".*subject=alice capability=instance\\.create outcome=ok duration_ms=\\d+ sandbox=${name}`)
      .test(server.stderr()), 20_000, 'the audit line of instance.create');
    assert.doesNotMatch(server.stderr(), /image=busybox/, 'argument values stay out of the audit trail');
    answer = 'accept';
    await run(asking, `def main():\n    sandbox.delete(name="${name}")\n    return True\n`);
  });

  test('/metrics: native calls by capability and outcome, latency histograms that move', async () => {
    const before = await metrics();
    const listed = await run(alice, 'def main():\n    image.list()\n    return sandbox.get(name="missing-one")\n');
    assert.equal(listed.isError, true);
    const afterward = await eventually(async () => {
      const m = await metrics();
      return sample(m, 'agentcompute_native_calls_total', { capability: 'sandbox.get' })
        > sample(before, 'agentcompute_native_calls_total', { capability: 'sandbox.get' }) ? m : null;
    }, 10_000, 'the sandbox.get count to move');
    const delta = (name, labels) => sample(afterward, name, labels) - sample(before, name, labels);
    assert.equal(delta('agentcompute_native_calls_total', { capability: 'image.list', outcome: 'ok' }), 1);
    assert.equal(delta('agentcompute_native_calls_total', { capability: 'sandbox.get', outcome: 'ok' }), 0);
    assert.equal(delta('agentcompute_native_calls_total', { capability: 'sandbox.get' }), 1, 'counted under its failure class');
    const buckets = afterward.filter((s) => s.name === 'agentcompute_native_call_latency_seconds_bucket'
      && s.labels.capability === 'image.list');
    assert.ok(buckets.length > 5, 'histogram buckets per capability');
    const inf = buckets.find((b) => b.labels.le === '+Inf');
    assert.equal(inf.value, sample(afterward, 'agentcompute_native_call_latency_seconds_count', { capability: 'image.list' }));
    const values = buckets.map((b) => b.value);
    assert.deepEqual(values, [...values].sort((a, b) => a - b), 'cumulative buckets');
    assert.equal(afterward.filter((s) => /quantile/.test(JSON.stringify(s.labels))
      && s.name.startsWith('agentcompute_native_call_latency')).length, 0, 'no summary quantiles in a histogram');
  });

  test('worker reuse: one subject\'s executions share a worker JVM', async () => {
    const started = async () => sample(await metrics(), 'agentcompute_workers_started');
    await run(alice, 'def main():\n    return 1\n');
    const first = await started();
    for (let i = 0; i < 4; i++) {
      const r = await run(alice, `def main():\n    return ${i}\n`);
      assert.equal(r.structuredContent.result, i);
    }
    assert.ok(await started() - first < 4, `4 executions started ${await started() - first} workers`);
  });
});

describe('resources over stdio', () => {
  test('the subject local lists and reads the catalogue resource', async () => {
    const dir = configDir();
    const transport = new StdioClientTransport({
      command: JAVA, args: ['-jar', serverJar(), 'stdio', '--config', join(dir, 'agentcompute.yaml')],
      stderr: 'pipe',
    });
    transport.stderr.on('data', () => {});
    const client = new Client({ name: 'agentcompute-test', version: '1.0.0' });
    await client.connect(transport);
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'agentcompute://images'));
    const images = JSON.parse((await client.readResource({ uri: 'agentcompute://images' })).contents[0].text);
    assert.ok(images.items.some((i) => i.name === 'busybox'));
    await client.close();
    cleanup(dir);
  });
});
