// Drives the outside project of tests/library-consumer (built by its `run`, which sets
// INVENTORY_JAR and JAVA) with the official TypeScript MCP SDK: `java -jar` of a server that
// registers inventory.lookup and inventory.adjust and denies adjust to the subject "viewer".
// Not named *.test.mjs: the clients suite would run it without the jar.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const jar = process.env.INVENTORY_JAR;
const java = process.env.JAVA ?? 'java';
assert.ok(jar, 'INVENTORY_JAR names the outside project\'s jar (tests/library-consumer/run sets it)');
const TIMEOUT = { timeout: 60000 };

async function connect(subject) {
  const transport = new StdioClientTransport({ command: java, args: ['-jar', jar, subject], stderr: 'ignore' });
  const c = new Client({ name: 'library-consumer-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

let clerk;
let viewer;
before(async () => { [clerk, viewer] = await Promise.all([connect('clerk'), connect('viewer')]); });
after(async () => { await Promise.all([clerk?.close(), viewer?.close()]); });

const call = (c, name, args) => c.callTool({ name, arguments: args }, undefined, TIMEOUT);
const run = (c, body) => call(c, 'execute', { source: `def main():\n    return ${body}\n` });

test('the server names itself as its Options say', () => {
  assert.deepEqual(clerk.getServerVersion(), { name: 'inventory', version: '1.0.0' });
});

test('search_api and describe_api find the two capabilities', async () => {
  const { tools } = await clerk.listTools(undefined, TIMEOUT);
  assert.deepEqual(tools.map((t) => t.name).sort(), ['describe_api', 'execute', 'search_api']);
  const s = await call(clerk, 'search_api', { query: 'stock' });
  assert.equal(s.isError, false);
  assert.deepEqual(s.structuredContent.results.map((r) => r.name).sort(), ['inventory.adjust', 'inventory.lookup']);
  const d = await call(clerk, 'describe_api', { name: 'inventory.adjust' });
  assert.equal(d.structuredContent.signature, 'inventory.adjust(*, sku: str, delta: int)');
});

test('execute calls the handlers over the in-memory map', async () => {
  const looked = await run(clerk, 'inventory.lookup(sku="apple")');
  assert.equal(looked.isError, false);
  assert.deepEqual(looked.structuredContent, { result: { count: 5, sku: 'apple' } });
  const adjusted = await run(clerk, '[inventory.adjust(sku="pear", delta=3), inventory.lookup(sku="pear")]');
  assert.deepEqual(adjusted.structuredContent, { result: [{ count: 5, sku: 'pear' }, { count: 5, sku: 'pear' }] });
  const unknown = await run(clerk, 'inventory.lookup(sku="plum")');
  assert.equal(unknown.isError, true);
  assert.match(unknown.content[0].text, /^capability failed: no item with sku plum/);
});

test('the authorizer denies adjust to the viewer, and only adjust', async () => {
  const denied = await run(viewer, 'inventory.adjust(sku="apple", delta=-1)');
  assert.equal(denied.isError, true);
  assert.match(denied.content[0].text, /^permission denied/);
  const looked = await run(viewer, 'inventory.lookup(sku="apple")');
  assert.equal(looked.isError, false);
});

// The process and its pre-started workers are gone soon after the client closes stdin.
test('closing stdin ends the server and its workers within 2 s', async () => {
  const p = spawn(java, ['-jar', jar, 'clerk'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const seen = new Set();
  const sample = () => {
    try {
      execFileSync('pgrep', ['-P', String(p.pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).forEach((c) => seen.add(c));
    } catch { /* pgrep exits 1 when there are none */ }
  };
  const alive = (pid) => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
  try {
    // Ready once it answers initialize (the build and its worker check are done).
    const answered = new Promise((resolve) => p.stdout.once('data', resolve));
    p.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {
      protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '1' } } }) + '\n');
    // An unref'd timer: a pending 60 s timer would keep node alive after the tests.
    await Promise.race([answered, new Promise((r) => setTimeout(r, 60000).unref())]);
    // Bounded wait (a loaded machine starts JVMs slowly) until the pre-started workers are up.
    for (const start = Date.now(); Date.now() - start < 60000 && ![...seen].some(alive);) {
      await sleep(100);
      sample();
    }
    assert.ok([...seen].some(alive), 'the server started workers');
    const closed = Date.now();
    p.stdin.end();
    while (Date.now() - closed < 10000 && (p.exitCode === null || [...seen].some(alive))) {
      if (p.exitCode === null) sample();
      await sleep(25);
    }
    const elapsed = Date.now() - closed;
    assert.notEqual(p.exitCode, null, 'the server exited');
    assert.deepEqual([...seen].filter(alive), [], 'no worker is left');
    console.log(`# the server and its ${seen.size} child processes were gone ${elapsed} ms after stdin closed`);
    assert.ok(elapsed <= 2000, `gone after ${elapsed} ms, not within 2000 ms`);
  } finally {
    if (p.exitCode === null) p.kill('SIGKILL');
    [...seen].filter(alive).forEach((pid) => process.kill(Number(pid), 'SIGKILL'));
  }
});
