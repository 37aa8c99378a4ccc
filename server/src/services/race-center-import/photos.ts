/** Photo index import: one row per photo of a bib. */
import type { PhotoRow, RaceCenterRepository } from '../../db/race-center-repository.ts';
import { normalizeBib } from '../../lib/race-center.ts';
import { DATE_TIME, type Importer } from './import-table.ts';

/** Photos are added to those already indexed. */
export function photosImporter(repo: RaceCenterRepository): Importer<PhotoRow> {
  return {
    kind: 'photos',
    columns: { required: ['bib', 'url', 'takenAt'], optional: [] },
    toRow({ get, required, problem }, { raceId }) {
      const bib = normalizeBib(required('bib'));
      const url = get('url');
      // Spec §5: an http(s) URL is used as is; anything else is a path on the file host (VITE_FILE_HOST).
      if (!/^(https?:\/\/[^\s"<>]+|[\w.-][^\s"<>:]*)$/.test(url)) {
        problem('url', 'must be an http(s) URL or a path on the file host such as demo/gallery/photo-01.jpg');
      }
      const takenAt = get('takenAt');
      if (!DATE_TIME.test(takenAt)) problem('takenAt', 'must be YYYY-MM-DD HH:mm:ss');
      return { race_id: raceId, bib, url, taken_at: takenAt };
    },
    write: (rows) => repo.savePhotos(rows),
  };
}
