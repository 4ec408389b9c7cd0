// The load loops of bench/http-load.ts, in a worker thread of their own (plain JavaScript: no loader needed here).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, specs, connections, durationMs } = workerData;
const base = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });

function send(spec) {
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
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const latencies = [];
let errors = 0;
let next = 0;
const start = performance.now();
const end = start + durationMs;
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      const spec = specs[next++ % specs.length];
      const t0 = performance.now();
      try {
        if ((await send(spec)) >= 300) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }),
);
const secs = (performance.now() - start) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
parentPort.postMessage({ requests: latencies.length, rps: latencies.length / secs, p50: at(50), p99: at(99), errors });
