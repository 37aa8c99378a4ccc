/**
 * The event's own logo, images and documents (services/organiser/event-assets.ts), run by site.ts:
 * - `asset-add <raceId> <file> [--name <name>]`: checks and stores the file; prints the path to use in the
 *   site configuration.
 * - `asset-list <raceId>`: the race's assets with size, dimensions and what uses each.
 * - `asset-replace <raceId> <name> <file>`: new bytes under the same name (every page naming it shows them).
 * - `asset-remove <raceId> <name>`: refused while anything uses it.
 * Each change records itself in the audit log (asset.add, asset.replace, asset.remove), as the console does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenedDatabase } from '../db/database.ts';
import { describeAssetUse } from '#contract/assets';
import { addAsset, assetName, listAssets, removeAsset, replaceAsset } from '../services/organiser/event-assets.ts';
import { formatTable } from './entry-commands.ts';
import type { CommandOutcome } from './registration-screens-commands.ts';

export const ASSET_COMMANDS = {
  'asset-add': { arity: 2, options: ['--name'] },
  'asset-list': { arity: 1, options: [] },
  'asset-replace': { arity: 3, options: [] },
  'asset-remove': { arity: 2, options: [] },
} as const satisfies Record<string, { arity: number; options: readonly string[] }>;
export type AssetCommand = keyof typeof ASSET_COMMANDS;
export const isAssetCommand = (command: string): command is AssetCommand => Object.hasOwn(ASSET_COMMANDS, command);

export const ASSET_USAGE = `  asset-add <raceId> <file> [--name <name>]
      store the event's own image or document (png, jpg, gif, webp, svg up to 5 MB; pdf, doc(x),
      xls(x), zip up to 20 MB; the content must be of its type) in the file store every instance
      serves; prints the path to use in the site configuration, assets/<raceId>/<name>
  asset-list <raceId>           the race's assets: name, path, size, dimensions, used by
  asset-replace <raceId> <name> <file>
      new bytes of the same type under the same name: every page naming it shows the new file (an
      image used where the site needs an exact size must have it)
  asset-remove <raceId> <name>  remove an asset; refused while a site configuration (published or
                                draft), a registration form or the race information uses it`;

interface AssetIo {
  now: number;
  cwd: string;
  withDatabase: <T>(work: (opened: OpenedDatabase) => Promise<T>) => Promise<T>;
}

const kb = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

export async function runAssetCommand(
  command: AssetCommand,
  argv: readonly string[],
  io: AssetIo,
): Promise<CommandOutcome | { ok: false; usage: true; lines: string[] }> {
  const args = [...argv];
  let name: string | undefined;
  const at = args.indexOf('--name');
  if (at >= 0) {
    if (!(ASSET_COMMANDS[command].options as readonly string[]).includes('--name')) {
      return { ok: false, usage: true, lines: [`"${command}" does not take --name.`] };
    }
    name = args[at + 1];
    if (name === undefined || name.startsWith('--') || name.trim() === '') {
      return { ok: false, usage: true, lines: ['--name needs a value.'] };
    }
    args.splice(at, 2);
  }
  const { arity } = ASSET_COMMANDS[command];
  if (args.length !== arity) {
    return {
      ok: false,
      usage: true,
      lines: [`"${command}" takes ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}.`],
    };
  }
  const [raceId = '', second = '', third = ''] = args;
  const actor = { kind: 'cli' } as const;
  const read = (file: string): Buffer | { ok: false; lines: string[] } => {
    try {
      return readFileSync(path.resolve(io.cwd, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        ok: false,
        lines: [`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`],
      };
    }
  };
  if (command === 'asset-replace') {
    const bytes = read(third);
    if (!Buffer.isBuffer(bytes)) return bytes;
    const replaced = await io.withDatabase(({ repos, files }) =>
      replaceAsset(repos, files, { raceId, name: second, bytes, actor, now: io.now }),
    );
    if (!replaced.ok) return { ok: false, lines: [`Nothing replaced: ${replaced.problem}`] };
    const { asset } = replaced;
    return {
      ok: true,
      lines: [
        `replaced ${asset.name} of ${raceId}: ${kb(asset.bytes)}${asset.size ? `, ${asset.size.width}×${asset.size.height} px` : ''}`,
        `served at ${asset.url}; pages naming "${asset.path}" show the new file`,
      ],
    };
  }
  if (command === 'asset-add') {
    const bytes = read(second);
    if (!Buffer.isBuffer(bytes)) return bytes;
    const added = await io.withDatabase(({ repos, files }) =>
      addAsset(repos, files, { raceId, name: name?.trim() ?? assetName(second), bytes, actor, now: io.now }),
    );
    if (!added.ok) return { ok: false, lines: [`Nothing stored: ${added.problem}`] };
    const { asset } = added;
    return {
      ok: true,
      lines: [
        `stored ${asset.name} for ${raceId}: ${kb(asset.bytes)}${asset.size ? `, ${asset.size.width}×${asset.size.height} px` : ''}`,
        `use in the site configuration: "${asset.path}" (served at ${asset.url} by every instance)`,
      ],
    };
  }
  if (command === 'asset-remove') {
    const removed = await io.withDatabase(({ repos, files }) =>
      removeAsset(repos, files, { raceId, name: second, actor, now: io.now }),
    );
    if (!removed.ok) return { ok: false, lines: [`Not removed: ${removed.problem}`] };
    return { ok: true, lines: [`removed ${second} from ${raceId}'s assets`] };
  }
  const listed = await io.withDatabase(({ repos, files }) => listAssets(repos, files, raceId));
  if (!listed.ok) return { ok: false, lines: [listed.problem] };
  if (listed.assets.length === 0) {
    return {
      ok: true,
      lines: [`No asset for ${raceId}. Add one with: site asset-add ${raceId} <file> [--name <name>]`],
    };
  }
  return {
    ok: true,
    lines: [`${listed.assets.length} asset${listed.assets.length === 1 ? '' : 's'} of ${raceId}:`].concat(
      formatTable(
        ['name', 'path', 'size', 'px', 'used by'],
        listed.assets.map((a) => [
          a.name,
          a.path,
          kb(a.bytes),
          a.size ? `${a.size.width}×${a.size.height}` : '-',
          a.usedBy.map(describeAssetUse).join(', ') || '-',
        ]),
      ),
    ),
  };
}
