import { fetchBinary } from '@/lib/api-client';
import { localizeServerMessage } from '@/lib/server-messages';
import { API_PATHS } from '#contract/api';
import type { ExportLanguage } from '#contract/score-export';

/** The outcome of an export (spec §7): a file to save, or a message to show. */
export type ExportOutcome = { kind: 'file'; blob: Blob } | { kind: 'message'; text: string };

/**
 * POST exportScores. A body starting with a JSON object is an envelope whose msg is shown (empty: '没有查询到数据哦');
 * anything else is the .xls file (headers in `language`, the visitor's). A non-200 answer gives '无数据'.
 */
export async function exportScores(
  query: { raceId: string; item?: string; language: ExportLanguage },
  noData: string,
): Promise<ExportOutcome> {
  let blob: Blob;
  try {
    const response = await fetchBinary({ method: 'POST', url: API_PATHS.exportScores, data: query, silent: true });
    if (response.status !== 200) return { kind: 'message', text: noData };
    blob = response.data;
  } catch {
    return { kind: 'message', text: noData };
  }
  const text = await readText(blob.slice(0, 64)).catch(() => '');
  if (text.trimStart().startsWith('{')) {
    try {
      const body = JSON.parse(await readText(blob)) as Parameters<typeof localizeServerMessage>[0];
      // The envelope's message in the visitor's language (msgCode noData, or msg '没有查询到数据哦' → 'No data found').
      const text = localizeServerMessage(body) ?? noData;
      return { kind: 'message', text };
    } catch {
      return { kind: 'message', text: noData };
    }
  }
  return { kind: 'file', blob };
}

/** A blob's text through FileReader (works in every browser and in jsdom). */
function readText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(blob);
  });
}
