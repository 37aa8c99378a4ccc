import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { advisoryLockNumber, sql } from '../src/db/engine.ts';
import { spawnSync } from 'node:child_process';
import { DEMO_ACCOUNT } from '../src/plugins/accounts.ts';
import { buildTestApp, FIXTURE_SEED, ON_POSTGRES, removeTempDirs, tempDir, testEnv } from './helpers.ts';
import { testDatabaseUrl } from './pg-test-database.ts';
import { peoplePerAccount } from '#contract/entry';

const root = path.resolve(import.meta.dirname, '../..');

describe('the demo seed', () => {
  it('passes the seed check: schema, images, routes, partners, translations', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/seed/check-seed.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.stderr + result.stdout).toContain('seed check passed');
    expect(result.status).toBe(0);
  });
});

describe('the demo runner account (its password is in the README)', () => {
  /** Whether a server started on a fresh database with `seedDir` has the demo account. */
  async function hasDemoAccount(seedDir: string): Promise<boolean> {
    const app = await buildTestApp({ seedDir });
    try {
      return (
        (await app.repos.users.findByPhone(DEMO_ACCOUNT.phone)) !== undefined ||
        (await app.repos.users.findByEmail(DEMO_ACCOUNT.email)) !== undefined
      );
    } finally {
      await app.close();
    }
  }

  it('is created with the demo seed only: not with the organiser’s own seed, nor with none', async () => {
    try {
      expect(await hasDemoAccount(FIXTURE_SEED)).toBe(true);

      // The organiser's own event: the same kind of seed without "demoAccount".
      const own = tempDir();
      cpSync(FIXTURE_SEED, own, { recursive: true });
      const raceFile = path.join(own, 'race.json');
      const doc = JSON.parse(readFileSync(raceFile, 'utf8')) as { demoAccount?: boolean };
      delete doc.demoAccount;
      writeFileSync(raceFile, JSON.stringify(doc));
      expect(await hasDemoAccount(own)).toBe(false);

      // No seed at all (an empty SEED_DIR).
      expect(await hasDemoAccount(tempDir())).toBe(false);
    } finally {
      removeTempDirs();
    }
  });
});

