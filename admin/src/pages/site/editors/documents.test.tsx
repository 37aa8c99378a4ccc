/**
 * The information pages and news editor (documents.tsx) with the rich-text editor in it, in the console's own
 * i18n and antd: what it gives back to the site page is the whole draft, with only contentGroups changed (and the
 * menu's dataPaths when a rename asks for it), and content that passed the site's sanitiser.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntdApp } from 'antd';
import { useState } from 'react';
import { startI18n } from '../../../i18n';
import { cleanPastedHtml, linkAddressProblem, richTextImageSrc } from '../../../lib/rich-text-editor';
import type { SiteDraft, SiteEditorProps } from '../editor-types';
import { DocumentsEditor, documentsEditor } from './documents';

const MENU = [
  {
    path: '/news-notice',
    meta: { title: '新闻公告' },
    children: [
      { path: 'race-news', component: 'NewsPage', meta: { title: '赛事新闻', dataPath: 'newsNotice.raceNews' } },
    ],
  },
  {
    path: '/race-information',
    meta: { title: '赛事信息' },
    children: [
      {
        path: 'race-rules',
        component: 'DocumentPage',
        meta: { title: '竞赛规程', dataPath: 'raceInformation.raceRules' },
      },
    ],
  },
];

function makeDraft(): SiteDraft {
  return {
    version: '2027.1',
    websiteTitle: '青川运河马拉松',
    logo: 'demo/logo.svg',
    futureKey: { kept: [1, 2, 3] },
    menuGroups: structuredClone(MENU),
    contentGroups: {
      raceInformation: {
        raceRules: [{ id: 'rules', time: 1780000000000, title: '竞赛规程', content: '<p>规程</p>', extra: 'kept' }],
      },
      newsNotice: { raceNews: [{ id: 'n1', time: 1780000000000, title: '开跑', summary: '摘要' }] },
    },
  };
}

let latest: SiteDraft;

function Harness({ initial, problems = [] }: { initial: SiteDraft; problems?: SiteEditorProps['problems'] }) {
  const [draft, setDraft] = useState(initial);
  return (
    <AntdApp>
      <DocumentsEditor
        raceId="qc-2027"
        domain="localhost"
        draft={draft}
        problems={problems}
        onChange={(next) => {
          latest = next;
          setDraft(next);
        }}
      />
    </AntdApp>
  );
}

/** The editor on a draft; `latest` is the draft the site page holds. */
function renderEditor(initial: SiteDraft, problems: SiteEditorProps['problems'] = []) {
  latest = initial;
  return render(<Harness initial={initial} problems={problems} />);
}

const groups = () => latest.contentGroups as Record<string, Record<string, Record<string, unknown>[]>>;

beforeAll(async () => {
  await startI18n('en');
});

