import { testConfig } from '@/testing/fixtures/site';
import type { RouteItem } from '#contract/site-config/schema';
import { joinPath } from '@/lib/content';
import { buildSiteRoutes, flattenRoutes, menuOf, splitRemoteRoutes } from './route-model';

describe('route model', () => {
  it('joins paths', () => {
    expect(joinPath('/', 'home')).toBe('/home');
    expect(joinPath('/race-information', 'race-rules')).toBe('/race-information/race-rules');
    expect(joinPath('/a', '/b')).toBe('/b');
    expect(joinPath('/a/', '//c/')).toBe('/c');
  });

  it('flattens ParentView children into routes of their own and redirects the group path', () => {
    const routes = flattenRoutes(testConfig().menuGroups!);
    expect(routes).toContainEqual(
      expect.objectContaining({ kind: 'redirect', path: '/race-information', to: '/race-information/race-rules' }),
    );
    expect(routes).toContainEqual(
      expect.objectContaining({
        kind: 'page',
        path: '/race-information/race-rules',
        component: 'DocumentPage',
        handle: expect.objectContaining({
          name: 'raceRules',
          dataPath: 'raceInformation.raceRules',
          title: '竞赛规程',
          titleEn: 'Competition Rules',
        }),
      }),
    );
    // a group without redirect goes to its first child
    expect(routes).toContainEqual(
      expect.objectContaining({ kind: 'redirect', path: '/news-notice', to: '/news-notice/race-news' }),
    );
  });

  it('flattens nested ParentView levels', () => {
    const items: RouteItem[] = [
      {
        path: '/a',
        component: 'ParentView',
        meta: { title: 'A' },
        children: [
          {
            path: 'b',
            component: 'ParentView',
            meta: { title: 'B' },
            children: [{ path: 'c', component: 'DocumentPage', meta: { title: 'C' } }],
          },
        ],
      },
    ];
    const pages = flattenRoutes(items).filter((r) => r.kind === 'page');
    expect(pages.map((r) => r.path)).toEqual(['/a/b/c']);
  });

  it("hangs the children of 'Layout' under the root and keeps other remote routes top-level", () => {
    const { underLayout, topLevel } = splitRemoteRoutes([
      {
        path: '/',
        component: 'Layout',
        children: [{ path: 'gallery', component: 'GalleryPage', meta: { title: 'G' } }],
      },
      { path: '/upload', component: 'Upload', meta: { title: 'U' } },
    ]);
    expect(underLayout.map((r) => r.path)).toEqual(['/gallery']);
    expect(topLevel.map((r) => r.path)).toEqual(['/upload']);
  });

  it('builds the menu: hidden routes stay out, external links keep their link', () => {
    const menu = menuOf([
      { path: '/x', component: 'DocumentPage', hidden: true, meta: { title: 'X' } },
      { path: '/shop', meta: { title: '商城', link: 'https://shop.example/' } },
      { path: '/y', component: 'DocumentPage', meta: { title: 'Y', titleEn: 'Why' } },
    ]);
    expect(menu).toEqual([
      {
        key: 'link:https://shop.example/',
        title: '商城',
        titleEn: undefined,
        path: undefined,
        link: 'https://shop.example/',
        children: undefined,
      },
      { key: '/y', title: 'Y', titleEn: 'Why', path: '/y', link: undefined, children: undefined },
    ]);
  });

  it('leaves the charity pages out when show_charitable is false', () => {
    const hidden = buildSiteRoutes(testConfig(), { showCharitable: false });
    expect(hidden.layoutRoutes.map((r) => r.path)).not.toContain('/charity');
    expect(hidden.menu.map((m) => m.key)).not.toContain('/charity');
    const shown = buildSiteRoutes(testConfig(), { showCharitable: true });
    expect(shown.layoutRoutes.map((r) => r.path)).toContain('/charity');
  });

  it('expresses the second static menu variant (/raceInformation …)', () => {
    const variant: RouteItem[] = [
      {
        path: '/raceInformation',
        redirect: 'raceRules',
        meta: { title: '赛事信息' },
        children: [
          {
            path: 'raceRules',
            component: 'DocumentPage',
            meta: { title: '竞赛规程', dataPath: 'raceInformation.raceRules' },
          },
          { path: 'instructionForReceivingGoods', component: 'DocumentPage', meta: { title: '领物须知' } },
          { path: 'insurance', component: 'DocumentPage', meta: { title: 'Insurance' } },
        ],
      },
      {
        path: '/newsNotice',
        redirect: 'raceNews',
        meta: { title: '新闻公告' },
        children: [
          { path: 'raceNews', component: 'NewsPage', meta: { title: '赛事新闻' } },
          { path: 'activityBulletin', component: 'NewsPage', meta: { title: '赛事公告' } },
        ],
      },
      { path: '/photo', component: 'GalleryPage', meta: { title: '精彩图片' } },
      {
        path: '/aboutUs',
        redirect: 'contactUs',
        meta: { title: '关于我们' },
        children: [{ path: 'contactUs', component: 'DocumentPage', meta: { title: '联系我们' } }],
      },
    ];
    const routes = flattenRoutes(variant);
    expect(routes).toContainEqual(
      expect.objectContaining({ kind: 'redirect', path: '/raceInformation', to: '/raceInformation/raceRules' }),
    );
    expect(routes).toContainEqual(
      expect.objectContaining({ kind: 'redirect', path: '/aboutUs', to: '/aboutUs/contactUs' }),
    );
    expect(routes).toContainEqual(expect.objectContaining({ kind: 'page', path: '/photo', component: 'GalleryPage' }));
    expect(menuOf(variant).map((m) => m.children?.length ?? 0)).toEqual([3, 2, 0, 1]);
  });
});
