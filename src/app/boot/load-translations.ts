/** The two remote translation files (spec §7) merge over the built-in texts; failures are ignored. */
import { translationsPath } from '#contract/api';
import { checkDocument, fetchDocument } from '@/lib/api-client';
import { mergeTranslations } from '@/app/i18n';
import { earlyOr } from './early-fetch';

export async function loadTranslations(
  names: readonly string[],
  now = Date.now(),
  domainName = window.location.hostname,
): Promise<number> {
  const files = await Promise.allSettled(
    names.map((name) =>
      earlyOr(`i18n:${name}`, domainName, checkDocument<unknown>, () =>
        fetchDocument<unknown>({ url: translationsPath(name), params: { t: now }, silent: true }),
      ),
    ),
  );
  return files.reduce((sum, file) => sum + (file.status === 'fulfilled' ? mergeTranslations(file.value) : 0), 0);
}
