#!/usr/bin/env node
// A minimal MCP client for agent trials: it gives an agent exactly the three tools agentcompute
// serves and records every call, so a trial can be counted afterwards.
//
//   node mcp.mjs tools                          the three tools' descriptions and schemas
//   node mcp.mjs search "<query>" [cursor]
//   node mcp.mjs describe <capability>
//   node mcp.mjs execute <file.star | -> [confirmation-token]   (a program defining def main():)
//
// AGENTCOMPUTE_URL   Streamable HTTP endpoint (default http://127.0.0.1:8080/mcp)
// AGENTCOMPUTE_TOKEN bearer token, when the server requires one
// TRIAL_LOG          JSON-lines file every call is appended to (default ./trial-calls.jsonl)
//
// It prints the tool's text answer, then a line "isError: true" when the tool reported an error.
import { readFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// The SDK installed for the client tests (`npm ci` in tests/clients).
const sdk = join(here, '..', 'clients', 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm');
const { Client } = await import(join(sdk, 'client', 'index.js'));
const { StreamableHTTPClientTransport } = await import(join(sdk, 'client', 'streamableHttp.js'));

const [verb, arg, extra] = process.argv.slice(2);
const usage =
  'usage: mcp.mjs tools | search "<query>" [cursor] | describe <capability> | execute <file.star|-> [token]';
let tool;
let args;
switch (verb) {
  case 'search':
    if (!arg) throw new Error(usage);
    tool = 'search_api';
    args = { query: arg, ...(extra ? { cursor: extra } : {}) };
    break;
  case 'describe':
    if (!arg) throw new Error(usage);
    tool = 'describe_api';
    args = { name: arg };
    break;
  case 'execute':
    if (!arg) throw new Error(usage);
    tool = 'execute';
    args = { source: readFileSync(arg === '-' ? 0 : arg, 'utf8'), ...(extra ? { confirmation: extra } : {}) };
    break;
  case 'tools':
    break;
  default:
    console.error(usage);
    process.exit(2);
}

const url = new URL(process.env.AGENTCOMPUTE_URL ?? 'http://127.0.0.1:8080/mcp');
const headers = process.env.AGENTCOMPUTE_TOKEN
  ? { Authorization: `Bearer ${process.env.AGENTCOMPUTE_TOKEN}` }
  : {};
const client = new Client({ name: 'agent-trial', version: '1' });
await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
if (verb === 'tools') {
  const { tools } = await client.listTools();
  for (const t of tools) {
    console.log(`## ${t.name}\n${t.description}\ninput: ${JSON.stringify(t.inputSchema)}\n`);
  }
  await client.close();
  process.exit(0);
}
const started = Date.now();
let result;
try {
  result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 900_000 });
} catch (e) {
  result = { isError: true, content: [{ type: 'text', text: `protocol error: ${e.message}` }] };
}
await client.close();

const text = (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const answer = result.structuredContent ? JSON.stringify(result.structuredContent, null, 2) : text;
console.log(answer);
if (result.isError) console.log('isError: true');
appendFileSync(process.env.TRIAL_LOG ?? 'trial-calls.jsonl', JSON.stringify({
  at: new Date(started).toISOString(), ms: Date.now() - started, tool, args,
  isError: Boolean(result.isError), answer: answer.slice(0, 4000),
}) + '\n');
