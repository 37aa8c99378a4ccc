import { agreementHref } from './agreement-links';
import { testConfig } from '@/testing/fixtures/site';

describe('agreement links', () => {
  it('uses a route named like the document, else the placeholder under /about-us', () => {
    const config = testConfig();
    expect(agreementHref(config, 'registrationAgreement')).toBe('#/about-us/registration-agreement');
    config.remoteAsyncRoutes![0].children!.push({ path: 'privacy', name: 'privacyPolicy', component: 'DocumentPage' });
    expect(agreementHref(config, 'privacyPolicy')).toBe('#/privacy');
  });
});
