/**
 * The console's pick-up pages (issue 32), in Chinese and English. The volunteers' check-in screen, on a phone
 * (390 × 844) and a tablet, signed in as a check-in member: a pass looked up (name, masked ID, item, slot) and
 * handed over online; then the network drops: three passes are handed over (kept on the device, "waiting to
 * send: 3"; the first online one looked up again says this device handed it over), the third while another
 * desk collects it (the CLI's pickup-checkin); the page is reloaded
 * while the server is still out of reach (the list survives), and when it is reachable again both are sent once
 * and the third shows the conflict (already collected … by cli). The organiser's pick-up page, at 1280 px and
 * on a tablet: the slot's collected figure as the database counts it, a capacity below the places booked
 * refused, a desk key issued (shown once) and revoked. No serious or critical axe finding.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { formatPassCode, pickupSlotId } from '../../contract/after-entry';
import seed from '../../server/seed/race.json';
import { openDatabase } from '../../server/src/db/database';
import { newPassCode } from '../../server/src/services/after-entry/pickup';
import { newPage, screenshot, useBrowser } from './browser';
import { consoleUrl, DESKTOP, signInToConsole, TABLET } from './console';
import { expectAccessible } from './demo-form';
import { repoRoot } from './server-process';
import { siteCli } from './site-config';
import { serverDataDir } from './test-server';

const browser = useBrowser();
const RACE_ID = seed.race.raceId;
/** A slot the other browser tests leave alone. */
const SLOT = pickupSlotId('2027-04-17', '17:00');
const PHONE = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  reducedMotion: 'reduce',
} as const;

const TEXT = {
  zh: {
    checkin: '领物核验',
    lookUp: /^查 ?询$/,
    handOverOutside: '在预约时段外发放',
    handed: (name: string) => `已发放：${name}`,
    offline: /网络已断开/,
    cannotCheck: '当前无网络，暂时无法核验此凭证。',
    handOverLater: '发放物资，联网后上传',
    waiting: (n: number) => `等待上传：${n}`,
    queuedHere: /等待上传。请勿再次发放。/,
    allSent: '已全部上传',
    conflict: /已于 .+ 由 cli 发放，不能再次发放/,
    pickup: '领物管理',
    change: '修改',
    capacityRefused: /已有 \d+ 个预约，容量不能低于此数/,
    save: /^保 ?存$/,
    cancel: /^取 ?消$/,
    issue: '生成密钥',
    done: '已复制，完成',
    revoke: /^吊 ?销$/,
    revoked: /已于 .+ 吊销/,
  },
  en: {
    checkin: 'Pack check-in',
    lookUp: /^Look up$/,
    handOverOutside: 'Hand over outside the booked slot',
    handed: (name: string) => `Handed over: ${name}`,
    offline: /^Offline/,
    cannotCheck: 'No network: this pass cannot be checked now.',
    handOverLater: 'Hand over, send when back online',
    waiting: (n: number) => `Waiting to send: ${n}`,
    queuedHere: /waiting to send\. Do not hand over another pack\./,
    allSent: 'All sent',
    conflict: /Already collected at .+ by cli: not handed over again/,
    pickup: 'Pack pick-up',
    change: 'Change',
    capacityRefused: /already has \d+ bookings: the capacity cannot be lower/,
    save: /^Save$/,
    cancel: /^Cancel$/,
    issue: 'Issue a key',
    done: 'Done, I copied it',
    revoke: /^Revoke$/,
    revoked: /Revoked \d{4}-/,
  },
} as const;

const database = () => openDatabase({ dataDir: serverDataDir(), seedDir: `${repoRoot}/server/seed`, now: Date.now() });

/** Runners with a won 10 km entry booked into SLOT: their pass codes and names. */
async function bookedPasses(count: number): Promise<{ pass: string; name: string }[]> {
  const { db, repos } = await database();
  try {
    const race = await repos.races.findById(RACE_ID);
    await repos.pickup.ensureSlots(RACE_ID, race!.packPickup);
    const made = [];
    for (let i = 0; i < count; i += 1) {
      const now = Date.now();
      const tag = randomBytes(4).toString('hex');
      const name = `领物${tag.slice(0, 4)}`;
      const phone = `178${String(parseInt(tag, 16) % 100_000_000).padStart(8, '0')}`;
      const userId = await repos.users.create({ phone }, now);
      const pass = await repos.transaction(async (tx) => {
        expect(await tx.entries.takePlace(RACE_ID, '10K', 'main', 1)).toBe(true);
        const entry = await tx.entries.insertEntry({
          raceId: RACE_ID,
          itemCode: '10K',
          channel: 'public',
          userId,
          status: 1,
          holdsPlace: true,
          name,
          gender: 1,
          birthday: '1991-03-03',
          certType: 1,
          certHash: `console-pickup-e2e-${tag}`,
          certNumber: '110105199103031237',
          phone,
          values: {},
          feeFen: 0,
          now,
        });
        expect(await tx.pickup.takeSlot(RACE_ID, SLOT)).toBe(true);
        const booking = await tx.pickup.insertBooking({
          raceId: RACE_ID,
          entryId: entry.id,
          slotId: SLOT,
          passCode: newPassCode(),
          now,
        });
        return booking!.passCode;
      });
      made.push({ pass, name });
    }
    return made;
  } finally {
    await db.close();
  }
}

