// One `execute` call over Streamable HTTP with a bearer token; prints the program's result as
// JSON, or the failure text on stderr with exit status 1. Plain fetch: no SDK needed.
//   node bench/files/mcp.mjs URL TOKEN SOURCE
const [url, token, source] = process.argv.slice(2);
let session;

async function post(message) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
    'mcp-protocol-version': '2025-06-18',
  };
  if (session) headers['mcp-session-id'] = session;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  session = res.headers.get('mcp-session-id') ?? session;
  const text = await res.text();
  if (!text.trim()) return undefined;
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5));
    return data.length ? JSON.parse(data[data.length - 1]) : undefined;
  }
  return JSON.parse(text);
}

await post({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-files', version: '1' } },
});
await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
const reply = await post({
  jsonrpc: '2.0', id: 2, method: 'tools/call',
  params: { name: 'execute', arguments: { source } },
});
const result = reply?.result;
if (!result || result.isError) {
  process.stderr.write(`${result?.content?.[0]?.text ?? JSON.stringify(reply)}\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(result.structuredContent?.result ?? null)}\n`);
