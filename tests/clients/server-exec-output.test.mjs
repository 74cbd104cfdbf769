// Output as it comes, through the real server, the real incusd and the official TypeScript MCP SDK
// client: a foreground instance.exec that runs longer than a few seconds sends its new output lines
// as progress notifications before the result, which is unchanged; a background one returns at
// once with its process id, and its output is read back by offset.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { configDir, cleanup, startHttp } from './server-harness.mjs';

const TOKEN = 'exec-output-secret';
const LONG = { timeout: 240_000 };

describe('exec output as it comes over HTTP', () => {
  let dir; let server; let client; let sandbox;

  const run = (source, options = {}) =>
    client.callTool({ name: 'execute', arguments: { source } }, undefined, { ...LONG, ...options });

  before(async () => {
    dir = configDir();
    writeFileSync(join(dir, 'tokens.json'), JSON.stringify({ carol: TOKEN }));
    server = await startHttp(['--config', join(dir, 'agentcompute.yaml'),
      '--auth-tokens-file', join(dir, 'tokens.json')]);
    client = new Client({ name: 'agentcompute-exec-output-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url),
      { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const created = await run([
      'def main():',
      '    s = sandbox.create(ttl_minutes=30)["name"]',
      '    instance.create(sandbox=s, name="c1", image="busybox", network="none")',
      '    return s',
    ].join('\n') + '\n');
    assert.equal(created.isError ?? false, false, JSON.stringify(created));
    sandbox = created.structuredContent.result;
  });

  after(async () => {
    if (sandbox) {
      await run(`def main():\n    sandbox.delete(name="${sandbox}")\n    return True\n`).catch(() => {});
    }
    await client?.close();
    await server?.stop();
    cleanup(dir);
  });

  test('a long foreground exec sends its output lines as progress before the result', LONG, async () => {
    const events = [];
    let resultAt = 0;
    const command = 'i=0; while [ $i -lt 7 ]; do echo tick-$i; echo warn-$i >&2; i=$((i+1)); sleep 1; done';
    const result = await run([
      'def main():',
      `    return instance.exec(sandbox="${sandbox}", name="c1", command="${command}")`,
    ].join('\n') + '\n', {
      onprogress: (p) => events.push({ ...p, at: Date.now() }),
      resetTimeoutOnProgress: true,
    }).then((r) => { resultAt = Date.now(); return r; });
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    // The result is what it always was: the whole output.
    const out = result.structuredContent.result;
    assert.equal(out.exit_code, 0);
    assert.equal(out.stdout, [0, 1, 2, 3, 4, 5, 6].map((i) => `tick-${i}\n`).join(''));
    assert.equal(out.stderr, [0, 1, 2, 3, 4, 5, 6].map((i) => `warn-${i}\n`).join(''));
    assert.equal(out.process, undefined, 'a foreground exec has no process id');
    // The lines came as progress, each once, in order, before the result.
    const lines = events
      .filter((e) => e.message.startsWith('instance.exec: '))
      .flatMap((e) => e.message.slice('instance.exec: '.length).split('\n'));
    const ticks = lines.filter((l) => l.startsWith('tick-'));
    assert.ok(ticks.length >= 2, `output lines as progress: ${lines.join(' | ')}`);
    assert.deepEqual(ticks, [...new Set(ticks)].sort(), 'each line once, in order');
    assert.ok(lines.some((l) => /^stderr: warn-\d$/.test(l)), `stderr lines named: ${lines.join(' | ')}`);
    const streamed = events.filter((e) => /instance\.exec: (tick|stderr)/.test(e.message));
    assert.ok(streamed.every((e) => e.at <= resultAt), 'every output notification before the result');
  });

  test('a background exec returns at once and its output is read by offset', LONG, async () => {
    const result = await run([
      'def main():',
      `    p = instance.exec(sandbox="${sandbox}", name="c1", command="echo one; sleep 1; echo two", background=True)["process"]`,
      `    done = instance.process.wait(sandbox="${sandbox}", name="c1", process=p, timeout_seconds=30)`,
      `    first = instance.process.output(sandbox="${sandbox}", name="c1", process=p, max_bytes=4)`,
      `    rest = instance.process.output(sandbox="${sandbox}", name="c1", process=p, stdout_offset=first["stdout_next_offset"])`,
      '    return {"reason": done["reason"], "exit_code": done["exit_code"], "first": first["stdout"], "rest": rest["stdout"], "more": rest["more"]}',
    ].join('\n') + '\n');
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.deepEqual(result.structuredContent.result,
      { reason: 'exited', exit_code: 0, first: 'one\n', rest: 'two\n', more: false });
  });
});
