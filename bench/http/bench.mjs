// Latency and throughput of tools/call execute over Streamable HTTP with concurrent sessions,
// using the official TypeScript MCP SDK client. Started by bench/http/run; prints figures only.
//   node bench.mjs --url http://127.0.0.1:PORT/mcp [--sessions 8] [--calls 25] [--warmup 2]
//                  [--token TOKEN | --tokens T1,T2,...] [--source 'def main(): ...']
// --tokens gives session i the token i mod n (one identity, so one CodeMode subject, per session).
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { Client } from '../../tests/clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js';
import { StreamableHTTPClientTransport } from '../../tests/clients/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js';

const { values: opts } = parseArgs({
  options: {
    url: { type: 'string' },
    sessions: { type: 'string', default: '8' },
    calls: { type: 'string', default: '25' },
    warmup: { type: 'string', default: '2' },
    token: { type: 'string' },
    tokens: { type: 'string' },
    label: { type: 'string', default: '' },
    source: { type: 'string', default: 'def main():\n    return sum([i * i for i in range(1000)])\n' },
  },
});
if (!opts.url) throw new Error('--url is required');
const sessions = Number(opts.sessions);
const calls = Number(opts.calls);
const warmup = Number(opts.warmup);

const tokens = opts.tokens ? opts.tokens.split(',') : (opts.token ? [opts.token] : []);

async function session(_, index) {
  const token = tokens.length ? tokens[index % tokens.length] : undefined;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(opts.url), { requestInit: { headers } });
  const client = new Client({ name: 'bench-http', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function execute(client) {
  const start = performance.now();
  const result = await client.callTool({ name: 'execute', arguments: { source: opts.source } },
    undefined, { timeout: 900_000 });
  return { ms: performance.now() - start, ok: !result.isError, text: result.content?.[0]?.text };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const clients = await Promise.all(Array.from({ length: sessions }, session));
// The warm-up runs as the measurement does, every session at once, so that the server's JIT has
// compiled the concurrent path before anything is timed; its own rate is printed too, as the
// figure a freshly started server gives.
const warmupStart = performance.now();
await Promise.all(clients.map(async ({ client }) => {
  for (let i = 0; i < warmup; i++) await execute(client);
}));
const warmupMs = performance.now() - warmupStart;
const latencies = [];
let errors = 0;
let firstError;
const wallStart = performance.now();
await Promise.all(clients.map(async ({ client }) => {
  for (let i = 0; i < calls; i++) {
    const r = await execute(client);
    latencies.push(r.ms);
    if (!r.ok) { errors++; firstError ??= r.text; }
  }
}));
const wallMs = performance.now() - wallStart;
for (const { client, transport } of clients) {
  await transport.terminateSession().catch(() => {});
  await client.close();
}
latencies.sort((a, b) => a - b);
const total = latencies.length;
const f = (ms) => `${ms.toFixed(1)} ms`;
console.log(`tools/call execute over Streamable HTTP${opts.label ? ` (${opts.label})` : ''}: ${sessions} concurrent sessions x ${calls} calls (${warmup} warm-up each), ${tokens.length > 1 ? `${tokens.length} identities` : 'one identity'}`);
if (warmup > 0) {
  console.log(`  warm-up     ${sessions * warmup} calls in ${(warmupMs / 1000).toFixed(2)} s = ${((sessions * warmup) / (warmupMs / 1000)).toFixed(1)} calls/s (not counted below)`);
}
console.log(`  calls       ${total} (${errors} errors${firstError ? `: ${firstError}` : ''})`);
console.log(`  wall        ${(wallMs / 1000).toFixed(2)} s`);
console.log(`  throughput  ${(total / (wallMs / 1000)).toFixed(1)} calls/s`);
console.log(`  latency     p50 ${f(percentile(latencies, 50))}  p90 ${f(percentile(latencies, 90))}  p99 ${f(percentile(latencies, 99))}  max ${f(latencies[total - 1])}  mean ${f(latencies.reduce((a, b) => a + b, 0) / total)}`);
if (errors > 0) process.exitCode = 1;
