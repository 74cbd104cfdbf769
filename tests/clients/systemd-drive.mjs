// Drives installed servers over HTTP with the official TypeScript MCP SDK client, for
// tests/systemd/run and tests/cluster/servers-on-members (here for the SDK in node_modules):
//   node systemd-drive.mjs URL TOKEN PROGRAM                 prints the execute's result as JSON
//   node systemd-drive.mjs URL TOKEN PROGRAM URL2 PROGRAM2 ...
//       connects to every server first, then sends all the executes at the same moment and
//       prints their results as one JSON array, in order
// Exits non-zero (with the tool's text) when an execute fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, source, ...more] = process.argv.slice(2);
const calls = [[url, source]];
for (let i = 0; i + 1 < more.length; i += 2) calls.push([more[i], more[i + 1]]);
const timer = setTimeout(() => { console.error('systemd-drive.mjs: no answer within 120 s'); process.exit(3); }, 120_000);
const clients = await Promise.all(calls.map(async ([u]) => {
  const client = new Client({ name: 'systemd-suite', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(u), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }));
  return client;
}));
const answers = await Promise.all(
  clients.map((client, i) => client.callTool({ name: 'execute', arguments: { source: calls[i][1] } })));
await Promise.all(clients.map((client) => client.close()));
clearTimeout(timer);
const failed = answers.map((r, i) => (r.isError ? `${calls[i][0]}: ${r.content?.map((c) => c.text).join('\n')}` : null))
  .filter((e) => e !== null);
if (failed.length > 0) {
  console.error(failed.join('\n'));
  process.exit(1);
}
const results = answers.map((r) => r.structuredContent.result);
console.log(JSON.stringify(calls.length === 1 ? results[0] : results));