/** The pass's booking and its pickup.checkIn audit records, as the database has them. */
async function recorded(pass: string) {
  const { db, repos } = await database();
  try {
    const booking = await repos.pickup.findByPass(RACE_ID, pass);
    const audits = (await repos.audit.find({ action: 'pickup.checkIn', raceId: RACE_ID, limit: 500 })).filter(
      (record) => JSON.parse(record.after ?? '{}').pass === pass,
    );
    return { status: booking?.status, by: booking?.collectedBy, audits: audits.length };
  } finally {
    await db.close();
  }
}

async function collectedInSlot(): Promise<number> {
  const { db, repos } = await database();
  try {
    return (await repos.pickup.counts(RACE_ID)).get(SLOT)?.collected ?? 0;
  } finally {
    await db.close();
  }
}

async function lookUp(page: Page, lang: 'zh' | 'en', pass: string) {
  await page.getByTestId('checkin-code').fill(pass.toLowerCase());
  await expect(page.getByTestId('checkin-look-up').innerText()).resolves.toMatch(TEXT[lang].lookUp);
  await page.getByTestId('checkin-look-up').click();
}

describe.each([
  ['phone', PHONE, 'zh'],
  ['tablet', TABLET, 'en'],
] as const)('the check-in screen (%s)', (device, options, lang) => {
  it(`hands packs over online and through a network drop, each once (${lang})`, async () => {
    const text = TEXT[lang];
    const [online, first, second, contested] = await bookedPasses(4);
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'checkIn', language: lang });
    // A check-in member lands on the check-in screen (of the first race); the demo race's is chosen.
    await page.getByRole('heading', { name: text.checkin, level: 1 }).waitFor();
    await page.goto(consoleUrl(`/races/${RACE_ID}/checkin`));
    await page.getByTestId('checkin-code').waitFor();

    // Online: the holder, then the hand-over (today is outside the pass's booked slot: the volunteer confirms).
    await lookUp(page, lang, online!.pass);
    const found = page.getByTestId('checkin-found');
    await found.waitFor();
    await expect(found.innerText()).resolves.toContain(online!.name);
    await expect(found.innerText()).resolves.toMatch(/1101\*+1237/);
    await expectAccessible(page, `console checkin found ${device} ${lang}`);
    await screenshot(page, `console-checkin-found-${device}-${lang}`);
    await found.getByRole('button', { name: text.handOverOutside }).click();
    await expect.poll(() => page.getByTestId('checkin-handed').innerText()).toContain(text.handed(online!.name));
    await expect.poll(async () => (await recorded(online!.pass)).status).toBe('collected');

    // The network drops: two hand-overs kept on the device, a third while another desk collects that pass.
    await context.setOffline(true);
    await expect.poll(() => page.getByTestId('checkin-network').innerText()).toMatch(text.offline);
    for (const { pass } of [first!, second!, contested!]) {
      await lookUp(page, lang, pass);
      const offline = page.getByTestId('checkin-offline');
      await expect.poll(() => offline.innerText()).toContain(text.cannotCheck);
      await offline.getByRole('button', { name: text.handOverLater }).click();
      await page.getByTestId('checkin-handed').waitFor();
    }
    await expect.poll(() => page.getByTestId('checkin-waiting').innerText()).toBe(text.waiting(3));
    // Looking one up again: what this device knows, no second hand-over.
    await lookUp(page, lang, first!.pass);
    await expect.poll(() => page.getByTestId('checkin-offline').innerText()).toMatch(text.queuedHere);
    await expect(page.getByTestId('checkin-hand-over').count()).resolves.toBe(0);
    await expectAccessible(page, `console checkin offline ${device} ${lang}`);
    await screenshot(page, `console-checkin-offline-${device}-${lang}`);
    // The one handed over and recorded before the drop: this device remembers it.
    await lookUp(page, lang, online!.pass);
    await page.getByTestId('checkin-sent-here').waitFor();
    await expect(page.getByTestId('checkin-hand-over').count()).resolves.toBe(0);
    await siteCli('pickup-checkin', '--race', RACE_ID, '--pass', contested!.pass);

    // The device is back on a network but the server is still out of reach; the page is reloaded: the
    // hand-overs are still there, waiting.
    const route = `**/api/admin/races/${RACE_ID}/pickup/checkin`;
    await page.route(route, (r) => r.abort('internetdisconnected'));
    await context.setOffline(false);
    await page.reload();
    await expect.poll(() => page.getByTestId('checkin-waiting').innerText()).toBe(text.waiting(3));
    expect((await recorded(first!.pass)).status).toBe('booked');

    // The server is reachable: sent by themselves (tried again every few seconds), each once; the contested
    // one is a conflict, said so.
    await page.unroute(route);
    await expect.poll(() => page.getByTestId('checkin-waiting').count()).toBe(0);
    await expect(page.getByTestId('checkin-conflicts').innerText()).resolves.toMatch(/1$/);
    const conflict = page.getByTestId('checkin-queue-conflict');
    await expect.poll(() => conflict.innerText()).toMatch(text.conflict);
    await expect(conflict.innerText()).resolves.toContain(formatPassCode(contested!.pass));
    await expectAccessible(page, `console checkin sent ${device} ${lang}`);
    await screenshot(page, `console-checkin-sent-${device}-${lang}`);
    for (const { pass } of [online!, first!, second!]) {
      expect(await recorded(pass), pass).toMatchObject({ status: 'collected', by: 'E2E checkIn', audits: 1 });
    }
    expect(await recorded(contested!.pass)).toMatchObject({ status: 'collected', by: 'cli', audits: 1 });

    // The volunteer has seen the conflict: dismissed, the device has nothing left to send.
    await page.getByTestId('checkin-queue-conflict').getByRole('button').click();
    await expect.poll(() => page.getByTestId('checkin-queue-conflict').count()).toBe(0);
    await expect(page.getByTestId('checkin-all-sent').innerText()).resolves.toBe(text.allSent);
    await context.close();
    expect(errors).toEqual([]);
  });
});

