/**
 * The console's results and photos imports (issue 32 §1), in Chinese and English, on a desktop and a tablet: a
 * results member chooses a results file with a bad row and sees its line and what is wrong (nothing written),
 * then the fixed file: the preview, "Import", the result and the history; the public score lookup then finds the
 * runner. A race of its own (added through the CLI) keeps the demo races' results as they are. No serious or
 * critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import { API_PATHS } from '#contract/api';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { addRace } from './site-config';
import { serverPort } from './test-server';

const browser = useBrowser();
const RACE_ID = `e2e-imports-${randomBytes(3).toString('hex')}`;
const HEADER = 'bib,name,gender,certificateNumber,birthday,item,gunTime,chipTime,5K,10K';

const TEXT = {
  zh: {
    title: '导入成绩与照片',
    badLine: '与第 2 行重复',
    good: /2 行可以导入/,
    import: /^导 ?入$/,
    done: '已导入成绩 2 行（替换 0 行）',
  },
  en: {
    title: 'Import results and photos',
    badLine: 'duplicate of line 2',
    good: /2 rows are ready to import/,
    import: /^Import$/,
    done: 'Imported 2 rows of Results (0 replaced)',
  },
} as const;

/** The public score lookup of a bib in the race (the score page's call). */
async function publicScore(bib: string): Promise<{ chipTime: string; name: string }[]> {
  const response = await fetch(`http://127.0.0.1:${serverPort()}${API_PATHS.searchScore}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ raceId: RACE_ID, bib }),
  });
  return ((await response.json()) as { data: { chipTime: string; name: string }[] }).data ?? [];
}

beforeAll(async () => {
  await addRace({
    raceId: RACE_ID,
    raceName: '2019 导入测试马拉松',
    raceNameEn: '2019 Import Test Marathon',
    startTime: '2019-11-10 07:30:00',
  });
});

describe.each([
  ['desktop', DESKTOP],
  ['tablet', TABLET],
] as const)('the imports page (%s)', (device, options) => {
  it.each(['zh', 'en'] as const)('a bad row shows its line; the fixed file imports and is found (%s)', async (lang) => {
    const text = TEXT[lang];
    const tag = randomBytes(3).toString('hex').toUpperCase();
    const [bibA, bibB] = [`A${tag}`, `B${tag}`];
    const rowA = `${bibA},导入跑者,M,110101199001011237,1990-01-01,H,1:35:10,1:34:00,0:21:00,0:43:30`;
    const rowB = `${bibB},Import Runner,F,E99887766,1985-05-05,10K,0:50:01,0:49:00,0:24:00,`;
    const bad = [HEADER, rowA, rowA.replace('导入跑者', '重复跑者'), ''].join('\n');
    const good = [HEADER, rowA, rowB, ''].join('\n');

    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'results', language: lang });
    await page.goto(consoleUrl(`/races/${RACE_ID}/imports`));
    const main = page.getByTestId('imports-page');
    await main.getByRole('heading', { name: text.title, level: 1 }).waitFor();
    await expectAccessible(page, `console imports ${lang} ${device}`);

    // The bad file: line 3 and what is wrong; the Import button stays off.
    const file = main.locator('input[type=file]');
    await file.setInputFiles({ name: 'results-bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const problem = main.locator('.ant-table-row').filter({ hasText: text.badLine });
    await problem.waitFor();
    await expect(problem.locator('td').first().innerText()).resolves.toBe('3');
    await expect(main.getByRole('button', { name: text.import }).isDisabled()).resolves.toBe(true);
    await expectAccessible(page, `console imports bad ${lang} ${device}`);
    await screenshot(page, `console-imports-bad-${device}-${lang}`);
    expect(await publicScore(bibA)).toEqual([]);

    // The fixed file: the preview, then Import.
    await file.setInputFiles({ name: 'results.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await main.getByText(text.good).waitFor();
    await expect(main.locator('.ant-table-row').filter({ hasText: bibB }).count()).resolves.toBe(1);
    await screenshot(page, `console-imports-preview-${device}-${lang}`);
    await main.getByRole('button', { name: text.import }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: text.import }).click();
    await main.getByText(text.done).waitFor();
    await expect
      .poll(async () => main.locator('.ant-table-row').filter({ hasText: 'results.csv' }).count())
      .toBeGreaterThanOrEqual(1);
    await expectAccessible(page, `console imports done ${lang} ${device}`);
    await screenshot(page, `console-imports-done-${device}-${lang}`);

    // The public score lookup finds the runner.
    await expect.poll(async () => (await publicScore(bibB))[0]?.chipTime).toBe('0:49:00');
    await context.close();
    expect(errors).toEqual([]);
  });
});
