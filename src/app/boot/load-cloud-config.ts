/** The cloud config index (spec §7): loaded at start-up, failure ignored. */
import { API_PATHS } from '#contract/api';
import { checkDocument, fetchDocument } from '@/lib/api-client';
import type { CloudConfigIndex } from '#contract/site-config/race-types';
import { earlyOr } from './early-fetch';

export async function loadCloudConfig(
  now = Date.now(),
  domainName = window.location.hostname,
): Promise<CloudConfigIndex | null> {
  try {
    const index = await earlyOr('cloud', domainName, checkDocument<CloudConfigIndex>, () =>
      fetchDocument<CloudConfigIndex>({ url: API_PATHS.cloudConfigIndex, params: { t: now }, silent: true }),
    );
    return index && typeof index === 'object' && typeof index.cloudType === 'string' ? index : null;
  } catch {
    return null;
  }
}
