/**
 * A minimal real-HTTP load driver for the benches (an autocannon equivalent without the dependency): a browser-like
 * session signed in over HTTP (cookie + CSRF header), one request timed at a time, and closed-loop load at N
 * keep-alive connections run in a worker thread, so the load generator never shares the server's event loop.
 * When the platform's harness (autocannon) lands, the contacts bench can switch to it; the figures mean the same.
 */
import http from 'node:http';
import { Worker } from 'node:worker_threads';

export interface RequestSpec {
  method: 'GET' | 'PATCH' | 'POST';
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};

function send(agent: http.Agent, base: URL, spec: RequestSpec): Promise<{ status: number; body: string }> {
  const payload = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: spec.path,
        method: spec.method,
        headers: { ...spec.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A signed-in session over real HTTP, with one keep-alive connection for timing single requests. */
export class HttpSession {
  private readonly cookies = new Map<string, string>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  constructor(readonly base: URL) {}

  headers(): Record<string, string> {
    return {
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': this.cookies.get('csrf_token') ?? '',
    };
  }

  private keep(setCookie: string | string[] | undefined) {
    for (const c of [setCookie ?? []].flat()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  async signIn(email: string, password: string) {
    await new Promise<void>((resolve, reject) =>
      http
        .get({ agent: this.agent, host: this.base.hostname, port: this.base.port, path: '/v1/health' }, (res) => {
          this.keep(res.headers['set-cookie']);
          res.resume().on('end', resolve);
        })
        .on('error', reject),
    );
    const payload = JSON.stringify({ email, password });
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port,
          path: '/v1/sessions',
          method: 'POST',
          headers: { ...this.headers(), 'content-type': 'application/json' },
        },
        (res) => {
          this.keep(res.headers['set-cookie']);
          res.resume().on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`sign-in ${email}`))));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
    return this;
  }

  spec(method: RequestSpec['method'], path: string, body?: unknown): RequestSpec {
    return { method, path, body, headers: this.headers() };
  }

  /** One request, parsed; throws on a non-2xx answer. */
  async call<T = any>(method: RequestSpec['method'], path: string, body?: unknown): Promise<T> {
    const res = await send(this.agent, this.base, this.spec(method, path, body));
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as T;
  }

  close() {
    this.agent.destroy();
  }
}

/**
 * Closed-loop load: `connections` loops, each sending the next spec (round robin) as soon as the last answered. The
 * loops run in a worker thread (bench/http-load-worker.mjs, plain JavaScript so it needs no loader).
 */
export function load(url: URL, specs: RequestSpec[], connections: number, durationMs: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-load-worker.mjs', import.meta.url), {
      workerData: { url: url.toString(), specs, connections, durationMs },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}
