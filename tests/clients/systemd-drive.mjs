// Drives the installed server over HTTP with the official TypeScript MCP SDK client, for
// tests/systemd/run (here for the SDK in node_modules):  node systemd-drive.mjs URL TOKEN PROGRAM   prints the execute's result as JSON.
// Exits non-zero (with the tool's text) when the execute fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, source] = process.argv.slice(2);
const client = new Client({ name: 'systemd-suite', version: '1.0.0' });
const timer = setTimeout(() => { console.error('systemd-drive.mjs: no answer within 120 s'); process.exit(3); }, 120_000);
await client.connect(new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
}));
const r = await client.callTool({ name: 'execute', arguments: { source } });
await client.close();
clearTimeout(timer);
if (r.isError) {
  console.error(r.content?.map((c) => c.text).join('\n'));
  process.exit(1);
}
console.log(JSON.stringify(r.structuredContent.result));
