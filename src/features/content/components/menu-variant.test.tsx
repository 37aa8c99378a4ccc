import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/test-utils';
import { testConfig } from '@/testing/fixtures/site';
import { guideDoc, newsDocs, raceRulesDoc } from '@/testing/fixtures/content';
import type { SiteConfig } from '#contract/site-config/schema';

/** The second static menu variant of spec §2: /raceInformation, /newsNotice, a photo entry, /aboutUs. */
const variantConfig = (): SiteConfig => ({
  ...testConfig(),
  remoteAsyncRoutes: [],
  menuGroups: [
    {
      path: '/raceInformation',
      name: 'raceInformation',
      redirect: 'raceRules',
      meta: { title: '赛事信息', titleEn: 'Race Info' },
      children: [
        {
          path: 'raceRules',
          name: 'raceRules',
          component: 'DocumentPage',
          meta: { title: '竞赛规程', titleEn: 'Rules', dataPath: 'raceInformation.raceRules' },
        },
        {
          path: 'instructionForReceivingGoods',
          name: 'instructionForReceivingGoods',
          component: 'DocumentPage',
          meta: {
            title: '领物须知',
            titleEn: 'Pack Pick-up',
            dataPath: 'raceInformation.instructionForReceivingGoods',
          },
        },
        {
          path: 'riskNotice',
          name: 'riskNotice',
          component: 'DocumentPage',
          meta: { title: 'Insurance', dataPath: 'raceInformation.riskNotice' },
        },
      ],
    },
    {
      path: '/newsNotice',
      name: 'newsNotice',
      redirect: 'raceNews',
      meta: { title: '新闻公告', titleEn: 'News' },
      children: [
        {
          path: 'raceNews',
          name: 'raceNews',
          component: 'NewsPage',
          meta: { title: '赛事新闻', titleEn: 'Race News', dataPath: 'newsNotice.raceNews' },
        },
        {
          path: 'activityBulletin',
          name: 'activityBulletin',
          component: 'NewsPage',
          meta: { title: '赛事公告', titleEn: 'Announcements', dataPath: 'newsNotice.activityBulletin' },
        },
      ],
    },
    { path: '/photo', name: 'photo', component: 'GalleryPage', meta: { title: '精彩图片', titleEn: 'Photos' } },
    {
      path: '/aboutUs',
      name: 'aboutUs',
      redirect: 'contactUs',
      meta: { title: '关于我们', titleEn: 'About Us' },
      children: [
        {
          path: 'contactUs',
          name: 'contactUs',
          component: 'DocumentPage',
          meta: { title: '联系我们', titleEn: 'Contact Us', dataPath: 'aboutUs.contactUs' },
        },
      ],
    },
  ],
  contentGroups: {
    raceInformation: {
      raceRules: [raceRulesDoc],
      instructionForReceivingGoods: [guideDoc],
      riskNotice: [{ id: 'risk', title: '风险告知书', content: '<p>参赛风险自负。</p>' }],
    },
    newsNotice: { raceNews: newsDocs, activityBulletin: newsDocs.slice(0, 3) },
    aboutUs: {
      contactUs: [
        {
          id: 'contact',
          title: '联系我们',
          titleEn: 'Contact us',
          content: '<p>电话 400-000-0000</p>',
          contentEn: '<p>Phone 400-000-0000</p>',
        },
      ],
    },
  },
});

describe('the /raceInformation menu variant', () => {
  it('redirects each group to its first page and shows it', async () => {
    const { router } = await renderApp({ config: variantConfig(), path: '/raceInformation' });
    expect(await screen.findByTestId('document-view')).toHaveTextContent(raceRulesDoc.title);
    expect(router.state.location.pathname).toBe('/raceInformation/raceRules');
  });

  it('reaches every page of the variant from the menu', async () => {
    const user = userEvent.setup();
    const { router } = await renderApp({ config: variantConfig(), path: '/aboutUs', language: 'en' });
    expect(await screen.findByTestId('document-view')).toHaveTextContent('Contact us');
    expect(router.state.location.pathname).toBe('/aboutUs/contactUs');
    const menu = screen.getByTestId('site-menu');
    await user.click(within(menu).getByRole('link', { name: 'Pack Pick-up' }));
    expect(await screen.findByTestId('document-view')).toHaveTextContent(guideDoc.titleEn!);
    await user.click(within(menu).getByRole('link', { name: 'Insurance' }));
    expect(await screen.findByTestId('document-view')).toHaveTextContent('风险告知书');
    await user.click(within(menu).getByRole('link', { name: 'Photos' }));
    expect(router.state.location.pathname).toBe('/photo');
    await user.click(within(menu).getByRole('link', { name: 'Race News' }));
    expect(router.state.location.pathname).toBe('/newsNotice/raceNews');
    await waitFor(() => expect(screen.getByTestId('main')).toHaveClass('main--grey'));
  });
});
