import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, removeTempDirs, siteCli, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const valid = () => JSON.parse(readFileSync(path.join(FIXTURES, 'valid-site-config.json'), 'utf8'));

/** Writes `doc` to a temporary file and runs `site <command> … <file>`. */
function runWith(doc: unknown, ...command: string[]) {
  const dir = tempDir();
  const file = path.join(dir, 'doc.json');
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return siteCli(dir)(...command, file);
}

const menu = (item: Record<string, unknown>) => [{ path: '/info', meta: { title: '信息' }, children: [item] }];

describe('site validate and publish: what an organiser gets told', () => {
  it('names unknown page components and dataPaths that point at nothing, with their JSON paths', async () => {
    const doc = {
      ...valid(),
      contentGroups: { raceInformation: { raceRules: [] } },
      menuGroups: [
        {
          path: '/race-information',
          meta: { title: '赛事信息' },
          children: [
            {
              path: 'rules',
              component: 'DocumentPage',
              meta: { title: '规程', dataPath: 'raceInformation.raceRules' },
            },
            { path: 'route', component: 'DocumentPge', meta: { title: '路线', dataPath: 'raceInformation.route' } },
            { path: 'news', component: 'Newspage', meta: { title: '新闻', dataPath: 'news.raceNews' } },
            { path: 'odd', component: 'DocumentPage', meta: { title: '怪', dataPath: 'raceRules' } },
          ],
        },
      ],
    };
    const res = await runWith(doc, 'validate');
    expect(res.code).toBe(1);
    expect(res.err).toContain('(5 problems)');
    expect(res.err).toContain(
      '$.menuGroups[0].children[1].component: unknown page component "DocumentPge"; the known ones are Home, DocumentPage',
    );
    expect(res.err).toContain(
      '$.menuGroups[0].children[2].component: unknown page component "Newspage"; did you mean "NewsPage"?',
    );
    expect(res.err).toContain(
      '$.menuGroups[0].children[1].meta.dataPath: dataPath "raceInformation.route" points at nothing: contentGroups.raceInformation has no list "route"',
    );
    expect(res.err).toContain(
      '$.menuGroups[0].children[2].meta.dataPath: dataPath "news.raceNews" points at nothing: contentGroups has no group "news"',
    );
    expect(res.err).toContain(
      '$.menuGroups[0].children[3].meta.dataPath: dataPath "raceRules" must name a group and a list',
    );
  });

  it('passes a document whose only problems are keys in the wrong place, listing them as warnings', async () => {
    const doc = {
      ...valid(),
      hotline: '400-000-0000',
      menuGroups: menu({ path: 'a', component: 'GalleryPage', dataPath: 'x.y', meta: { title: 'A', titleEN: 'A' } }),
    };
    const res = await runWith(doc, 'validate');
    expect(res.code).toBe(0);
    expect(res.out.split('\n')).toEqual([
      'valid, with 3 warnings',
      '3 warnings (ignored by the site):',
      '  $.hotline: key "hotline" is in the wrong place and is ignored here; it belongs in $.eventInfo',
      '  $.menuGroups[0].children[0].dataPath: key "dataPath" is in the wrong place and is ignored here; it belongs in $.menuGroups[].meta',
      '  $.menuGroups[0].children[0].meta.titleEN: unknown key "titleEN" is ignored; did you mean "titleEn"?',
    ]);
  });

  it('names the allowed values of a wrong value', async () => {
    const doc = valid();
    doc.searchConfigList = [{ id: 1, title: '报名', moduleType: 5, jumpType: 0, openStatus: 'yes' }];
    doc.registrationSearch = { openStatus: 2 };
    const res = await runWith(doc, 'validate');
    expect(res.code).toBe(1);
    expect(res.err).toContain(
      '$.searchConfigList[0].moduleType: must be one of 1, 2, 3, 4 (1 sign up, 2 registration search, 3 score search, 4 photo search); got the number 5',
    );
    expect(res.err).toContain(
      '$.searchConfigList[0].jumpType: must be one of 1, 2 (1 external link (new tab), 2 route of this site); got the number 0',
    );
    expect(res.err).toContain(
      '$.searchConfigList[0].openStatus: must be one of 0, 1 (0 closed, 1 open); got the text "yes"',
    );
    expect(res.err).toContain(
      '$.registrationSearch.openStatus: must be one of 0, 1 (0 closed, 1 open); got the number 2',
    );
  });

  it('refuses unsafe links: script and data schemes, backslash tricks', async () => {
    const doc = {
      ...valid(),
      websiteRegInfo: [
        { id: 1, label: 'a', link: 'javascript:alert(document.cookie)' },
        { id: 2, label: 'b', link: '/\\evil.example' },
        { id: 3, label: 'c', link: 'VBScript:msgbox' },
      ],
      carouselList: [{ surfacePlotUrl: 'data:text/html;base64,PHNjcmlwdD4=' }],
      menuGroups: menu({ path: 'x', meta: { title: 'x', link: 'java\tscript:alert(1)' } }),
    };
    const res = await runWith(doc, 'publish', 'localhost');
    expect(res.code).toBe(1);
    expect(res.err).toContain('Refused to publish');
    expect(res.err).toContain('$.websiteRegInfo[0].link: unsafe link: the javascript: scheme is not allowed');
    expect(res.err).toContain('$.websiteRegInfo[1].link: unsafe link: it contains a backslash');
    expect(res.err).toContain('$.websiteRegInfo[2].link: unsafe link: the vbscript: scheme is not allowed');
    expect(res.err).toContain('$.carouselList[0].surfacePlotUrl: unsafe link: the data: scheme is not allowed');
    expect(res.err).toContain(
      '$.menuGroups[0].children[0].meta.link: unsafe link: the javascript: scheme is not allowed',
    );
  });

  it('reports a 2,000-level nested menu and a 100,000-level nested text instead of crashing', async () => {
    let item: Record<string, unknown> = { path: 'leaf', meta: { title: 'leaf' } };
    for (let i = 0; i < 2000; i += 1) item = { path: `p${i}`, meta: { title: 't' }, children: [item] };
    const deep = await runWith({ ...valid(), menuGroups: [item] }, 'validate');
    expect(deep.code).toBe(1);
    expect(deep.err).toMatch(/\$\.menuGroups(\[0\]\.children){11}\[0\]: nested more than 24 levels deep/);

    const text = JSON.stringify(valid());
    const nested = await runWith(
      `${text.slice(0, -1)},"extra":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
      'validate',
    );
    expect(nested.code).toBe(1);
    expect(nested.err).toContain('$.extra');
    const broken = await runWith(`${'['.repeat(100_000)}`, 'validate');
    expect(broken).toMatchObject({ code: 1 });
    expect(broken.err).toContain('Invalid JSON');
  });

  it('limits list lengths and the document size', async () => {
    const many = await runWith(
      { ...valid(), adListTop: Array.from({ length: 1001 }, (_, i) => ({ surfacePlotUrl: `ad-${i}.png` })) },
      'validate',
    );
    expect(many.code).toBe(1);
    expect(many.err).toContain('$.adListTop: a list of 1001 items; at most 1000 are allowed');
    const huge = await runWith({ ...valid(), padding: 'x'.repeat(6 * 1024 * 1024) }, 'validate');
    expect(huge.code).toBe(1);
    expect(huge.err).toMatch(/\$: the document is \d+ bytes; at most 5242880 are allowed/);
  });

  it('publishes a document with warnings and prints them', async () => {
    const res = await runWith({ ...valid(), slogan: '跑起来' }, 'publish', 'localhost');
    expect(res.code).toBe(0);
    expect(res.out).toContain('published localhost');
    expect(res.out).toContain('1 warning (ignored by the site):');
    expect(res.out).toContain(
      '$.slogan: key "slogan" is in the wrong place and is ignored here; it belongs in $.eventInfo',
    );
  });

  it('points organisers to the format documentation from the help', async () => {
    const res = await siteCli(tempDir())('help');
    expect(res.out).toContain('docs/site-config.md');
    expect(res.out).toContain('docs/site-config.schema.json');
  });
});

describe('site add-race: the race fields are checked too', () => {
  const race = { raceId: 'r-2027', raceName: '测试马拉松', startTime: '2027-04-18 07:30:00' };

  it('refuses a time that is not YYYY-MM-DD HH:mm:ss, or not a real date', async () => {
    const res = await runWith(
      { ...race, startTime: 'soon', signUpEndTime: '2027-02-30 10:00:00', endTime: '2027-04-18' },
      'add-race',
    );
    expect(res.code).toBe(1);
    expect(res.err).toContain('(3 problems)');
    expect(res.err).toContain(
      '$.startTime: must be a time like "2027-04-18 07:30:00" (YYYY-MM-DD HH:mm:ss, China time); got "soon"',
    );
    expect(res.err).toContain('$.endTime: must be a time like');
    expect(res.err).toContain('$.signUpEndTime: is not a real date and time: "2027-02-30 10:00:00"');
  });

  it('refuses an end before its start', async () => {
    const res = await runWith({ ...race, endTime: '2027-04-18 07:00:00' }, 'add-race');
    expect(res.code).toBe(1);
    expect(res.err).toContain('$.endTime: must be after startTime (2027-04-18 07:30:00); got 2027-04-18 07:00:00');
  });

  it('refuses an unsafe sign-up link or image, a broken item list and an unknown open status', async () => {
    const res = await runWith(
      {
        ...race,
        signUpUrl: 'javascript:alert(1)',
        imgDetail: 'demo/poster.svg,data:image/png;base64,AAAA',
        itemTimeSetting: '[{"itemName":"全马","startTime":"7:30"}]',
        signUpOpenStatus: 3,
      },
      'add-race',
    );
    expect(res.code).toBe(1);
    expect(res.err).toContain('$.signUpUrl: unsafe link: the javascript: scheme is not allowed');
    expect(res.err).toContain('$.imgDetail: image 2: unsafe link: the data: scheme is not allowed');
    expect(res.err).toContain('$.itemTimeSetting: $[0].startTime: must be a time like');
    expect(res.err).toContain('$.signUpOpenStatus: must be 0 (closed) or 1 (open)');
  });

  it('refuses a time zone that is not an IANA name', async () => {
    const res = await runWith({ ...race, timeZone: 'Beijing' }, 'add-race');
    expect(res.code).toBe(1);
    expect(res.err).toContain('$.timeZone: must be an IANA time zone like "Asia/Shanghai"; got "Beijing"');
  });

  it('adds a race whose fields are right', async () => {
    const res = await runWith(
      { ...race, endTime: '2027-04-18 14:00:00', signUpOpenStatus: 1, timeZone: 'Europe/London' },
      'add-race',
    );
    expect(res).toMatchObject({ code: 0, out: 'added race r-2027 (测试马拉松)' });
  });
});
