/**
 * What the browser tests of the registration screens and the sign-up page share: the files they upload, the
 * language switch, the axe check, and filling the fields of the demo race's forms (uploads with the
 * authenticity question, the region picker, the country list).
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import publicForm from '../../server/seed/registration-forms/qc-marathon-2027.json';
import { pngOf } from '../../server/test/png';
import { axeFindings, blocking } from './axe';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** An ID photo of the size the demo forms ask for (358 × 441 px). */
export const PHOTO: UploadFile = { name: 'photo.png', mimeType: 'image/png', buffer: pngOf(358, 441) };

/** A small PDF (a health certificate, a document). */
export const PDF: UploadFile = {
  name: 'report.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
};

/** 'YYYY-MM-DD HH:mm:ss' of a time `days` from now (UTC; the tests' windows leave days either side). */
export const fromNow = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

export async function switchLanguage(page: Page, to: 'zh' | 'en') {
  await page.getByTestId('language-toggle').click();
  await page
    .getByTestId('language-toggle')
    .getByText(to === 'en' ? '中' : 'En')
    .waitFor();
}

/** No serious or critical accessibility violation (axe) in the screen's present state. */
export async function expectAccessible(page: Page, state: string) {
  await page.waitForTimeout(350);
  expect(blocking(await axeFindings(page, state))).toEqual([]);
}

/** Answers the authenticity question '您上传的文件是否保证真实有效？' with yes. */
async function confirmAuthentic(page: Page) {
  const dialog = page.getByRole('dialog').filter({ hasText: '您上传的文件是否保证真实有效？' });
  await dialog.getByRole('button', { name: /^是 ?$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Uploads a file in `scope` (answering the authenticity question unless `ask` is false) and waits for it. */
export async function upload(page: Page, scope: Locator, file: UploadFile, ask = true) {
  await scope.locator('input[type="file"]').setInputFiles(file);
  if (ask) await confirmAuthentic(page);
  await scope.locator('.ant-upload-list-item-done').first().waitFor();
}

/** Picks 北京市 / 北京市 / 海淀区 by typing in the region Cascader's search. */
export async function pickRegion(page: Page, input: Locator) {
  await input.click();
  await input.fill('海淀');
  await page.locator('li', { hasText: /^北京市 \/ 北京市 \/ 海淀区$/ }).click();
}

/** Picks mainland China in a country list. */
export async function pickMainlandChina(page: Page, country: Locator) {
  await country.click();
  await page.keyboard.type('中国');
  // The server's list keeps mainland China first: the first match is it.
  await page.locator('.ant-select-item-option-active').getByText('中国大陆', { exact: true }).waitFor();
  await country.press('Enter');
}

/** A field's Chinese label in the demo race's public sign-up form, by its key. */
export const publicFormLabel = (key: string) => publicForm.fields.find((f) => f.key === key)!.label.zh;

/** The Form.Item of a field of the sign-up page's first person, by its key. */
export const personItem = (page: Page, key: string) =>
  page.locator('.ant-form-item').filter({ has: page.locator(`#entry-person-0_${key}_label`) });

/** A runner as the browser tests fill the demo race's public form for them (in Chinese). */
export interface DemoPerson {
  name: string;
  gender: '男' | '女';
  /** Certificate number (an ID card). */
  id: string;
  birthday: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
  address: string;
  bloodType: string;
}

/**
 * Fills every required field of the demo race's public form for the sign-up page's first person (in Chinese)
 * and saves them; the marathon also asks for finished marathons and a health certificate. With `photo: false`
 * the ID photo is left as the caller uploaded it.
 */
export async function fillDemoPerson(
  page: Page,
  person: DemoPerson,
  itemCode: 'M' | 'HM' | '10K',
  options: { photo?: boolean } = {},
) {
  const label = publicFormLabel;
  const people = page.getByTestId('entry-people');
  await people.getByLabel(label('name'), { exact: true }).fill(person.name);
  await personItem(page, 'gender').getByText(person.gender, { exact: true }).click();
  await people.getByLabel(label('certificateNumber'), { exact: true }).fill(person.id);
  const birthday = people.getByLabel(label('birthday'), { exact: true });
  await birthday.click();
  await birthday.fill(person.birthday);
  await birthday.press('Enter');
  await people.getByLabel(label('phone'), { exact: true }).fill(person.phone);
  await people.getByLabel(label('email'), { exact: true }).fill(`${person.phone}@example.com`);
  await pickMainlandChina(page, people.getByLabel(label('nationality'), { exact: true }));
  await pickRegion(page, people.getByLabel(label('region'), { exact: true }));
  await people.getByLabel(label('address'), { exact: true }).fill(person.address);
  await people.getByLabel(label('emergencyName'), { exact: true }).fill(person.emergencyName);
  await people.getByLabel(label('emergencyPhone'), { exact: true }).fill(person.emergencyPhone);
  await people.getByLabel(label('bloodType'), { exact: true }).click();
  await page.locator('.ant-select-item-option:visible').filter({ hasText: person.bloodType }).click();
  await personItem(page, 'tshirtSize').locator('label.rs-size-card').filter({ hasText: 'M（170/88A）' }).click();
  if (itemCode === 'M') await people.getByLabel(label('marathonsFinished'), { exact: true }).fill('3');
  if (options.photo !== false) await upload(page, personItem(page, 'photo'), PHOTO);
  if (itemCode === 'M') await upload(page, personItem(page, 'healthCertificate'), PDF);
  await people.getByRole('button', { name: '保存此参赛者' }).click();
  await people.getByTestId('entry-person-0').waitFor();
}
