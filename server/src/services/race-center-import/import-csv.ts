/**
 * CSV imports of the organiser CLI: results (with splits), registrations and photo indexes, one importer per
 * kind (results.ts, registrations.ts, photos.ts) over the shared reading of import-table.ts. Every row is
 * validated first; any bad row is reported as `line N: field: problem` and nothing is written. A good file is
 * written in one transaction (results and registrations replace the rows with the same bib / certificate
 * number; result ranks are recomputed). Certificate and phone numbers are stored hashed and masked only.
 */
import type { Repositories } from '../../db/repositories.ts';
import { runImport, type ImportKind, type ImportOutcome } from './import-table.ts';
import { photosImporter } from './photos.ts';
import { registrationsImporter } from './registrations.ts';
import { resultsImporter } from './results.ts';

export type { ImportKind, ImportOutcome } from './import-table.ts';

export const importResults = (repos: Repositories, raceId: string, text: string): Promise<ImportOutcome> =>
  runImport(repos.races, resultsImporter(repos.raceCenter), raceId, text);

export const importRegistrations = (repos: Repositories, raceId: string, text: string): Promise<ImportOutcome> =>
  runImport(repos.races, registrationsImporter(repos.raceCenter), raceId, text);

export const importPhotos = (repos: Repositories, raceId: string, text: string): Promise<ImportOutcome> =>
  runImport(repos.races, photosImporter(repos.raceCenter), raceId, text);

const IMPORTS: Record<ImportKind, typeof importResults> = {
  results: importResults,
  registrations: importRegistrations,
  photos: importPhotos,
};

/** Imports a CSV file of one kind into a race. */
export function importCsv(repos: Repositories, kind: ImportKind, raceId: string, text: string): Promise<ImportOutcome> {
  return IMPORTS[kind](repos, raceId, text);
}
