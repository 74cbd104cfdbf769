// Sandbox lifecycle latency through agentcompute, one execute per step, with the official
// TypeScript MCP SDK client. Started by bench/lifecycle/run; prints figures only.
//   node lifecycle.mjs --url http://127.0.0.1:PORT/mcp [--rounds 10] [--agents 4] [--per-agent 5]
//                      [--tokens T1,T2,...]
// Phases:
//   steps       an execute of `return True` (the round trip and CodeMode worker every step pays),
//               sandbox.create, instance.create (busybox), instance.exec("echo hi"), sandbox.delete,
//               each its own execute, as an agent that discovers step by step would call them;
//   first exec  one program: sandbox.create + instance.create + instance.exec, i.e. the time from
//               asking for a fresh sandbox to the first command's output; then sandbox.delete,
//               timed until the call returns and until Incus no longer lists the sandbox's project;
//   throughput  N agents (one identity each) creating, using and deleting sandboxes concurrently.
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { execFileSync } from 'node:child_process';
import { Client } from '../../tests/clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StreamableHTTPClientTransport } from '../../tests/clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string' },
    rounds: { type: 'string', default: '10' },
    agents: { type: 'string', default: '4' },
    'per-agent': { type: 'string', default: '5' },
    tokens: { type: 'string', default: '' },
    pool: { type: 'string', default: '0' },
  },
});
if (!opts.url) throw new Error('--url is required');
const rounds = Number(opts.rounds);
const agents = Number(opts.agents);
const perAgent = Number(opts['per-agent']);
const tokens = opts.tokens ? opts.tokens.split(',') : [];
const poolSize = Number(opts.pool);

/** Warm pool members in Incus (projects acpool-*). */
function poolMembers() {
  const out = execFileSync('incus', ['project', 'list', '-f', 'csv', '-c', 'n'], { encoding: 'utf8' });
  return out.split('\n').filter((n) => n.startsWith('acpool-')).length;
}

/**
 * With a pool, waits (up to 60 s) until it holds its members again, then 2 s more for Incus to
 * settle after the last member's bridge: each round starts full and on a quiet machine, as an
 * agent's first call after a pause of its own would.
 */
async function poolFull() {
  const start = performance.now();
  while (poolSize > 0 && poolMembers() < poolSize && performance.now() - start < 60_000) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 2_000));
}

async function connect(index) {
  const token = tokens.length ? tokens[index % tokens.length] : undefined;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: 'bench-lifecycle', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(opts.url), { requestInit: { headers } }));
  return client;
}

/** Runs one program; returns its result and the wall time of the call in ms. */
async function run(client, lines) {
  const source = ['def main():', ...lines.map((l) => `    ${l}`)].join('\n') + '\n';
  const start = performance.now();
  const r = await client.callTool({ name: 'execute', arguments: { source } }, undefined, { timeout: 900_000 });
  const ms = performance.now() - start;
  if (r.isError) throw new Error(`execute failed: ${r.content?.[0]?.text}\n${source}`);
  return { ms, result: r.structuredContent?.result };
}

function projectExists(sandbox) {
  try {
    execFileSync('incus', ['project', 'show', `ac-${sandbox}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** ms from now until Incus no longer lists the sandbox's project (polled every 20 ms). */
async function untilGone(sandbox) {
  const start = performance.now();
  while (projectExists(sandbox)) {
    if (performance.now() - start > 120_000) throw new Error(`project ac-${sandbox} still present after 120 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return performance.now() - start;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const line = (label, xs) =>
  console.log(`  ${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(0).padStart(6)} ms   p99 ${pct(xs, 99).toFixed(0).padStart(6)} ms   (n=${xs.length})`);

const client = await connect(0);
// One warm-up round so that the server's JIT and the image cache do not weigh on the first figure.
{
  const { result: s } = await run(client, ['return sandbox.create()["name"]']);
  await run(client, [`instance.create(sandbox="${s}", name="c", image="busybox")`, `return instance.exec(sandbox="${s}", name="c", command="echo hi")["stdout"]`]);
  await run(client, [`sandbox.delete(name="${s}")`, 'return True']);
  await untilGone(s);
}

const steps = { noop: [], create: [], instance: [], exec: [], delete: [] };
for (let i = 0; i < rounds; i++) {
  await poolFull();
  // What every step below pays besides its capability: the HTTP round trip and a CodeMode worker.
  steps.noop.push((await run(client, ['return True'])).ms);
  const c = await run(client, ['return sandbox.create()["name"]']);
  steps.create.push(c.ms);
  const s = c.result;
  steps.instance.push((await run(client, [`instance.create(sandbox="${s}", name="c", image="busybox")`, 'return True'])).ms);
  const e = await run(client, [`return instance.exec(sandbox="${s}", name="c", command="echo hi")["stdout"]`]);
  if (e.result !== 'hi\n') throw new Error(`exec answered ${JSON.stringify(e.result)}`);
  steps.exec.push(e.ms);
  steps.delete.push((await run(client, [`sandbox.delete(name="${s}")`, 'return True'])).ms);
  await untilGone(s);
}
console.log(`agentcompute, one execute per step (${rounds} rounds):`);
line('execute of `return True` (in every step)', steps.noop);
line('sandbox.create', steps.create);
line('instance.create (busybox)', steps.instance);
line('instance.exec("echo hi")', steps.exec);
line('sandbox.delete', steps.delete);

const first = [];
const deleteReturn = [];
const deleteGone = [];
for (let i = 0; i < rounds; i++) {
  await poolFull();
  const r = await run(client, [
    's = sandbox.create()["name"]',
    'instance.create(sandbox=s, name="c", image="busybox")',
    'return [s, instance.exec(sandbox=s, name="c", command="echo hi")["stdout"]]',
  ]);
  const [s, out] = r.result;
  if (out !== 'hi\n') throw new Error(`exec answered ${JSON.stringify(out)}`);
  first.push(r.ms);
  const d = await run(client, [`sandbox.delete(name="${s}")`, 'return True']);
  deleteReturn.push(d.ms);
  deleteGone.push(d.ms + (await untilGone(s)));
}
console.log(`agentcompute, one program (${rounds} rounds):`);
line('create -> first exec output', first);
line('delete, until the call returns', deleteReturn);
line('delete, until Incus holds nothing of it', deleteGone);
await client.close();

// Throughput: each agent its own session and identity, perAgent full cycles back to back.
await poolFull();
const clients = await Promise.all(Array.from({ length: agents }, (_, i) => connect(i)));
const start = performance.now();
let created = 0;
await Promise.all(clients.map(async (c) => {
  for (let i = 0; i < perAgent; i++) {
    const r = await run(c, [
      's = sandbox.create()["name"]',
      'instance.create(sandbox=s, name="c", image="busybox")',
      'instance.exec(sandbox=s, name="c", command="echo hi")',
      'return s',
    ]);
    created++;
    await run(c, [`sandbox.delete(name="${r.result}")`, 'return True']);
  }
}));
const minutes = (performance.now() - start) / 60_000;
console.log(`agentcompute, ${agents} concurrent agents x ${perAgent} cycles (create, instance, exec, delete):`);
console.log(`  ${(created / minutes).toFixed(1)} sandboxes per minute (${created} in ${(minutes * 60).toFixed(1)} s)`);
await Promise.all(clients.map((c) => c.close()));