describe.each([
  ['desktop', DESKTOP, 'en'],
  ['tablet', TABLET, 'zh'],
] as const)('the pick-up page (%s)', (device, options, lang) => {
  it(`shows the live figures, refuses a capacity below the bookings, issues and revokes a key (${lang})`, async () => {
    const text = TEXT[lang];
    const { page, context, errors } = await newPage(browser(), options);
    await signInToConsole(page, { role: 'service', language: lang });
    await page.goto(consoleUrl(`/races/${RACE_ID}/pickup`));
    const main = page.getByTestId('pickup-page');
    await main.getByRole('heading', { name: text.pickup, level: 1 }).waitFor();

    // The slot's collected figure is the database's (the check-in screens above collected some).
    const row = main.getByTestId('pickup-slots').locator(`tr[data-row-key="${SLOT}"]`);
    const collected = await collectedInSlot();
    expect(collected).toBeGreaterThan(0);
    await expect.poll(() => row.getByTestId('slot-collected').innerText()).toBe(String(collected));
    await expectAccessible(page, `console pickup ${device} ${lang}`);
    await screenshot(page, `console-pickup-${device}-${lang}`);

    // A capacity below the places booked: refused, said so, nothing changed.
    await row.getByTestId('capacity-change').click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('#pickup-capacity').fill('1');
    await dialog.getByRole('button', { name: text.save }).click();
    await expect.poll(() => dialog.getByTestId('capacity-error').innerText()).toMatch(text.capacityRefused);
    await expectAccessible(page, `console pickup capacity ${device} ${lang}`);
    await dialog.getByRole('button', { name: text.cancel }).click();
    await dialog.waitFor({ state: 'hidden' });

    // A desk key: shown once, listed, revoked.
    const label = `Desk ${randomBytes(2).toString('hex')}`;
    await main.getByTestId('key-label').fill(label);
    await main.getByRole('button', { name: text.issue }).click();
    const key = page.getByTestId('issued-key');
    await expect.poll(async () => (await key.inputValue()).length).toBeGreaterThanOrEqual(32);
    await expectAccessible(page, `console pickup key ${device} ${lang}`);
    await screenshot(page, `console-pickup-key-${device}-${lang}`);
    await page.getByRole('button', { name: text.done }).click();
    const keyRow = main.getByTestId('pickup-keys').locator('.ant-table-row').filter({ hasText: label });
    await keyRow.getByRole('button', { name: text.revoke }).click();
    const confirm = page.getByRole('dialog').filter({ has: page.getByRole('button', { name: text.revoke }) });
    await confirm.getByRole('button', { name: text.revoke }).click();
    await confirm.waitFor({ state: 'hidden' });
    // The answer's message (success, or the refusal's words, which a failure then shows).
    const said = page.locator('.ant-message-notice').last();
    await said.waitFor();
    await expect
      .poll(async () => `${await keyRow.innerText()} | ${await said.innerText().catch(() => '')}`)
      .toMatch(text.revoked);
    await context.close();
    expect(errors).toEqual([]);
  });
});
