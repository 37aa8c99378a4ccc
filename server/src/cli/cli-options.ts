/**
 * The one parser of the CLI's named options (`--name value`), for every command family. A command that takes
 * `--race` also takes the race id as its one plain argument, as the older commands do
 * (`letters-status qc-marathon-2027` is `letters-status --race qc-marathon-2027`).
 */

export type CliOptions = Record<string, string | undefined>;

/**
 * Takes `names` out of `argv` (values trimmed); `required` must be there with a value. A refusal is the line
 * to show with the usage text.
 */
export function parseCliOptions(
  command: string,
  argv: readonly string[],
  names: readonly string[],
  required: readonly string[] = [],
): { ok: true; options: CliOptions } | { ok: false; problem: string } {
  const args = [...argv];
  const options: CliOptions = {};
  for (const name of names) {
    const at = args.indexOf(name);
    if (at < 0) continue;
    const value = args[at + 1];
    if (value === undefined || value.startsWith('--') || value.trim() === '') {
      return { ok: false, problem: `${name} needs a value.` };
    }
    options[name] = value.trim();
    args.splice(at, 2);
  }
  if (names.includes('--race') && options['--race'] === undefined && args.length === 1 && !args[0]!.startsWith('--')) {
    options['--race'] = args.shift()!.trim();
  }
  if (args.length > 0) return { ok: false, problem: `"${command}" does not take "${args.join(' ')}".` };
  const missing = required.filter((name) => options[name] === undefined);
  if (missing.length > 0) return { ok: false, problem: `"${command}" needs ${missing.join(', ')}.` };
  return { ok: true, options };
}
