import { testConfig } from '@/testing/fixtures/site';
import { parseSiteConfigTolerant, validateSiteConfig } from './site-config-schema';

describe('site configuration schema', () => {
  it('accepts a complete document', () => {
    expect(validateSiteConfig(testConfig())).toEqual([]);
  });

  it('names every problem with its JSON path', () => {
    const doc = { ...testConfig(), carouselList: [{ surfacePlotUrl: 1 }], searchConfigList: [{ id: 1, moduleType: 9 }] };
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
});
