export const root: string;
export function bin(name: string): string;
export function newestMtime(entries: string[]): number;
export function buildIsStale(): boolean;
export function run(cmd: string, args: string[], opts?: object): Promise<number>;
export function buildSpa(): Promise<void>;
export const serverEntry: string;
