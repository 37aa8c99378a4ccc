export const DEFAULT_CHROMIUM_PATH: string;
export const MIN_NODE: [number, number];
export function chromiumPath(env?: NodeJS.ProcessEnv): string;
export function postgresBinDir(): string | null;
export const SYSTEM_PACKAGES: { name: string; present: (env: NodeJS.ProcessEnv) => boolean }[];
export function nodeIsRecentEnough(version?: string): boolean;
export interface MachineFacts {
  missing: string[];
  chromiumPath: string;
  customChromium: boolean;
  isRoot: boolean;
  hasApt: boolean;
  allowInstall: boolean;
  node: string;
}
export type Decision = { action: 'ok' } | { action: 'install'; packages: string[] } | { action: 'stop'; line: string };
export function decide(facts: MachineFacts): Decision;
type Print = (line: string) => void;
export function ensureSystem(options?: { env?: NodeJS.ProcessEnv; log?: Print; error?: Print }): boolean;
export function ensureNodeModules(options: { root: string; log?: Print; error?: Print }): boolean;
