// Builds the browser client with Vite's API, then writes a brotli (.br) and a gzip (.gz) copy beside every text file
// of the output, at the highest levels: they are made once per build and served as they are (@fastify/static
// preCompressed). Vite is installed in the web workspace only, so resolve it from there rather than from this
// script's folder.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

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

/** Text files worth compressing; images and fonts are compressed already, source maps are not served compressed. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

function precompress(dir) {
  let files = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath ?? entry.path, entry.name);
    if (!entry.isFile() || !COMPRESSIBLE.test(file)) continue;
    const raw = fs.readFileSync(file);
    const br = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION });
    // A variant no smaller than the file itself would only cost the client a decompression.
    if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
    files++;
  }
  return files;
}

try {
  await build({ root, configFile: resolve(root, 'vite.config.ts'), logLevel: 'info' });
  const files = precompress(join(root, 'dist'));
  console.log(`Precompressed ${files} files (.br, .gz).`);
} catch (err) {
  console.error(err);
  process.exit(1);
}
