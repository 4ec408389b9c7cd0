/**
 * A real redis-server of a test's own, on a spare port, that the test can stop and start again on the same port
 * (an outage and a restart as production would see them). Nothing is saved to disk.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port (or rejects after `ms`). */
export async function waitForPort(port: number, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.end();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > until) throw new Error(`nothing listening on ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class RedisServer {
  private child: ChildProcess | null = null;
  readonly url: string;

  constructor(readonly port: number) {
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async onSparePort() {
    return new RedisServer(await freePort());
  }

  async start() {
    if (this.child) return;
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port);
  }

  async stop() {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}
