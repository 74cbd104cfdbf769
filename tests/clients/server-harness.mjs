// Starts the real agentcompute server (the jar Maven built, with its lib/ classpath) for the
// server-*.test.mjs suites, and writes the configuration, catalogue and tokens files they use.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, createConnection } from 'node:net';
import { mkdtempSync, writeFileSync, mkdirSync, readdirSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const JAVA_HOME = process.env.AGENTCOMPUTE_JAVA_HOME ?? '/usr/lib/jvm/temurin-25-jdk-amd64';
export const JAVA = join(JAVA_HOME, 'bin', 'java');

/** The built server jar; fails with the build command when it is missing. */
export function serverJar() {
  const target = join(ROOT, 'server', 'target');
  let jar;
  try {
    jar = readdirSync(target).find((f) => /^server-.*\.jar$/.test(f) && !f.includes('sources'));
  } catch {
    jar = undefined;
  }
  if (!jar) {
    throw new Error('server jar not built: run `mvn -pl server -am package -DskipTests` first');
  }
  return join(target, jar);
}

export const INCUS_SOCKET = process.env.AGENTCOMPUTE_INCUS_SOCKET
  ?? join(ROOT, '.state', 'incus', 'unix.socket');

/** A directory with agentcompute.yaml and images/catalog.yaml (the repository's catalogue). */
export function configDir(extraYaml = '') {
  const dir = mkdtempSync(join(tmpdir(), 'agentcompute-test-'));
  mkdirSync(join(dir, 'images'));
  copyFileSync(join(ROOT, 'images', 'catalog.yaml'), join(dir, 'images', 'catalog.yaml'));
  writeConfig(dir, extraYaml);
  return dir;
}

export function writeConfig(dir, extraYaml = '', pool = 'default', sandboxExtra = '') {
  writeFileSync(join(dir, 'agentcompute.yaml'), [
    `incus: {url: "unix://${INCUS_SOCKET}", pool: ${pool}, host: none}`,
    `sandbox: {default_network_kind: bridge, default_ttl_minutes: 30, max_ttl_minutes: 120${sandboxExtra}}`,
    // An ephemeral port for stdio's screenshot listener, so parallel servers never collide.
    'screenshots: {base_url: "http://127.0.0.1:8081", listen: "127.0.0.1:0"}',
    extraYaml,
  ].join('\n') + '\n');
  return join(dir, 'agentcompute.yaml');
}

export function cleanup(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs a short server command to completion (validate, --version, refused starts). */
export function runServer(args, env = {}) {
  const r = spawnSync(JAVA, ['-jar', serverJar(), ...args], {
    encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Starts `http` on an ephemeral loopback port and resolves once it logs `listening`.
 * Returns { url, port, stop(), stderr() }; stop() sends SIGTERM and resolves with the exit code.
 */
export function startHttp(args, env = {}) {
  const child = spawn(JAVA, ['-jar', serverJar(), 'http', '--addr', '127.0.0.1:0', ...args], {
    env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  let started = false;
  // 'close', not 'exit': 'exit' can fire before the last stderr chunk has been read, and the
  // tests assert the shutdown log lines right after stop() resolves.
  const exited = new Promise((done) => child.on('close', (code, signal) => done(code ?? signal)));
  child.stdout.on('data', (d) => { out += d; });
  return new Promise((resolveStart, rejectStart) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rejectStart(new Error(`server did not start within 90 s:\n${err}`));
    }, 90_000);
    exited.then((code) => {
      clearTimeout(timer);
      if (!started) rejectStart(new Error(`server exited with ${code} before listening:\n${err}`));
    });
    child.stderr.on('data', (d) => {
      err += d;
      const m = /msg=listening addr=127\.0\.0\.1:(\d+)/.exec(err);
      if (m && !started) {
        started = true;
        clearTimeout(timer);
        const port = Number(m[1]);
        resolveStart({
          port,
          url: `http://127.0.0.1:${port}/mcp`,
          base: `http://127.0.0.1:${port}`,
          stderr: () => err,
          stdout: () => out,
          /** SIGKILL: the process dies without any shutdown (a crashed server). */
          kill: async () => {
            child.kill('SIGKILL');
            return exited;
          },
          stop: async () => {
            // Keep the event loop alive until the JVM has drained and exited.
            const keepAlive = setInterval(() => {}, 1000);
            child.kill('SIGTERM');
            const code = await exited;
            clearInterval(keepAlive);
            return code;
          },
        });
      }
    });
  });
}

/** Waits until fn() is truthy (polling), or fails after timeoutMs. */
export async function eventually(fn, timeoutMs = 20_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A Unix-socket proxy to the real incusd that can stop forwarding. */
export function freezableProxy(path) {
  const pairs = new Set();
  let frozen = false;
  const server = createServer((down) => {
    const pair = { down, up: null };
    pairs.add(pair);
    down.on('error', () => {});
    down.on('close', () => { pair.up?.destroy(); pairs.delete(pair); });
    if (frozen) return; // accepted, never answered
    const up = createConnection(INCUS_SOCKET);
    pair.up = up;
    up.on('error', () => down.destroy());
    up.on('close', () => down.destroy());
    down.on('data', (d) => { if (!frozen) up.write(d); });
    up.on('data', (d) => { if (!frozen) down.write(d); });
  });
  return new Promise((resolve) => server.listen(path, () => resolve({
    freeze() { frozen = true; },
    thaw() {
      frozen = false;
      // Connections that saw the freeze are out of step; close them so clients reconnect.
      for (const p of pairs) { p.down.destroy(); p.up?.destroy(); }
    },
    close() { for (const p of pairs) { p.down.destroy(); p.up?.destroy(); } server.close(); },
  })));
}
