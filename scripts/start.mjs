// npm start: builds the SPA when needed, then runs one server (SPA + API) on one port and prints the URL.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { buildIsStale, buildSpa, root, serverEntry } from './lib.mjs';

if (buildIsStale()) {
  console.log('Building the site and the console (npm run build)…');
  await buildSpa();
}
const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, STATIC_DIR: process.env.STATIC_DIR ?? path.join(root, 'dist') },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
