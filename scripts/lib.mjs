// Small helpers shared by the npm scripts (plain Node, no dependencies).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Newest modification time below the given files and folders. */
export function newestMtime(entries) {
  let newest = 0;
  const walk = (p) => {
    if (!existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules') walk(path.join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  entries.forEach((e) => walk(path.join(root, e)));
  return newest;
}

const BUILD_INPUTS = [
  'src',
  'admin',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'vite.admin.config.ts',
  '.env.prod',
  'package-lock.json',
];

/** True when dist/ is missing or older than any input of the SPA build. */
export function buildIsStale() {
  const built = [path.join(root, 'dist', 'index.html'), path.join(root, 'dist', 'admin', 'index.html')];
  if (!built.every((file) => existsSync(file))) return true;
  return newestMtime(BUILD_INPUTS) > Math.min(...built.map((file) => statSync(file).mtimeMs));
}

/** Runs a command, inheriting stdio; resolves with its exit code. */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Builds the public site, then the console into dist/admin/ (vite.admin.config.ts; the site's build empties
 * dist/ first). Resolves with the first failing exit code, or 0.
 */
export async function buildApps() {
  for (const config of [[], ['--config', 'vite.admin.config.ts']]) {
    const code = await run(bin('vite'), ['build', ...config, '--mode', 'prod', '--logLevel', 'warn']);
    if (code !== 0) return code;
  }
  return 0;
}

/** Builds both apps, or exits with the build's code. */
export async function buildSpa() {
  const code = await buildApps();
  if (code !== 0) process.exit(code);
}

export const serverEntry = path.join(root, 'server', 'src', 'server.ts');
