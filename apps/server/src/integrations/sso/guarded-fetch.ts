/**
 * The only way the SSO adapter reaches an identity provider. A System Admin types the issuer URL, so without this a
 * company admin could make the server fetch its own network (cloud metadata at 169.254.169.254, an internal admin
 * page, a port scan of loopback read from the error texts). Outside development:
 *   - the host is resolved and EVERY address it resolves to must be public (no loopback, private, link-local, CGNAT,
 *     multicast, reserved or documentation range, IPv4-mapped or not);
 *   - the connection goes to the address that was checked (the socket's DNS lookup is pinned to it), so a name that
 *     answers a public address to the check and 127.0.0.1 to the connect (DNS rebinding) gets nowhere;
 *   - redirects are not followed, answers are capped in size and time.
 * Every refusal and failure is one SsoError whose message says nothing about what was found.
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';

const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 5_000;

const blocked = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net4, bits, 'ipv4');
}
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net6, bits, 'ipv6');
}

/** True for an address Harbor must not connect to on behalf of a tenant. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  return blocked.check(address, 'ipv6');
}

export class UnreachableProvider extends Error {
  constructor(readonly detail: string) {
    super('The identity provider could not be reached');
  }
}

interface Target {
  address: string;
  family: 4 | 6;
}

async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<Target> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await dns.lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new UnreachableProvider(`lookup failed: ${(err as Error).message}`);
    }
  }
  if (addresses.length === 0) throw new UnreachableProvider('no address');
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
    throw new UnreachableProvider(`refused address among ${addresses.map((a) => a.address).join(', ')}`);
  }
  return { address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}

/** A fetch for openid-client and jose that applies the rules above. */
export function guardedFetch(allowPrivate: boolean) {
  return async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UnreachableProvider('scheme');
    const target = await resolveChecked(url.hostname, allowPrivate);
    const lookup: LookupFunction = (_host, opts, cb) => {
      if ((opts as { all?: boolean }).all) (cb as (e: null, a: Target[]) => void)(null, [target]);
      else cb(null, target.address, target.family);
    };
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = transport.request(
        url,
        { method: init.method ?? 'GET', headers, lookup, timeout: TIMEOUT_MS, signal: init.signal ?? undefined },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_BYTES) req.destroy(new UnreachableProvider('answer too large'));
            else chunks.push(c);
          });
          res.on('error', (err) => reject(new UnreachableProvider(err.message)));
          res.on('end', () => {
            const out = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              for (const one of [v].flat()) if (one !== undefined) out.append(k, one);
            }
            const status = res.statusCode ?? 502;
            const noBody = status === 204 || status === 304;
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: out }));
          });
        },
      );
      req.on('timeout', () => req.destroy(new UnreachableProvider('timeout')));
      req.on('error', (err) => reject(err instanceof UnreachableProvider ? err : new UnreachableProvider(err.message)));
      if (body !== undefined) req.write(body);
      req.end();
    });
  };
}
