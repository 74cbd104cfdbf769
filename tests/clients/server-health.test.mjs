// /health never hangs with its dependencies (docs/operations.md#endpoints): the real server over
// HTTP talks to the real incusd through a Unix-socket proxy this test can freeze (accepting
// connections and forwarding nothing, as a SIGSTOPped incusd would; the shared incusd itself is
// never stopped). While Incus is frozen, every /health answers within a second, and within the
// check's timeout incus is DOWN with its reason and the time of its last good answer; once Incus
// answers again it is UP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDir, cleanup, startHttp, eventually, freezableProxy } from './server-harness.mjs';

async function timedHealth(base) {
  const started = Date.now();
  const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) });
  const body = await res.json();
  const ms = Date.now() - started;
  const deps = body.checks.find((c) => c.name === 'dependencies');
  return { ms, status: res.status, incus: deps.data.incus, body };
}

test('/health answers within a second while Incus is frozen, and shows incus DOWN then UP', { timeout: 180_000 }, async () => {
  const dir = configDir();
  const socket = join(dir, 'incus-proxy.socket');
  const proxy = await freezableProxy(socket);
  writeFileSync(join(dir, 'agentcompute.yaml'), [
    `incus: {url: "unix://${socket}", pool: default, host: none}`,
    'sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120}',
    'screenshots: {base_url: "http://127.0.0.1:8081", listen: "127.0.0.1:0"}',
  ].join('\n') + '\n');
  let server;
  try {
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml')]);
    const up = await eventually(async () => {
      const h = await timedHealth(server.base);
      return h.incus.status === 'UP' ? h : null;
    }, 30_000, 'incus UP');
    assert.equal(up.status, 200);
    assert.ok(up.incus.last_ok, JSON.stringify(up.incus));
    const metricsUp = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metricsUp, /^agentcompute_dependency_up\{dependency="incus"\} 1(\.0)?$/m);

    proxy.freeze();
    const frozenAt = Date.now();
    let slowest = 0;
    const down = await eventually(async () => {
      const h = await timedHealth(server.base);
      slowest = Math.max(slowest, h.ms);
      assert.ok(h.ms < 1000, `/health took ${h.ms} ms while Incus is frozen`);
      return h.incus.status === 'DOWN' ? h : null;
    }, 20_000, 'incus DOWN while frozen');
    const after = (Date.now() - frozenAt) / 1000;
    assert.equal(down.status, 503);
    assert.match(down.incus.reason, /^no answer within \d+ s$/, JSON.stringify(down.incus));
    // The last good answer is kept: from before the freeze (or a probe in flight as it began).
    assert.ok(Date.parse(down.incus.last_ok) <= frozenAt + 1000, JSON.stringify(down.incus));
    assert.ok(after < 15, `DOWN after ${after} s`);
    // A few more reads while still frozen: still fast, still DOWN.
    for (let i = 0; i < 5; i++) {
      const h = await timedHealth(server.base);
      slowest = Math.max(slowest, h.ms);
      assert.ok(h.ms < 1000, `/health took ${h.ms} ms while Incus is frozen`);
      assert.equal(h.incus.status, 'DOWN');
    }
    const metricsDown = await (await fetch(`${server.base}/metrics`)).text();
    assert.match(metricsDown, /^agentcompute_dependency_up\{dependency="incus"\} 0(\.0)?$/m);
    console.log(`[health] DOWN ${after.toFixed(1)} s after the freeze; slowest /health ${slowest} ms`);

    proxy.thaw();
    const again = await eventually(async () => {
      const h = await timedHealth(server.base);
      return h.incus.status === 'UP' ? h : null;
    }, 30_000, 'incus UP after the thaw');
    assert.ok(Date.parse(again.incus.last_ok) > frozenAt);
  } finally {
    proxy.thaw();
    if (server) await server.stop();
    proxy.close();
    cleanup(dir);
  }
});
