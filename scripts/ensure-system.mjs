// What npm test needs from the machine beyond node_modules, checked in this one place (npm test and
// .ci/run both call it): Node 20.19+, Debian's Chromium for the browser tests, CJK fonts so the
// Chinese pages are drawn in Chinese, PostgreSQL's server programs for the tests with TEST_DB=postgres
// (scripts/pg-cluster.ts), and node_modules, for a fresh clone. Missing packages are installed with
// apt-get when running as root on Debian; otherwise it stops before any test with one line that says
// what to install.
// Plain Node, no dependencies: .ci/run calls it before npm ci.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';
export const MIN_NODE = [20, 19];

/** The Chromium the browser tests launch (tests/e2e/browser-launch.ts reads the same variable). */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const CJK_FONT = /Noto (Sans|Serif) CJK/i;
const CJK_FONT_FILE = /^Noto(Sans|Serif)CJK/i;

/** A Noto CJK font that fontconfig (what Chromium uses on Linux) can find; other systems ship CJK fonts. */
function hasCjkFont() {
  if (process.platform !== 'linux') return true;
  const fc = spawnSync('fc-list', [':', 'family'], { encoding: 'utf8' });
  if (!fc.error && fc.status === 0) return CJK_FONT.test(fc.stdout);
  const scan = (dir, depth = 0) => {
    if (depth > 4 || !existsSync(dir)) return false;
    return readdirSync(dir, { withFileTypes: true }).some((entry) =>
      entry.isDirectory() ? scan(path.join(dir, entry.name), depth + 1) : CJK_FONT_FILE.test(entry.name),
    );
  };
  return ['/usr/share/fonts', '/usr/local/share/fonts', path.join(homedir(), '.fonts')].some((dir) => scan(dir));
}

/**
 * The folder of PostgreSQL's server programs (initdb, postgres), or null: `pg_config --bindir`, else the
 * newest Debian /usr/lib/postgresql/<N>/bin, else wherever PATH finds initdb. scripts/pg-cluster.ts starts
 * the tests' throwaway server from the same folder.
 */
export function postgresBinDir() {
  const hasServer = (dir) => isExecutable(path.join(dir, 'initdb')) && isExecutable(path.join(dir, 'postgres'));
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (!pgConfig.error && pgConfig.status === 0 && hasServer(pgConfig.stdout.trim())) return pgConfig.stdout.trim();
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).filter((name) => /^\d+$/.test(name)) : [];
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    if (hasServer(path.join(debian, version, 'bin'))) return path.join(debian, version, 'bin');
  }
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (onPath.error || onPath.status !== 0 || !onPath.stdout.trim()) return null;
  const dir = path.dirname(realpathSync(onPath.stdout.trim()));
  return hasServer(dir) ? dir : null;
}

/**
 * The system packages, as Debian names them, and how to tell each is there. The one list: add a package
 * here and npm test and CI both check and install it.
 */
export const SYSTEM_PACKAGES = [
  { name: 'chromium', present: (env) => isExecutable(chromiumPath(env)) },
  { name: 'fonts-noto-cjk', present: () => hasCjkFont() },
  { name: 'postgresql', present: () => postgresBinDir() !== null },
];

