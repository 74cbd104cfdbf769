// Hostile CodeMode programs against the real server over Streamable HTTP (official TypeScript SDK
// client): each program's answer and wall time, and the worst latency of trivial executes that
// another session runs meanwhile. Prints a Markdown table; with --write FILE replaces the table
// between the hostile-programs markers in FILE. Figures, not assertions: the exit status is 1 when
// a program ended successfully, took 5 s or more, or starved the concurrent session.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../tests/clients/package.json', import.meta.url));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const url = process.argv[2];
const writeTo = process.argv.indexOf('--write') > 0 ? process.argv[process.argv.indexOf('--write') + 1] : null;
const LIMIT_MS = 5000;

const PROGRAMS = [
  ['endless loop', 'steps', 'def main():\n    for i in range(100000000):\n        pass\n'],
  ['squaring a big int 40 times', 'big-int work', 'def main():\n    x = 3\n    for i in range(40):\n        x = x * x\n    return 1\n'],
  ['a 100,000,000-bit shift', 'big-int size', 'def main():\n    return 1 << 100000000\n'],
  ['doubling a list 40 times', 'allocation', "def main():\n    x = ['y' * 1000]\n    for i in range(40):\n        x = x + x\n    return len(x)\n"],
  ['a 1 TiB string', 'allocation', "def main():\n    return 'x' * (1 << 40)\n"],
  ['printing a huge int', 'formatting', "def main():\n    return len('%d' % (1 << 500000))\n"],
  ['a float with a million digits', 'formatting', "def main():\n    return len('%.1000000f' % 1.5)\n"],
  ['100,000-deep JSON', 'nesting', "def main():\n    return json.decode('[' * 100000 + ']' * 100000)\n"],
  ['a million-key dict', 'steps', 'def main():\n    return len({str(i): i for i in range(1000000)})\n'],
  ['sorting a million items', 'steps', 'def main():\n    return sorted(range(1000000), key=lambda x: -x)[0]\n'],
  ['a 2 MB result', 'value bytes', "def main():\n    return 'x' * 2000000\n"],
  ['2,000 native calls', 'native calls', 'def main():\n    for i in range(2000):\n        image.list()\n    return 1\n'],
  ['recursion', 'dialect', 'def f(n):\n    return f(n + 1)\n\ndef main():\n    return f(0)\n'],
  ['a self-containing list to JSON', 'cycles', 'def main():\n    x = []\n    x.append(x)\n    return json.encode(x)\n'],
  ['10,000 nested parentheses', 'parser depth', 'def main():\n    return ' + '('.repeat(10000) + '1' + ')'.repeat(10000) + '\n'],
  ['70 KB of source', 'source bytes', 'def main():\n    return 1\n' + '#'.repeat(70000) + '\n'],
];

async function connect() {
  const client = new Client({ name: 'hostile-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

function answer(result) {
  if (result.isError) return result.content[0].text.split('\n')[0].slice(0, 90);
  return 'ok: ' + JSON.stringify(result.structuredContent).slice(0, 60);
}

const attacker = await connect();
const bystander = await connect();
const trivial = { name: 'execute', arguments: { source: 'def main():\n    return 1\n' } };
await bystander.callTool(trivial); // warm

const rows = [];
let bad = false;
for (const [name, what, source] of PROGRAMS) {
  let running = true;
  let worst = 0;
  const watcher = (async () => {
    while (running) {
      const t0 = performance.now();
      await bystander.callTool(trivial);
      worst = Math.max(worst, performance.now() - t0);
    }
  })();
  const t0 = performance.now();
  const result = await attacker.callTool({ name: 'execute', arguments: { source } },
    undefined, { timeout: 900_000 });
  const wall = performance.now() - t0;
  running = false;
  await watcher;
  const text = answer(result);
  const ok = result.isError && wall < LIMIT_MS && worst < LIMIT_MS;
  if (!ok) bad = true;
  rows.push(`| ${name} | ${what} | \`${text}\` | ${(wall / 1000).toFixed(2)} s | ${(worst / 1000).toFixed(2)} s |${ok ? '' : ' **over**'}`);
  console.error(rows.at(-1));
}
await attacker.close();
await bystander.close();

const load = readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on this machine kind (2 cores), load average ${load}, by \`bench/hostile/run\`.`,
  '',
  '| program | bounded by | answer | wall time | worst concurrent trivial execute |',
  '|---|---|---|---|---|',
  ...rows,
].join('\n');
console.log(table);
if (writeTo) {
  const doc = readFileSync(writeTo, 'utf8');
  const begin = '<!-- hostile-programs:begin -->';
  const end = '<!-- hostile-programs:end -->';
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`${writeTo} has no ${begin} ... ${end} markers`);
  writeFileSync(writeTo, doc.slice(0, i + begin.length) + '\n' + table + '\n' + doc.slice(j));
}
process.exit(bad ? 1 : 0);
