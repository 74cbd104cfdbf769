// /metrics against its documents (docs/operations.md#metrics): on the real server, after a good
// execute, a failing one and a 401, every agentcompute_, jvm_, process_ and system_ metric that the
// example alert rules (deploy/prometheus) and dashboard (deploy/grafana) name exists, and the
// metric list in docs/operations.md and the families /metrics serves agree in both directions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ROOT, configDir, cleanup, startHttp } from './server-harness.mjs';

const NAME = /\b((?:agentcompute|jvm|process|system)_[a-z0-9_]+)/g;
const TOKEN = 'metrics-test-token-0123456789abcdef';

/** Families (from # TYPE) and sample names of a Prometheus text exposition. */
function parse(text) {
  const families = new Map();
  const samples = new Set();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1], type[2]);
    else if (line && !line.startsWith('#')) samples.add(line.split(/[{ ]/)[0]);
  }
  return { families, samples };
}

/** The backticked metric names of docs/operations.md's Metrics section. */
function documented() {
  const doc = readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8');
  const section = doc.split('\n## Metrics\n')[1].split('\n## ')[0];
  return new Set([...section.matchAll(/`([a-z][a-z0-9_]+)`/g)].map((m) => m[1])
    .filter((n) => /^(agentcompute|jvm|process|system)_/.test(n)));
}

test('every metric the rules, the dashboard and the docs name is served, and the docs list every family', { timeout: 180_000 }, async () => {
  const dir = configDir();
  writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ alice: TOKEN }), { mode: 0o600 });
  let server;
  try {
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml'), '--auth-tokens-file', join(dir, 'tokens.json')]);
    const transport = new StreamableHTTPClientTransport(new URL(server.url),
      { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
    const client = new Client({ name: 'agentcompute-metrics-test', version: '1.0.0' });
    await client.connect(transport);
    const ok = await client.callTool({ name: 'execute', arguments: { source: 'def main():\n    return len(image.list()["items"]) > 0\n' } });
    assert.equal(ok.isError ?? false, false, JSON.stringify(ok));
    assert.match(ok._meta['dev.agentcompute/execute_id'], /^ex-[0-9a-f]{22}$/);
    const failed = await client.callTool({ name: 'execute', arguments: { source: 'def main():\n    return sandbox.get(name="metrics-test-missing")\n' } });
    assert.equal(failed.isError, true);
    assert.match(failed._meta['dev.agentcompute/execute_id'], /^ex-/);
    await client.close();
    assert.equal((await fetch(server.url, { method: 'POST', headers: { Authorization: 'Bearer wrong' } })).status, 401);

    const text = await (await fetch(`${server.base}/metrics`)).text();
    const { families, samples } = parse(text);
    const served = (n) => families.has(n) || samples.has(n);

    // One outcome vocabulary, counters as counters, no constant scope label.
    assert.match(text, /^agentcompute_executions_total\{outcome="capability_failure"\} 1(\.0)?$/m);
    assert.match(text, /^agentcompute_native_calls_total\{capability="sandbox\.get",outcome="capability_failure"\} 1(\.0)?$/m);
    assert.match(text, /^agentcompute_authentication_failures_total\{reason="unknown"\} 1(\.0)?$/m);
    assert.equal(families.get('agentcompute_workers_started_total'), 'counter');
    assert.doesNotMatch(text, /scope="/);
    // Gauges read live state (Micrometer holds gauge state weakly: a lost one reads NaN).
    assert.deepEqual(text.split('\n').filter((l) => l.startsWith('agentcompute_') && / NaN$/.test(l)), []);
    assert.match(text, /^agentcompute_workers_capacity \d/m);
    assert.match(text, /^agentcompute_sandboxes\{platform="incus"\} \d/m);
    assert.match(text, /^agentcompute_build_info\{commit="[^"]+",date="[^"]+",version="[^"]+"\} 1(\.0)?$/m);

    for (const file of ['deploy/prometheus/agentcompute.rules.yml', 'deploy/grafana/agentcompute.json']) {
      const names = new Set([...readFileSync(join(ROOT, file), 'utf8').matchAll(NAME)].map((m) => m[1]));
      assert.ok(names.size > 5, `${file} names metrics`);
      const missing = [...names].filter((n) => !served(n));
      assert.deepEqual(missing, [], `${file} names metrics /metrics does not serve`);
    }

    const docs = documented();
    const ours = [...families.keys()].filter((n) => /^(agentcompute|jvm|process|system)_/.test(n));
    // A timer's _max gauge is documented with its histogram.
    const undocumented = ours.filter((n) => !docs.has(n) && !docs.has(n.replace(/_max$/, '')));
    assert.deepEqual(undocumented, [], 'families /metrics serves that docs/operations.md does not list');
    // GC meters depend on the collector and appear after its first collection.
    const unserved = [...docs].filter((n) => !served(n) && !n.startsWith('jvm_gc_'));
    assert.deepEqual(unserved, [], 'metrics docs/operations.md lists that /metrics does not serve');
  } finally {
    if (server) await server.stop();
    cleanup(dir);
  }
});