describe('the first start on an empty PostgreSQL database', () => {
  it.skipIf(!ON_POSTGRES)(
    'seeds outside the plugin timeout: a seed slower than Fastify’s 10 s per plugin still starts the server',
    async () => {
      const url = (await testDatabaseUrl())!;
      // Another instance holds the seed lock: this start waits for it inside its seed, as long as that takes.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      await holder.query(`SELECT pg_advisory_lock(${advisoryLockNumber('seed')})`);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let started: Promise<Awaited<ReturnType<typeof buildApp>>> | undefined;
      try {
        started = buildApp({ dataDir: tempDir(), seedDir: FIXTURE_SEED, env: await testEnv({}, url) }).then(
          async (app) => {
            await app.ready();
            return app;
          },
        );
        started.catch(() => undefined);
        // Until the start waits for the seed lock (a condition, not a time)…
        for (;;) {
          const waiting = await holder.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          if (waiting.rows[0].n > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        // …then Fastify's plugin clock passes its 10 s: a plugin seeding now would fail the start.
        vi.advanceTimersByTime(11_000);
      } finally {
        vi.useRealTimers();
        await holder.query(`SELECT pg_advisory_unlock(${advisoryLockNumber('seed')})`);
        await holder.end();
      }
      const app = await started!;
      try {
        const races = await app.db.all<{ race_id: string }>(sql`SELECT race_id FROM races`);
        expect(races.map((r) => r.race_id)).toContain('fixture-race-2025');
      } finally {
        await app.close();
      }
    },
  );
});

/** Every string in a JSON document, with its JSON path. */
function strings(value: unknown, at = '$'): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
  return [];
}

describe("the demo seed's texts name one event", () => {
  const seed = path.join(root, 'server/seed');
  const json = (file: string) => JSON.parse(readFileSync(path.join(seed, file), 'utf8')) as unknown;
  const raceDoc = json('race.json') as {
    race: {
      raceName: string;
      raceNameEn: string;
      commitmentLetter: { title: Record<'zh' | 'en', string>; body: Record<'zh' | 'en', string> };
      packPickup: { location: Record<'zh' | 'en', string> };
    };
  };
  const { race } = raceDoc;
  // "2027 青川运河马拉松" / "2027 Qingchuan Grand Canal Marathon": the event's own name, and its city.
  const event = {
    zh: race.raceName.replace(/^\d{4}\s*/, '').replace(/马拉松$/, ''),
    en: race.raceNameEn.replace(/^\d{4}\s*/, '').replace(/ Marathon$/, ''),
  };
  const city = { zh: event.zh.slice(0, 2), en: event.en.split(' ')[0]! };
  const documents = [
    'race.json',
    ...readdirSync(path.join(seed, 'site-configs')).map((f) => `site-configs/${f}`),
    ...readdirSync(path.join(seed, 'registration-forms')).map((f) => `registration-forms/${f}`),
    ...readdirSync(path.join(seed, 'i18n')).map((f) => `i18n/${f}`),
  ];
  const texts = documents.flatMap((file) => strings(json(file)).map(([at, text]) => [`${file} ${at}`, text] as const));

  it('the commitment letter runners sign names the demo race, in both languages', () => {
    expect(event).toEqual({ zh: '青川运河', en: 'Qingchuan Grand Canal' });
    const letter = race.commitmentLetter;
    expect(letter.title.zh).toContain(race.raceName);
    expect(letter.title.en).toContain(race.raceNameEn);
    expect(letter.body.zh).toContain(race.raceName);
    expect(letter.body.en).toContain(race.raceNameEn);
  });

  it('the pick-up venue is the expo venue the site names for the pick-up', () => {
    const { location } = race.packPickup;
    expect(location.zh).toContain(`${city.zh}国际会展中心`);
    expect(location.en).toContain(`${city.en} International Expo Centre`);
    const site = texts.filter(([where]) => where.startsWith('site-configs/')).map(([, text]) => text);
    expect(site.some((text) => text.includes(`${city.zh}国际会展中心`) && text.includes('领取'))).toBe(true);
    expect(site.some((text) => text.includes(`${city.en} International Expo Centre`) && /pick-up/i.test(text))).toBe(
      true,
    );
  });

  it('the dates, hours and shares the texts give are the ones race.json runs by', () => {
    const facts = raceDoc as unknown as {
      race: {
        signUpStartTime: string;
        signUpEndTime: string;
        entry: {
          items: { name: Record<'zh' | 'en', string>; feeFen: number }[];
          refunds: { until: string; sharePercent: number };
          allowMultiple: boolean;
          othersPerAccount?: number;
        };
        packMailing: { deadline: string };
        packPickup: { days: { slots: { start: string; end: string }[] }[] };
      };
    };
    const { signUpStartTime, signUpEndTime, entry, packMailing, packPickup } = facts.race;
    // "2026-11-16 10:00:00" -> "2026年11月16日10:00"
    const zh = (at: string) => {
      const [, y, m, d, hm] = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}:\d{2})/.exec(at)!;
      return `${y}年${Number(m)}月${Number(d)}日${hm}`;
    };
    const site = texts.filter(([where]) => where.startsWith('site-configs/'));
    const saying = (words: RegExp) => site.filter(([, text]) => words.test(text)).map(([, text]) => text);
    // The registration period wherever a text gives it.
    const periods = saying(/报名时间|报名将于|报名于/);
    expect(periods.length).toBeGreaterThan(0);
    for (const text of periods.filter((t) => /\d{4}年\d+月\d+日\d{2}:\d{2}至/.test(t) || /报名于|报名将于/.test(t))) {
      expect(text).toContain(zh(signUpStartTime));
    }
    expect(saying(/报名时间/).some((t) => t.includes(`${zh(signUpStartTime)}至${zh(signUpEndTime)}`))).toBe(true);
    // Refunds: the deadline and the share returned.
    const refunds = saying(/申请退费/);
    expect(refunds.length).toBeGreaterThan(0);
    for (const text of refunds) {
      expect(text).toContain(`${zh(entry.refunds.until)}前`);
      expect(text).toContain(`${entry.refunds.sharePercent}%`);
    }
    // Mailing: the deadline to ask for it.
    const mailing = saying(/申请邮寄|申请快递|邮寄到付/).filter((t) => /截止/.test(t));
    expect(mailing.length).toBeGreaterThan(0);
    for (const text of mailing) expect(text).toContain(zh(packMailing.deadline));
    // Fees: each item's row of the fee table, in yuan; and how many others one account may enter.
    for (const item of entry.items) {
      expect(saying(/报名费/).some((t) => t.includes(`<td>${item.name.zh}</td><td>${item.feeFen / 100}元</td>`))).toBe(
        true,
      );
    }
    expect(saying(/一个账号可为本人/).length).toBeGreaterThan(0);
    const others = peoplePerAccount(facts.race.entry) - 1;
    expect(saying(/一个账号可为本人/).every((t) => t.includes(`最多${others}位`))).toBe(true);
    // Pick-up hours: from the first slot's start to the last slot's end.
    const slots = packPickup.days.flatMap((day) => day.slots);
    const hours = `${slots[0]!.start}–${slots.at(-1)!.end}`;
    const pickup = site.filter(([, text]) => /4月15日至17日|15–17 April/.test(text)).map(([, text]) => text);
    expect(pickup.length).toBeGreaterThan(0);
    for (const text of pickup) {
      for (const [range] of text.matchAll(/\d{2}:\d{2}–\d{2}:\d{2}/g)) expect(range).toBe(hours);
    }
  });

  it('no text names another race, city or venue', () => {
    // A year then a race name ("2027 青川运河马拉松", "2027 Qingchuan Grand Canal Marathon"), a race name then a
    // year ("… Marathon 2027"), an expo centre, a city's organising committee: each must be the demo's own.
    const checks: [RegExp, string][] = [
      [/\d{4}\s?(?![年月日])([\u4e00-\u9fff]{2,8}?)马拉松/g, event.zh],
      [/([\u4e00-\u9fff]{2})(?:国际会展中心|市人民政府|市体育局)/g, city.zh],
      [/\b\d{4} ((?:[A-Z][a-z]+ )*[A-Z][a-z]+) Marathon\b/g, event.en],
      [/\b((?:[A-Z][a-z]+ )*[A-Z][a-z]+) Marathon \d{4}\b/g, event.en],
      [/\b([A-Z][a-z]+) (?:International Expo Centre|Olympic Sports Centre|Municipal People)/g, city.en],
    ];
    // A year's 年 starts a date, not a name; 赛事 is a word, not a name (2027赛事马拉松: the 2027 race's marathon).
    const generic = new Set(['赛事']);
    const strangers: string[] = [];
    for (const [where, text] of texts) {
      for (const [pattern, own] of checks) {
        for (const match of text.matchAll(pattern)) {
          if (match[1] !== own && !generic.has(match[1]!)) strangers.push(`${where}: "${match[0]}"`);
        }
      }
    }
    expect(strangers).toEqual([]);
  });
});
