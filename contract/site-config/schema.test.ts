import { testConfig } from '@/testing/fixtures/site';
import { parseSiteConfigTolerant, validateSiteConfig } from '#contract/site-config/schema';

describe('site configuration schema', () => {
  it('accepts a complete document', () => {
    expect(validateSiteConfig(testConfig())).toEqual([]);
  });

  it('names every problem with its JSON path', () => {
    const doc = {
      ...testConfig(),
      carouselList: [{ surfacePlotUrl: 1 }],
      searchConfigList: [{ id: 1, moduleType: 9 }],
    };
    const paths = validateSiteConfig(doc).map((p) => p.path);
    expect(paths).toContain('$.carouselList[0].surfacePlotUrl');
    expect(paths).toContain('$.searchConfigList[0].moduleType');
    expect(paths).toContain('$.searchConfigList[0].title');
  });

  it('drops only the broken item and keeps the rest of the document', () => {
    const doc = testConfig();
    (doc.carouselList as unknown[]).splice(1, 0, { surfacePlotUrl: 42 });
    (doc as Record<string, unknown>).adListTop = 'not a list';
    const result = parseSiteConfigTolerant(doc);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.carouselList).toHaveLength(2);
    expect(result.config.adListTop).toBeUndefined();
    expect(result.config.menuGroups).toHaveLength(2);
    expect(result.problems.map((p) => p.path).sort()).toEqual(['$.adListTop', '$.carouselList[1].surfacePlotUrl']);
  });

  it('drops a broken nested route and keeps its siblings', () => {
    const doc = testConfig();
    (doc.menuGroups![0].children as unknown[]).push({ meta: { title: 'no path' } });
    const result = parseSiteConfigTolerant(doc);
    expect(result.ok && result.config.menuGroups![0].children).toHaveLength(2);
  });

  it('refuses a document that is not an object or lacks its required fields', () => {
    expect(parseSiteConfigTolerant('x').ok).toBe(false);
    expect(parseSiteConfigTolerant([]).ok).toBe(false);
    const { logo: _logo, ...noLogo } = testConfig();
    const result = parseSiteConfigTolerant(noLogo);
    expect(result.ok).toBe(false);
    expect(result.problems[0].path).toBe('$.logo');
  });

  it('names the allowed values when a value is wrong', () => {
    const doc = testConfig();
    doc.searchConfigList![0].moduleType = 9 as 1;
    doc.searchConfigList![0].jumpType = 3 as 1;
    doc.searchConfigList![0].openStatus = 2 as 0;
    const messages = Object.fromEntries(validateSiteConfig(doc).map((p) => [p.path, p.message]));
    expect(messages['$.searchConfigList[0].moduleType']).toBe(
      'must be one of 1, 2, 3, 4 (1 sign up, 2 registration search, 3 score search, 4 photo search); got the number 9',
    );
    expect(messages['$.searchConfigList[0].jumpType']).toMatch(/^must be one of 1, 2 \(1 external link/);
    expect(messages['$.searchConfigList[0].openStatus']).toMatch(/^must be one of 0, 1 \(0 closed, 1 open\)/);
  });

  it('refuses unsafe links wherever a link or image goes', () => {
    const doc = testConfig();
    doc.bannerAdList![0].jumpUrl = 'javascript:alert(1)';
    doc.websiteRegInfo![0].link = '/\\evil.example';
    doc.carouselList![0].surfacePlotUrl = 'data:image/svg+xml,<svg onload=alert(1)>';
    const problems = validateSiteConfig(doc);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '$.bannerAdList[0].jumpUrl', message: 'unsafe link: the javascript: scheme is not allowed' },
        { path: '$.websiteRegInfo[0].link', message: expect.stringMatching(/backslash/) },
        { path: '$.carouselList[0].surfacePlotUrl', message: 'unsafe link: the data: scheme is not allowed' },
      ]),
    );
  });

  it('reports a 2,000-level nested menu instead of overflowing the stack', () => {
    let menu: Record<string, unknown> = { path: 'leaf' };
    for (let i = 0; i < 2000; i += 1) menu = { path: `p${i}`, children: [menu] };
    const problems = validateSiteConfig({ ...testConfig(), menuGroups: [menu] });
    expect(problems[0].message).toMatch(/nested more than 24 levels/);
  });

  it('keeps the site when an extra key holds 100,000 nested arrays', () => {
    const text = `${JSON.stringify(testConfig()).slice(0, -1)},"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const result = parseSiteConfigTolerant(JSON.parse(text));
    expect(result.ok).toBe(true);
    expect(result.ok && result.config.menuGroups).toHaveLength(2);
  });

  it('keeps the good parts however many items are broken', () => {
    const doc = testConfig();
    const good = doc.carouselList![0];
    doc.carouselList = [...Array.from({ length: 300 }, () => ({ surfacePlotUrl: 42 }) as never), good];
    doc.bannerAdList = Array.from({ length: 120 }, (_, i) => ({
      surfacePlotUrl: `ad-${i}.png`,
      jumpUrl: 'javascript:x',
    }));
    const result = parseSiteConfigTolerant(doc);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.carouselList).toEqual([good]);
    // an unsafe optional link is dropped on its own: the ad stays, without the link
    expect(result.config.bannerAdList).toHaveLength(120);
    expect(result.config.bannerAdList![0]).toEqual({ surfacePlotUrl: 'ad-0.png' });
  });

  it('drops the object around a broken required field that is not in a list', () => {
    const doc = { ...testConfig(), routeMap: { image: 5, title: 'x' } };
    const result = parseSiteConfigTolerant(doc);
    expect(result.ok).toBe(true);
    expect(result.ok && result.config.routeMap).toBeUndefined();
    expect(result.ok && result.config.menuGroups).toHaveLength(2);
  });

  it('cuts lists and texts beyond the limits', () => {
    const doc = {
      ...testConfig(),
      adListTop: Array.from({ length: 1500 }, (_, i) => ({ surfacePlotUrl: `a${i}.png` })),
    };
    const result = parseSiteConfigTolerant(doc);
    expect(result.ok && result.config.adListTop).toHaveLength(1000);
    expect(result.problems).toContainEqual({
      path: '$.adListTop',
      message: expect.stringMatching(/1500 items; at most 1000/),
    });
  });
});
