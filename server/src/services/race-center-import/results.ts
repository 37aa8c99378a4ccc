/** Results import: one row per finisher, with optional gun time and checkpoint (split) columns. */
import {
  unrankedResult,
  type RaceCenterRepository,
  type ResultRow,
  type SplitRow,
} from '../../db/race-center-repository.ts';
import { catalogItem, normalizeBib, normalizeCertNo, normalizeName, parseDuration } from '../../lib/race-center.ts';
import { parseGender, unknownItemProblem, validDate, type Importer } from './import-table.ts';

const CHECKPOINT = /^(\d{1,2}K|HALF)$/;

function checkpointKm(name: string): number {
  return name === 'HALF' ? 21.0975 : Number(name.slice(0, -1));
}

/** Results replace those of the same bib; the race's ranks are recomputed. */
export function resultsImporter(repo: RaceCenterRepository): Importer<ResultRow> {
  return {
    kind: 'results',
    columns: {
      required: ['bib', 'name', 'gender', 'certificateNumber', 'birthday', 'item', 'chipTime'],
      optional: ['gunTime', '<checkpoint columns: 5K, 10K, …, HALF, as H:MM:SS>'],
    },
    toRow({ columns, get, has, required, unique, problem }, { raceId, raceDate, items }) {
      const bib = normalizeBib(required('bib'));
      if (bib.length > 20) problem('bib', 'at most 20 characters');
      if (bib) unique(bib, 'bib');
      const name = normalizeName(required('name'));
      const gender = parseGender(get('gender'));
      if (gender === null) problem('gender', 'must be 1/M/男 or 2/F/女');
      const certNo = normalizeCertNo(required('certificateNumber'));
      const birthday = get('birthday');
      if (!validDate(birthday)) problem('birthday', 'must be a date YYYY-MM-DD');
      const def = catalogItem(items, get('item'));
      if (!def) problem('item', unknownItemProblem({ raceId, raceDate, items }, get('item')));
      const item = def?.code ?? '';
      const chipMs = parseDuration(get('chipTime'));
      if (chipMs === null || chipMs <= 0) problem('chipTime', 'must be a time H:MM:SS');
      const gunMs = has('gunTime') ? parseDuration(get('gunTime')) : chipMs;
      if (gunMs === null) problem('gunTime', 'must be a time H:MM:SS');
      else if (chipMs !== null && gunMs < chipMs) problem('gunTime', 'cannot be less than the chip time');
      const splits: SplitRow[] = [];
      for (const col of columns.filter((c) => CHECKPOINT.test(c))) {
        if (!has(col)) continue;
        const ms = parseDuration(get(col));
        const km = checkpointKm(col);
        if (ms === null) problem(col, 'must be a time H:MM:SS');
        else if (def && def.distanceKm > 0 && km >= def.distanceKm)
          problem(col, `is beyond the ${def.nameEn} distance`);
        else if (chipMs !== null && ms >= chipMs) problem(col, 'must be less than the chip time');
        else splits.push({ checkpoint: col, distanceKm: km, chipMs: ms });
      }
      splits.sort((a, b) => a.distanceKm - b.distanceKm);
      if (splits.some((s, i) => i > 0 && s.chipMs <= (splits[i - 1]?.chipMs ?? 0))) {
        problem('splits', 'checkpoint times must increase with distance');
      }
      if (!def || gender === null || chipMs === null || gunMs === null) return undefined;
      return unrankedResult({
        raceId,
        bib,
        name,
        gender,
        certHash: repo.certHash(certNo),
        item,
        gunMs,
        chipMs,
        birthday,
        raceDate,
        splits,
      });
    },
    write: (rows, raceId) => repo.saveResults(raceId, rows),
  };
}
