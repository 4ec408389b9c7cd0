/**
 * Harbor's real entry point (src/main.ts) as a process of its own on a free port: what a test needs to show that
 * the process keeps running, and what the HTTP benches load. Resolves once /v1/health answers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './redis-server.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  /** The last few kB the process printed. */
  output(): string;
  /** Whether it has exited (and with which code). */
  exitCode(): number | null;
  stop(): Promise<void>;
}

export async function startServerProcess(env: Record<string, string>, timeoutMs = 120_000): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // SERVER_NODE_ARGS: flags NODE_OPTIONS refuses, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a bench's server.
  const extra = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...extra, '--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering:\n${output}`);
    try {
      const res = await fetch(`${url}/v1/health`);
      if (res.status === 200 || res.status === 503) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer /v1/health in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    process: child,
    output: () => output,
    exitCode: () => child.exitCode,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    },
  };
}