describe('the documents editor', () => {
  it('is the site page tab "documents", order 10, for contentGroups', () => {
    expect(documentsEditor).toMatchObject({ key: 'documents', order: 10, paths: ['contentGroups'] });
  });

  it('adds a news item, edits its title, and keeps every other key of the draft as it was', async () => {
    const user = userEvent.setup();
    const initial = makeDraft();
    renderEditor(initial);
    await user.click(screen.getByRole('button', { name: /^raceNews/ }));
    expect(screen.getByText(/news list, latest first/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Add document/ }));
    await user.type(screen.getByLabelText('Title (Chinese)'), '报名开启');
    await user.type(screen.getByLabelText('Title (English)'), 'Entry opens');

    const news = groups().newsNotice!.raceNews!;
    expect(news).toHaveLength(2);
    expect(news[0]).toEqual({ id: 'n1', time: 1780000000000, title: '开跑', summary: '摘要' });
    expect(news[1]).toMatchObject({ title: '报名开启', titleEn: 'Entry opens' });
    expect(typeof news[1]!.time).toBe('number');
    expect(String(news[1]!.id)).toMatch(/^doc-[0-9a-f]{8}$/);
    const { contentGroups: _after, ...rest } = latest;
    const { contentGroups: _before, ...original } = makeDraft();
    expect(rest).toEqual(original);
    expect(latest.menuGroups).toBe(initial.menuGroups);
    expect(groups().raceInformation).toEqual((makeDraft().contentGroups as Record<string, unknown>).raceInformation);
  });

  it('gives back content only as the sanitiser leaves it: no <script>, onerror= or javascript: link', async () => {
    const user = userEvent.setup();
    renderEditor(makeDraft());
    // raceInformation.raceRules is chosen first; its only document is open.
    await user.click(screen.getAllByRole('button', { name: 'HTML source' })[0]!);
    const source = screen.getByLabelText('Content (Chinese) (HTML source)');
    fireEvent.change(source, {
      target: {
        value:
          '<h2>起跑</h2><p><b>07:30</b><script>window.hacked = 1</script></p>' +
          '<img src="/files/a.png" alt="起点" onerror="alert(1)"><a href="javascript:alert(1)">点我</a>',
      },
    });
    const content = String(groups().raceInformation!.raceRules![0]!.content);
    expect(content).toContain('<h2>起跑</h2>');
    expect(content).toContain('<b>07:30</b>');
    expect(content).not.toMatch(/script|onerror|javascript:/i);
    expect(groups().raceInformation!.raceRules![0]!.extra).toBe('kept');

    await user.click(screen.getAllByRole('button', { name: 'HTML source' })[0]!);
    const area = screen.getByRole('textbox', { name: 'Content (Chinese)' });
    expect(area.querySelector('script')).toBeNull();
    expect(area.querySelector('img')).not.toHaveAttribute('onerror');
    expect(area.querySelector('a')).not.toHaveAttribute('href');
    expect(area.querySelector('b')).toHaveTextContent('07:30');
  });

  it('has a toolbar in the console language whose buttons say what they do and whether they are on', async () => {
    renderEditor(makeDraft());
    const toolbar = screen.getAllByRole('toolbar')[0]!;
    for (const name of [
      'Paragraph',
      'Heading 2',
      'Heading 3',
      'Bold',
      'Italic',
      'Underline',
      'Bulleted list',
      'Numbered list',
      'Quote',
      'Link',
      'Image',
      'Horizontal rule',
      'Remove formatting',
      'Undo',
      'Redo',
      'HTML source',
    ]) {
      expect(within(toolbar).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(toolbar).getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'false');
    // One tab stop; the arrow keys move along.
    const tabbable = within(toolbar)
      .getAllByRole('button')
      .filter((b) => b.tabIndex === 0);
    expect(tabbable).toHaveLength(1);
    act(() => tabbable[0]!.focus());
    fireEvent.keyDown(tabbable[0]!, { key: 'ArrowRight' });
    expect(within(toolbar).getByRole('button', { name: 'Heading 2' })).toHaveFocus();
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(within(toolbar).getByRole('button', { name: 'HTML source' })).toHaveFocus();
  });

  it('shows a problem of the check beside the field it belongs to', async () => {
    const user = userEvent.setup();
    renderEditor(makeDraft(), [
      {
        path: '$.contentGroups.newsNotice.raceNews[0].title',
        message: 'must be text; got a number',
        severity: 'error',
      },
      {
        path: '$.contentGroups.newsNotice.raceNews[0].colour',
        message: 'unknown key "colour": the site ignores it',
        severity: 'warning',
      },
    ]);
    await user.click(screen.getByRole('button', { name: /^raceNews/ }));
    await waitFor(() => expect(screen.getByText('must be text; got a number')).toBeInTheDocument());
    // A key the form has no field for: listed above the document's form, with its path.
    expect(screen.getByText('$.contentGroups.newsNotice.raceNews[0].colour')).toBeInTheDocument();
    expect(screen.getByText(/unknown key "colour"/)).toBeInTheDocument();
  });

  it('renames a sub-group and, when asked, the menu item that points at it', async () => {
    const user = userEvent.setup();
    renderEditor(makeDraft());
    await user.click(screen.getByRole('button', { name: 'Rename: newsNotice.raceNews' }));
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'race.news');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await within(dialog).findByText(/starts with a letter/)).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'latestNews');
    expect(within(dialog).getByRole('checkbox')).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(groups().newsNotice).toHaveProperty('latestNews'));
    expect(groups().newsNotice).not.toHaveProperty('raceNews');
    const menu = latest.menuGroups as typeof MENU;
    expect(menu[0]!.children[0]!.meta.dataPath).toBe('newsNotice.latestNews');
    expect(menu[1]).toEqual(MENU[1]);
  });

  it('removes a sub-group only after a confirmation that names what the menu loses', async () => {
    const user = userEvent.setup();
    renderEditor(makeDraft());
    await user.click(screen.getByRole('button', { name: 'Remove: raceInformation.raceRules' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Remove the sub-group "raceRules" and its 1 document?');
    expect(dialog).toHaveTextContent('1 menu item points at it');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(groups().raceInformation).toHaveProperty('raceRules');
    await user.click(screen.getByRole('button', { name: 'Remove: raceInformation.raceRules' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(groups().raceInformation).toEqual({}));
  });
});

/** A page that hands the editor its changes back late (as the site page does, parsing its JSON in the background). */
function LatePage({ initial }: { initial: SiteDraft }) {
  const [shown, setShown] = useState(initial);
  return (
    <AntdApp>
      <button type="button" onClick={() => setShown(latest)}>
        catch up
      </button>
      <button type="button" onClick={() => setShown({ ...initial, contentGroups: { other: { list: [] } } })}>
        replace
      </button>
      <DocumentsEditor
        raceId="qc-2027"
        domain="localhost"
        draft={shown}
        problems={[]}
        onChange={(next) => {
          latest = next;
        }}
      />
    </AntdApp>
  );
}

describe('the documents editor on a page that hands its changes back late', () => {
  it('keeps a document just added while the next edit is made, and takes a draft changed elsewhere', async () => {
    const user = userEvent.setup();
    latest = makeDraft();
    render(<LatePage initial={makeDraft()} />);
    await user.click(screen.getByRole('button', { name: /^raceNews/ }));
    await user.click(screen.getByRole('button', { name: /Add document/ }));
    await user.type(screen.getByLabelText('Title (Chinese)'), '新');
    expect(groups().newsNotice!.raceNews).toHaveLength(2);
    expect(groups().newsNotice!.raceNews![1]).toMatchObject({ title: '新' });
    expect(groups().newsNotice!.raceNews![0]).toMatchObject({ title: '开跑' });
    await user.click(screen.getByRole('button', { name: 'catch up' }));
    expect(screen.getByLabelText('Title (Chinese)')).toHaveValue('新');
    await user.click(screen.getByRole('button', { name: 'replace' }));
    await waitFor(() => expect(screen.getByRole('button', { name: /^list/ })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /^raceNews/ })).toBeNull();
  });
});

describe('the rich-text editor helpers', () => {
  it('cleans a paste from Word: styles, classes, Office tags and empty paragraphs go, the text and its marks stay', () => {
    const word =
      '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><style>p.MsoNormal{color:red}</style></head><body>' +
      '<p class="MsoNormal" style="margin:0"><span lang="ZH-CN" style="font-family:宋体">比赛<b>时间</b></span><o:p></o:p></p>' +
      '<p class="MsoNormal"><o:p>&nbsp;</o:p></p><div>网页段落<img src="x" onerror="alert(1)" alt="a"></div></body></html>';
    expect(cleanPastedHtml(word)).toBe(
      '<p>比赛<b>时间</b></p><p>网页段落<img src="x" alt="a" loading="lazy" decoding="async"></p>',
    );
  });

  it('checks link addresses with the site rule and places asset images on the file host', () => {
    expect(linkAddressProblem('javascript:alert(1)')).toBe('addressBlocked');
    expect(linkAddressProblem('/\\evil.example')).toBe('addressBackslash');
    expect(linkAddressProblem('www.example.org')).toBe('addressOther');
    expect(linkAddressProblem('')).toBe('addressRequired');
    expect(linkAddressProblem('https://example.org/a')).toBeUndefined();
    expect(linkAddressProblem('/race-information/race-rules')).toBeUndefined();
    expect(linkAddressProblem('mailto:a@example.org')).toBeUndefined();
    expect(richTextImageSrc('assets/qc-2027/map.png')).toBe('/files/assets/qc-2027/map.png');
    expect(richTextImageSrc('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });
});
