// Measures the JavaScript each route of the built web app downloads (gzip, as served) and fails over budget
// (issue 9): the sign-in page at most 150 kB, any page at most 300 kB. Run after the web build (`npm test` does).
//
// Read from Vite's manifest (apps/web/dist/.vite/manifest.json): a route downloads the entry chunk and its static
// imports, then its page chunk (one of the lazy imports of the entry or of the signed-in pages' table, router.tsx and
// pages/appPages.ts) and the page's static imports. Every page is counted with the signed-in gate, both lazy frames
// (the app shell, the admin frame) and the pages' table, and all they import: an upper bound for each page; the
// sign-in page is counted exactly (it and its frame are part of the entry). What a page loads only after it has
// rendered (the shell's toasts and live connection, a dialog opened later) is not counted.
//
// Keeping it small: the sign-in page's modules must not import the signed-in app (auth/userCache.ts rather than
// auth/session.ts); shared zod schemas are dropped where unused (apps/web/vite-plugins/pure-shared-schemas.ts).
import fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const KB = 1024;
const BUDGET = { signIn: 150 * KB, page: 300 * KB };
const SIGN_IN = 'src/pages/LoginPage.tsx';
const LAYOUTS = ['src/auth/AuthGate.tsx', 'src/layout/AppLayout.tsx', 'src/pages/admin/AdminLayout.tsx'];
// The table of the signed-in pages (router.tsx imports it with the shell): its lazy imports are pages too.
const PAGE_TABLES = ['src/pages/appPages.ts'];

const manifestFile = join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`No ${manifestFile}: build the web app first (npm run build -w @harbor/web).`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

function chunk(key) {
  const c = manifest[key];
  if (!c) {
    console.error(`${key} is not a chunk of the build: update scripts/check-bundle.mjs to the router's modules.`);
    process.exit(1);
  }
  return c;
}

/** The JS files a module's chunk needs before it runs: itself and its static imports, transitively. */
function closure(key, into = new Set()) {
  const c = chunk(key);
  if (into.has(c.file)) return into;
  into.add(c.file);
  for (const k of c.imports ?? []) closure(k, into);
  return into;
}

const sizes = new Map();
function gzipSize(file) {
  if (!sizes.has(file)) {
    const raw = fs.readFileSync(join(dist, file));
    sizes.set(file, zlib.gzipSync(raw, { level: 9 }).length);
  }
  return sizes.get(file);
}
const total = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipSize(f), 0);

const [entryKey] = Object.keys(manifest).filter((k) => manifest[k].isEntry);
const entry = closure(entryKey);
const layouts = [...LAYOUTS, ...PAGE_TABLES].reduce((set, key) => closure(key, set), new Set());

/**
 * The sign-in page is part of the entry chunk (router.tsx imports it statically): it has no chunk of its own in the
 * manifest, so its presence is read from the entry chunk's source map, and a lazy sign-in page is counted as a page.
 */
function signInFiles() {
  if (manifest[SIGN_IN]) return closure(SIGN_IN, new Set(entry));
  const map = join(dist, `${manifest[entryKey].file}.map`);
  const sources = fs.existsSync(map) ? JSON.parse(fs.readFileSync(map, 'utf8')).sources : [];
  if (!sources.some((s) => s.replaceAll('\\', '/').endsWith(SIGN_IN))) {
    console.error(`${SIGN_IN} is neither a chunk nor in the entry chunk: update scripts/check-bundle.mjs.`);
    process.exit(1);
  }
  return entry;
}

const rows = [];
rows.push({ route: `sign-in (${SIGN_IN})`, bytes: total(signInFiles()), budget: BUDGET.signIn });
const lazyImports = [entryKey, ...PAGE_TABLES].flatMap((key) => chunk(key).dynamicImports ?? []);
const pages = [...new Set(lazyImports)].filter(
  (k) => k !== entryKey && !LAYOUTS.includes(k) && !PAGE_TABLES.includes(k),
);
for (const key of pages) {
  const files = closure(key, new Set([...entry, ...layouts]));
  rows.push({ route: manifest[key].src ?? manifest[key].name ?? key, bytes: total(files), budget: BUDGET.page });
}

rows.sort((a, b) => b.bytes - a.bytes);
const width = Math.max(...rows.map((r) => r.route.length));
console.log(`${'route'.padEnd(width)}  ${'JS gzip'.padStart(9)}  budget`);
let over = 0;
for (const r of rows) {
  const ok = r.bytes <= r.budget;
  if (!ok) over++;
  console.log(
    `${r.route.padEnd(width)}  ${`${(r.bytes / KB).toFixed(1)} kB`.padStart(9)}  <= ${r.budget / KB} kB  ${ok ? 'pass' : 'FAIL'}`,
  );
}
console.log(`\nentry alone ${(total(entry) / KB).toFixed(1)} kB; ${rows.length} routes, ${over} over budget`);
// `npm test` fails on a route over budget. `--report` only prints, for looking at figures while a change is made.
process.exit(over && !process.argv.includes('--report') ? 1 : 0);
