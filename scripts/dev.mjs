// npm run dev: the API server on API_PORT (default 3001) and the Vite dev server (default 5173) whose proxy
// forwards the API prefixes to it.
import { spawn } from 'node:child_process';
import { bin, root, serverEntry } from './lib.mjs';

const apiPort = process.env.API_PORT ?? '3001';
const api = spawn(process.execPath, ['--watch', '--import', 'tsx', serverEntry], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, PORT: apiPort, STATIC_DIR: '' },
});
const vite = spawn(bin('vite'), ['--mode', 'dev', '--host', 'localhost'], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, API_PORT: apiPort },
});
const stop = () => {
  api.kill('SIGTERM');
  vite.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
api.on('exit', stop);
vite.on('exit', (code) => {
  stop();
  process.exit(code ?? 0);
});
