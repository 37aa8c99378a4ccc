/**
 * Where the agreement links go. A route of the site configuration named userAgreement, privacyPolicy or
 * registrationAgreement (any menu group or remote route, usually a DocumentPage under /about-us) wins;
 * without one the link points at the conventional path under /about-us, so an organiser only has to add
 * the document page there. Links open in a new tab (hash routing: '#/…').
 */
import { findRouteByName } from '@/lib/content';
import type { SiteConfig } from '#contract/site-config/schema';

export type AgreementName = 'userAgreement' | 'privacyPolicy' | 'registrationAgreement';

const FALLBACK: Record<AgreementName, string> = {
  userAgreement: '/about-us/user-agreement',
  privacyPolicy: '/about-us/privacy-policy',
  registrationAgreement: '/about-us/registration-agreement',
};

export function agreementHref(config: SiteConfig | null, name: AgreementName): string {
  const route = findRouteByName(config, name);
  return `#${route?.path ?? FALLBACK[name]}`;
}
