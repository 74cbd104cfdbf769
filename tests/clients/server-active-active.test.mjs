// Two agentcompute servers on one Incus (docs/reference/capabilities.md#reaper): concurrent extend and pin from both lose no
// update (ETag If-Match on the sandbox's project), and exactly one reaper is active, holding a
// lease stored in Incus; when its server dies, the other takes over within one lease period.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  INCUS_SOCKET, configDir, writeConfig, cleanup, startHttp, eventually,
} from './server-harness.mjs';

// The incus CLI talks to the daemon the servers use: the harness's socket's directory.
const INCUS_ENV = { ...process.env, INCUS_DIR: dirname(INCUS_SOCKET) };
const LEASE_SECONDS = 6;

async function connect(url) {
  const client = new Client({ name: 'active-active-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function run(client, source) {
  const r = await client.callTool({ name: 'execute', arguments: { source } });
  assert.equal(r.isError ?? false, false, JSON.stringify(r));
  return r.structuredContent.result;
}

async function reaperState(server) {
  const body = await (await fetch(`${server.base}/health/ready`)).json();
  return body.checks.find((c) => c.name === 'dependencies').data.compute.details.reaper;
}

function incus(...args) {
  try {
    return execFileSync('incus', args, { env: INCUS_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new Error(`incus ${args.join(' ')}: ${e.stderr || e.message}`);
  }
}

/**
 * `incus project set` reads the project and writes it back with its ETag; a server writing the
 * same project meanwhile makes it fail with 412, as it should. Like any other writer, retry.
 */
async function incusSet(...args) {
  for (let attempt = 1; ; attempt++) {
    try { return incus(...args); } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

describe('two servers on one Incus', () => {
  let dir; let dirB; let a; let b; let ca; let cb;
  const name = `itaa-${Math.random().toString(16).slice(2, 10)}`;
  const orphan = `${name}-x`;

  before(async () => {
    // One configuration each, as on two cluster members: each server locks its own screenshots.dir.
    [dir, dirB] = [configDir(), configDir()];
    for (const d of [dir, dirB]) {
      writeConfig(d, 'log_level: debug', 'default',
        `, pin_identities: [development], reaper_interval_seconds: 1, reaper_lease_seconds: ${LEASE_SECONDS}`);
    }
    a = await startHttp(['--config', join(dir, 'agentcompute.yaml')]);
    b = await startHttp(['--config', join(dirB, 'agentcompute.yaml')]);
    ca = await connect(a.url);
    cb = await connect(b.url);
  });

  const exists = (p) => {
    try { incus('project', 'show', `ac-${p}`); return true; } catch (e) {
      if (/not found/i.test(e.message)) return false;
      throw e;
    }
  };

  after(async () => {
    // A failed test may leave its sandboxes: delete them through whichever server still runs,
    // then report what is left.
    const left = [name, orphan].filter(exists);
    for (const p of left) {
      for (const c of [ca, cb]) {
        const r = await c?.callTool({ name: 'execute', arguments: { source: `def main():\n    sandbox.delete(name="${p}")\n    return True\n` } })
          .catch(() => null);
        if (r && !r.isError) break;
      }
    }
    for (const c of [ca, cb]) await c?.close().catch(() => {});
    for (const s of [a, b]) await s?.stop().catch(() => {});
    cleanup(dir);
    cleanup(dirB);
    assert.deepEqual([name, orphan].filter(exists), [], 'no sandbox left behind');
  });

  test('concurrent extends on one server and pins on the other lose no update', async () => {
    await run(ca, `def main():\n    return sandbox.create(name="${name}", ttl_minutes=30)["name"]\n`);
    const [lastExpiry] = await Promise.all([
      run(ca, `def main():
    last = ""
    for i in range(12):
        last = sandbox.extend(name="${name}", ttl_minutes=10 + i)["expires_at"]
    return last
`),
      run(cb, `def main():
    for i in range(12):
        sandbox.pin(name="${name}", pinned=(i % 2 == 1))
    return True
`),
    ]);
    for (const c of [ca, cb]) {
      const got = await run(c, `def main():\n    return sandbox.get(name="${name}")\n`);
      assert.equal(got.expires_at, lastExpiry, 'the last extend is what both servers read');
      assert.equal(got.pinned, true, 'the last pin is what both servers read');
      assert.equal(got.pinned_by, 'development');
    }
  });

  test('exactly one reaper is active, and the other takes over when its server dies', async () => {
    const states = await eventually(async () => {
      const s = [await reaperState(a), await reaperState(b)];
      return s.filter((x) => x === 'active').length === 1 ? s : null;
    }, 20_000, 'one active reaper');
    assert.deepEqual([...states].sort(), ['active', 'standby']);
    const [holder, other] = states[0] === 'active' ? [a, b] : [b, a];
    const otherClient = other === a ? ca : cb;
    await run(otherClient, `def main():\n    return sandbox.create(name="${orphan}", ttl_minutes=30)["name"]\n`);

    await holder.kill();
    // The orphan's TTL runs out while nobody holds the lease but the dead server.
    await incusSet('project', 'set', `ac-${orphan}`, 'user.agentcompute.expires_at', '2000-01-01T00:00:00Z');
    const started = Date.now();
    await eventually(async () => {
      try { incus('project', 'show', `ac-${orphan}`); return false; } catch { return true; }
    }, (LEASE_SECONDS + 20) * 1000, 'the surviving server to reap the expired sandbox');
    // A holder killed inside its lease's change leaves its lock marker, which the survivor
    // deletes once it is 10 s old (ProjectMutex.STALE): takeover waits for the later of the two.
    assert.ok(Date.now() - started < (LEASE_SECONDS + 15) * 1000,
      'taken over within one lease period (or a stale lock marker) and a few scans');
    // /health/ready answers from the last background check (every 5 s), so it may lag a scan.
    await eventually(async () => (await reaperState(other)) === 'active', 15_000,
      "the survivor's /health/ready to show its reaper active");
    await run(otherClient, `def main():\n    sandbox.delete(name="${name}")\n    return True\n`);
  });
});
