import { contentConfig, partnerDocs } from '@/testing/fixtures/content';
import { findRouteSection } from '@/lib/content';
import { pageWindow } from '../components/pagination';
import { byTimeDesc, recommendedFirst } from './content-items';
import { groupPartners, withoutLeadingLabel } from './partner-groups';

describe('content helpers', () => {
  it('finds the section of a route by its path, its name or its parent meta', () => {
    const config = contentConfig();
    const byPath = findRouteSection(config, { path: '/race-information/race-route' });
    expect(byPath?.group.item.name).toBe('raceInformation');
    expect(byPath?.entries.map((e) => e.path)).toEqual([
      '/race-information/race-rules',
      '/race-information/race-route',
      '/race-information/race-statement',
      '/race-information/rulebook',
    ]);
    expect(findRouteSection(config, { name: 'raceNews' })?.group.item.name).toBe('newsNotice');
    expect(findRouteSection(config, { path: '/race-guide', parent: 'raceInformation' })?.group.path).toBe(
      '/race-information',
    );
    // a page hanging directly under the layout has no section
    expect(findRouteSection(config, { path: '/race-guide' })).toBeUndefined();
    expect(findRouteSection(config, { path: '/nowhere' })).toBeUndefined();
    expect(findRouteSection(null, { path: '/race-information/race-route' })).toBeUndefined();
  });

  it('leaves out the children the caller does not keep', () => {
    const section = findRouteSection(contentConfig(), { name: 'raceRules' }, (item) => item.name !== 'raceStatement');
    expect(section?.entries.map((e) => e.item.name)).toEqual(['raceRules', 'raceRoute', 'rulebook']);
  });

  it('puts recommended items first, newest first within each part', () => {
    const docs = [
      { id: 1, title: 'a', time: 1 },
      { id: 2, title: 'b', time: 3, recommend: true },
      { id: 3, title: 'c' },
      { id: 4, title: 'd', time: 2, recommend: true },
      { id: 5, title: 'e', time: 5 },
    ];
    expect(recommendedFirst(docs, byTimeDesc).map((d) => d.id)).toEqual([2, 4, 5, 1, 3]);
  });

  it('shows the ends and the neighbours of the current page', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 'gap', 20]);
    expect(pageWindow(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20]);
    expect(pageWindow(20, 20)).toEqual([1, 'gap', 17, 18, 19, 20]);
  });

  it('sorts partner profiles into the categories of the spec', () => {
    const config = contentConfig();
    const docs = config.contentGroups!.sponsor.all;
    const sections = groupPartners(config, 'sponsor.all', docs, 'en');
    expect(sections.map((s) => [s.code, s.label, s.docs.map((d) => d.id)])).toEqual([
      ['titleSponsor', '', ['bank']],
      ['eventPartner', '', ['motors', 'dairy']],
      ['officialTechnicalServices', 'Official Timing', ['timing']],
      ['', '', ['cafe']],
    ]);
    // a category sub-group as dataPath: everything in it belongs to that category
    expect(groupPartners(config, 'sponsor.eventPartner', [partnerDocs.dairy], 'zh')[0].code).toBe('eventPartner');
    expect(groupPartners(null, undefined, [partnerDocs.cafe], 'zh')).toEqual([
      { code: '', label: '', labels: [], docs: [partnerDocs.cafe] },
    ]);
  });

  it('drops a first line that only repeats the category', () => {
    expect(withoutLeadingLabel('<p><strong>Title Sponsor</strong></p><p>About.</p>', ['Title Sponsor'])).toBe(
      '<p>About.</p>',
    );
    expect(withoutLeadingLabel('<p><strong>Other</strong></p><p>About.</p>', ['Title Sponsor'])).toBe(
      '<p><strong>Other</strong></p><p>About.</p>',
    );
    expect(withoutLeadingLabel('<p>About.</p>', ['Title Sponsor'])).toBe('<p>About.</p>');
  });
});
