import { fireEvent, screen, within } from '@testing-library/react';
import type { SiteDraft } from '../editor-types';
import { choose, renderEditor, startTexts } from './editor-testing';
import { MenuEditor } from './menu';

const rules = {
  name: 'raceRules',
  path: 'race-rules',
  component: 'DocumentPage',
  meta: { title: '竞赛规程', dataPath: 'raceInformation.raceRules' },
};
const route = { name: 'raceRoute', path: 'race-route', component: 'DocumentPage', meta: { title: '赛事路线' } };
const group = {
  name: 'raceInformation',
  path: '/race-information',
  component: 'ParentView',
  redirect: '/race-information/race-rules',
  meta: { title: '赛事信息', titleEn: 'Race Info' },
  children: [rules, route],
  someday: true,
};
const draft: SiteDraft = {
  version: '1',
  websiteTitle: 'Race',
  logo: 'demo/logo.svg',
  menuGroups: [group],
  contentGroups: {
    raceInformation: { raceRules: [{ id: 1, title: 'r' }], raceRoute: [] },
    newsNotice: { raceNews: [] },
  },
};

beforeEach(() => startTexts('en'));

describe('the menu editor', () => {
  it("chooses the documents an item shows among the draft's lists", () => {
    const { onChange } = renderEditor(MenuEditor, draft);
    const item = screen.getByTestId('site-menu-0-items-1');
    choose('Documents shown', 'raceInformation.raceRoute (0 documents)', item);
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [
        { ...group, children: [rules, { ...route, meta: { ...route.meta, dataPath: 'raceInformation.raceRoute' } }] },
      ],
    });
  });

  it('chooses the page an item opens among the pages of the site', () => {
    const { onChange } = renderEditor(MenuEditor, draft);
    choose('Opens', 'news list (NewsPage)', screen.getByTestId('site-menu-0-items-0'));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [{ ...group, children: [{ ...rules, component: 'NewsPage' }, route] }],
    });
  });

  it("chooses where the group's own path goes among its items, and hides a group", () => {
    const { onChange } = renderEditor(MenuEditor, draft);
    const groupCard = screen.getByTestId('site-menu-groups-0');
    choose("The group's own path goes to", '/race-information/race-route', groupCard);
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [{ ...group, redirect: '/race-information/race-route' }],
    });
    fireEvent.click(within(groupCard).getAllByLabelText('Hidden from the menu')[0]!);
    expect(onChange).toHaveBeenLastCalledWith({ ...draft, menuGroups: [{ ...group, hidden: true }] });
  });

  it('edits titles and adds an item, every other key kept', () => {
    const { onChange } = renderEditor(MenuEditor, draft);
    fireEvent.change(within(screen.getByTestId('site-menu-0-items-1')).getByLabelText('Menu text (English)'), {
      target: { value: 'Race Route' },
    });
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [{ ...group, children: [rules, { ...route, meta: { ...route.meta, titleEn: 'Race Route' } }] }],
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add an item' }));
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [
        { ...group, children: [rules, route, { path: '', component: 'DocumentPage', meta: { title: '' } }] },
      ],
    });
  });

  it('adds a usual group of spec §2 with its items, naming only the lists the draft has', () => {
    const { onChange } = renderEditor(MenuEditor, draft);
    choose('Or add a usual group:', 'News (/news-notice)');
    expect(onChange).toHaveBeenLastCalledWith({
      ...draft,
      menuGroups: [
        group,
        {
          name: 'newsNotice',
          path: '/news-notice',
          component: 'ParentView',
          redirect: '/news-notice/race-news',
          meta: { title: '新闻公告', titleEn: 'News' },
          children: [
            {
              name: 'raceNews',
              path: 'race-news',
              component: 'NewsPage',
              meta: { title: '赛事新闻', titleEn: 'Race News', dataPath: 'newsNotice.raceNews' },
            },
            {
              name: 'activityBulletin',
              path: 'activity-bulletin',
              component: 'NewsPage',
              meta: { title: '赛事公告', titleEn: 'Announcements' },
            },
          ],
        },
      ],
    });
  });

  it('explains an empty menu', () => {
    renderEditor(MenuEditor, { version: '1' });
    expect(screen.getByText('No menu groups: the menu shows Home only.')).toBeInTheDocument();
  });

  it('shows a problem at its field', () => {
    renderEditor(MenuEditor, draft, {
      problems: [
        {
          path: '$.menuGroups[0].children[0].meta.dataPath',
          message: 'dataPath "x.y" points at nothing',
          severity: 'error',
        },
        { path: '$.menuGroups[0].someday', message: 'unknown key "someday" is ignored', severity: 'warning' },
      ],
    });
    const field = screen
      .getByTestId('site-menu-0-items-0')
      .querySelector<HTMLElement>('[data-path="$.menuGroups[0].children[0].meta.dataPath"]')!;
    expect(field).toHaveTextContent('points at nothing');
    expect(screen.getByTestId('site-menu-groups-0')).toHaveTextContent('unknown key "someday" is ignored');
  });
});
