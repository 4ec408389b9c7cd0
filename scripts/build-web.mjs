// Builds the browser client with Vite's API. Vite is installed in the web workspace only, so resolve it from there
// rather than from this script's folder.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/web');
const requireFromWeb = createRequire(resolve(root, 'package.json'));
const vitePkg = requireFromWeb.resolve('vite/package.json');
const { build } = await import(pathToFileURL(resolve(dirname(vitePkg), 'dist/node/index.js')).href);

/** Newest modification time under the given paths (files the web bundle is made from). */
function newest(paths) {
  let max = 0;
  for (const p of paths) {
    if (!fs.existsSync(p)) continue;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p))
        if (e !== 'node_modules' && e !== 'dist') max = Math.max(max, newest([join(p, e)]));
    } else max = Math.max(max, st.mtimeMs);
  }
  return max;
}

// `npm start` asks for --if-stale: a restart should not spend seconds rebuilding an unchanged bundle.
if (process.argv.includes('--if-stale')) {
  const built = join(root, 'dist/index.html');
  const sources = [
    join(root, 'src'),
    join(root, 'index.html'),
    join(root, 'vite.config.ts'),
    join(root, 'public'),
    resolve(root, '../../packages/shared/src'),
  ];
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs > newest(sources)) {
    console.log('Web app is up to date.');
    process.exit(0);
  }
}

try {
  await build({ root, configFile: resolve(root, 'vite.config.ts'), logLevel: 'info' });
} catch (err) {
  console.error(err);
  process.exit(1);
}
