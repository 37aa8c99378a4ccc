/** The two remote translation files (spec §7) merge over the built-in texts; failures are ignored. */
import { translationsPath } from '@/config/api-paths';
import { fetchDocument } from '@/lib/api-client';
import { mergeTranslations } from '@/app/i18n';

export async function loadTranslations(names: readonly string[], now = Date.now()): Promise<number> {
  const files = await Promise.allSettled(
    names.map((name) => fetchDocument<unknown>({ url: translationsPath(name), params: { t: now }, silent: true })),
  );
  return files.reduce((sum, file) => sum + (file.status === 'fulfilled' ? mergeTranslations(file.value) : 0), 0);
}