export function nodeIsRecentEnough(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

const aptLine = (packages) => `apt-get install -y --no-install-recommends ${packages.join(' ')}`;

/**
 * What to do about the machine (pure, so it can be tested without one):
 * - missing: Debian package names not present; chromiumPath/customChromium: where Chromium is expected,
 *   and whether CHROMIUM_PATH chose that place; isRoot, hasApt: whether apt-get can install here;
 *   allowInstall: false when NO_SYSTEM_INSTALL=1; node: the running version.
 * Returns { action: 'ok' } | { action: 'install', packages } | { action: 'stop', line }.
 */
export function decide({ missing, chromiumPath: chromium, customChromium, isRoot, hasApt, allowInstall, node }) {
  if (!nodeIsRecentEnough(node)) {
    return {
      action: 'stop',
      line: `npm test needs Node ${MIN_NODE.join('.')} or newer (this is ${node}): install a newer Node, then run npm test again.`,
    };
  }
  if (missing.length === 0) return { action: 'ok' };
  if (missing.includes('chromium') && customChromium) {
    // apt-get would put Chromium at /usr/bin/chromium, not where CHROMIUM_PATH points.
    const others = missing.filter((name) => name !== 'chromium');
    const also = others.length ? ` and install ${others.join(', ')} (${aptLine(others)})` : '';
    return {
      action: 'stop',
      line: `npm test cannot run the browser tests: there is no Chromium at ${chromium} (CHROMIUM_PATH); point CHROMIUM_PATH at a Chromium binary or unset it to use Debian's ${DEFAULT_CHROMIUM_PATH}${also}, then run npm test again.`,
    };
  }
  if (isRoot && hasApt && allowInstall) return { action: 'install', packages: missing };
  const them = missing.length > 1 ? 'them' : 'it';
  const how = !hasApt
    ? `install ${them} with your system's package manager (Debian: ${aptLine(missing)}; a Chromium elsewhere: set CHROMIUM_PATH)`
    : isRoot
      ? `install ${them} with: ${aptLine(missing)} (NO_SYSTEM_INSTALL is set, so npm test does not)`
      : `install ${them} as root with: sudo ${aptLine(missing)}`;
  return {
    action: 'stop',
    line: `npm test cannot run: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing; ${how}, then run npm test again.`,
  };
}

function hasCommand(name) {
  const probe = spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

function lastLine(text) {
  return (
    String(text ?? '')
      .trim()
      .split('\n')
      .pop() ?? ''
  );
}

/** apt-get update + install, quietly; resolves with a failure line or null. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.error || result.status !== 0) {
      const why = lastLine(result.stderr) || result.error?.message || `exit ${result.status}`;
      return `npm test could not install ${packages.join(', ')} (apt-get ${args[0]}: ${why}); install ${packages.length > 1 ? 'them' : 'it'} with: ${aptLine(packages)}, then run npm test again.`;
    }
  }
  return null;
}

/**
 * Checks the machine, installs what it can, and returns true when the tests can run; otherwise prints one
 * line to stderr and returns false. `log` receives progress lines (installing …).
 */
export function ensureSystem({ env = process.env, log = console.log, error = console.error } = {}) {
  const missingNow = () => SYSTEM_PACKAGES.filter((p) => !p.present(env)).map((p) => p.name);
  const missing = missingNow();
  const decision = decide({
    missing,
    chromiumPath: chromiumPath(env),
    customChromium: Boolean(env.CHROMIUM_PATH) && env.CHROMIUM_PATH !== DEFAULT_CHROMIUM_PATH,
    isRoot: process.getuid?.() === 0,
    hasApt: process.platform === 'linux' && hasCommand('apt-get'),
    allowInstall: env.NO_SYSTEM_INSTALL !== '1',
    node: process.versions.node,
  });
  if (decision.action === 'ok') return true;
  if (decision.action === 'stop') {
    error(decision.line);
    return false;
  }
  log(`Installing ${decision.packages.join(', ')} with apt-get (needed by the tests)…`);
  const failure = aptInstall(decision.packages);
  const still = failure ? [] : missingNow();
  if (failure || still.length) {
    const where = still.includes('chromium') ? ` (Chromium at ${chromiumPath(env)})` : '';
    error(
      failure ??
        `npm test installed ${decision.packages.join(', ')} but still cannot find ${still.join(', ')}${where}; install ${still.length > 1 ? 'them' : 'it'} by hand, then run npm test again.`,
    );
    return false;
  }
  return true;
}

/**
 * node_modules for a fresh clone: npm ci when vitest is not installed yet (npm test needs nothing run
 * before it). Returns false after printing one line when that fails.
 */
export function ensureNodeModules({ root, log = console.log, error = console.error }) {
  if (existsSync(path.join(root, 'node_modules', '.bin', 'vitest'))) return true;
  log('Installing node_modules (npm ci)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (!result.error && result.status === 0) return true;
  error(
    `npm test could not install node_modules (npm ci ${result.error ? result.error.message : `exited with ${result.status}`}); run npm ci, then npm test again.`,
  );
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(ensureSystem() ? 0 : 1);
}
