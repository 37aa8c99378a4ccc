/**
 * Synthetic runners of the demo event (deterministic: a seeded PRNG, no platform randomness). Every runner has a
 * registration in the current race and, mostly, a result with splits in the past race, so the history and
 * PB lookups have data. Runs in one transaction with prepared statements (30,000 runners in ~1-2 s).
 */
import { checkpointsFor, ITEMS, maskMobile } from '../lib/race-center.ts';
import {
  unrankedResult,
  type OrderRow,
  type PhotoRow,
  type RaceCenterRepository,
  type RegistrationRow,
  type ResultRow,
} from './race-center-repository.ts';

export interface SeedRunnersOptions {
  currentRaceId: string;
  /** 'YYYY-MM-DD' of the current race (ages). */
  currentRaceDate: string;
  pastRaceId: string;
  /** 'YYYY-MM-DD HH:mm:ss' start of the past race (photo times, ages). */
  pastRaceStart: string;
  count: number;
  seed?: number;
}

export interface DemoRunner {
  name: string;
  certType: number;
  certNo: string;
  gender: number;
  birthday: string;
  phone: string;
  pastItem: string;
  currentItem: string;
  status: number;
  /** Where the hand-picked runners registered (2 third-party, 3 web, 5 app); generated runners draw one. */
  channel?: RegistrationChannelSeed;
}

export interface RegistrationChannelSeed {
  channel: 2 | 3 | 5;
  channelName?: string;
  channelNameEn?: string;
}

/** Third-party platforms of the demo event (partner, charity and travel-agency quotas). */
export const THIRD_PARTY_PLATFORMS = [
  { channelName: '青川体育旅行', channelNameEn: 'Qingchuan Sports Travel' },
  { channelName: '运河公益基金会', channelNameEn: 'Canal Charity Foundation' },
  { channelName: '跑者之家', channelNameEn: 'Runners Home' },
] as const;

/** Hand-picked runners, always the first ones: stable for tests, demos and the load bench. */
export const DEMO_RUNNERS: readonly DemoRunner[] = [
  {
    name: '张伟',
    certType: 1,
    certNo: idCard('32010219900101123'),
    gender: 1,
    birthday: '1990-01-01',
    phone: '13812345678',
    pastItem: 'M',
    currentItem: 'M',
    status: 1,
    channel: { channel: 3 },
  },
  {
    name: '李娜',
    certType: 1,
    certNo: idCard('11010519880715302'),
    gender: 2,
    birthday: '1988-07-15',
    phone: '13912345678',
    pastItem: 'H',
    currentItem: 'M',
    status: 0,
    channel: { channel: 5 },
  },
  {
    name: '王芳',
    certType: 2,
    certNo: 'E12345678',
    gender: 2,
    birthday: '1995-03-20',
    phone: '13712345678',
    pastItem: '10K',
    currentItem: 'H',
    status: 2,
    channel: { channel: 2, ...THIRD_PARTY_PLATFORMS[0] },
  },
  {
    name: '陈磊',
    certType: 1,
    certNo: idCard('44010619751230001'),
    gender: 1,
    birthday: '1975-12-30',
    phone: '13612345678',
    pastItem: 'M',
    currentItem: 'M',
    status: 5,
    channel: { channel: 3 },
  },
  {
    name: '刘洋',
    certType: 3,
    certNo: 'H87654321',
    gender: 1,
    birthday: '2001-06-01',
    phone: '13512345678',
    pastItem: 'H',
    currentItem: '10K',
    status: 4,
    channel: { channel: 2, ...THIRD_PARTY_PLATFORMS[1] },
  },
];

/** A second-generation ID number: 17 digits plus the ISO 7064 check character. */
export function idCard(first17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * (weights[i] ?? 0);
  return first17 + '10X98765432'.charAt(sum % 11);
}

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN_M = '伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林阳文博志建国海峰';
const GIVEN_F = '芳娜敏静丽艳娟霞秀玲桂英华慧巧美婷雪琳晶妍颖佳倩梅莉萍红燕丹欣怡蕾璐瑶';
const REGIONS = [
  '320102',
  '320106',
  '320205',
  '320506',
  '110101',
  '110105',
  '310104',
  '310115',
  '330106',
  '440106',
  '440305',
  '510107',
  '420106',
  '370102',
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const ORDER_AMOUNT: Record<string, number> = { M: 200, H: 150, '10K': 100 };
const BIB_PREFIX: Record<string, string> = { M: 'A', H: 'B', '10K': 'C' };
const TIME_RANGE_MIN: Record<string, [number, number]> = { M: [128, 360], H: [60, 180], '10K': [28, 90] };

export const DEMO_SEED = 20260419;

/**
 * The runners' identities, the hand-picked ones first; the same (count, pastYear, seed) always gives the same
 * runners, so the load bench can rebuild the seeded name + certificate number pairs.
 */
export function* generateRunners(count: number, pastYear = 2026, seed = DEMO_SEED): Generator<DemoRunner> {
  const rnd = mulberry32(seed);
  const pick = <T>(list: readonly T[] | string): T => list[Math.floor(rnd() * list.length)] as T;
  const usedCerts = new Set<string>(DEMO_RUNNERS.map((r) => r.certNo));
  const makeRunner = (): DemoRunner => {
    const gender = rnd() < 0.62 ? 1 : 2;
    const year = pastYear - 18 - Math.floor(rnd() * 50);
    const birthday = `${year}-${pad(1 + Math.floor(rnd() * 12), 2)}-${pad(1 + Math.floor(rnd() * 28), 2)}`;
    let certNo = '';
    let certType = 1;
    do {
      if (rnd() < 0.96) {
        certType = 1;
        const seq = Math.floor(rnd() * 500) * 2 + (gender === 1 ? 1 : 0);
        certNo = idCard(`${pick<string>(REGIONS)}${birthday.replaceAll('-', '')}${pad(seq, 3)}`);
      } else {
        certType = rnd() < 0.6 ? 2 : rnd() < 0.5 ? 3 : 4;
        certNo = `${certType === 2 ? 'E' : certType === 3 ? 'H' : 'T'}${pad(Math.floor(rnd() * 1e8), 8)}`;
      }
    } while (usedCerts.has(certNo));
    const given = gender === 1 ? GIVEN_M : GIVEN_F;
    const name = pick<string>(SURNAMES) + pick<string>(given) + (rnd() < 0.6 ? pick<string>(given) : '');
    const r = rnd();
    const pastItem = r < 0.5 ? 'M' : r < 0.83 ? 'H' : '10K';
    const currentItem = rnd() < 0.7 ? pastItem : pick(['M', 'H', '10K']);
    const s = rnd();
    const status = s < 0.1 ? 0 : s < 0.65 ? 1 : s < 0.9 ? 2 : s < 0.94 ? 3 : s < 0.97 ? 4 : 5;
    const phone = `1${pick<string>('3456789')}${pad(Math.floor(rnd() * 1e9), 9)}`;
    return { name, certType, certNo, gender, birthday, phone, pastItem, currentItem, status };
  };
  for (let i = 0; i < count; i++) {
    const runner = DEMO_RUNNERS[i] ?? makeRunner();
    usedCerts.add(runner.certNo);
    yield runner;
  }
}

/** Writes the demo runners' rows through `repo` (call it inside a transaction). */
export async function seedRunners(
  repo: RaceCenterRepository,
  options: SeedRunnersOptions,
): Promise<{ registrations: number; results: number; photos: number }> {
  const seed = options.seed ?? DEMO_SEED;
  const rnd = mulberry32(seed + 1);
  // A stream of its own, so the channels leave every other generated value as it was.
  const channelRnd = mulberry32(seed + 2);
  const drawChannel = (): RegistrationChannelSeed => {
    const c = channelRnd();
    if (c < 0.7) return { channel: 3 };
    if (c < 0.9) return { channel: 5 };
    return { channel: 2, ...THIRD_PARTY_PLATFORMS[Math.floor(channelRnd() * THIRD_PARTY_PLATFORMS.length)] };
  };
  const pick = <T>(list: readonly T[] | string): T => list[Math.floor(rnd() * list.length)] as T;
  const pastDate = options.pastRaceStart.slice(0, 10);
  const runners = generateRunners(options.count, Number(pastDate.slice(0, 4)) || 2026, seed);
  const bibCounter = { past: new Map<string, number>(), current: new Map<string, number>() };
  const nextBib = (which: 'past' | 'current', item: string) => {
    const n = (bibCounter[which].get(item) ?? 0) + 1;
    bibCounter[which].set(item, n);
    return `${BIB_PREFIX[item] ?? 'X'}${pad(n, 5)}`;
  };

  const registrations: RegistrationRow[] = [];
  const results: ResultRow[] = [];
  const photos: PhotoRow[] = [];
  for (let i = 0; i < options.count; i++) {
    const runner = runners.next().value as DemoRunner;
    const hash = repo.certHash(runner.certNo);
    const drawn = drawChannel();
    const channel = runner.channel ?? drawn;

    // Current race: the registration and its order.
    const amount = ORDER_AMOUNT[runner.currentItem] ?? 100;
    const coupon = rnd() < 0.1 ? 'EARLY20' : '';
    const discount = coupon ? 20 : 0;
    const paid = runner.status === 1 || runner.status === 4 || runner.status === 5;
    const day = 10 + (i % 14);
    const orderNo = `QC2027${pad(i + 1, 8)}`;
    const order: OrderRow = {
      orderNo,
      subOrderNo: `${orderNo}-01`,
      createTime: `2027-01-${pad(day, 2)} ${pad(10 + (i % 8), 2)}:${pad(i % 60, 2)}:${pad((i * 7) % 60, 2)}`,
      serialNo: paid ? `PAY${pad(i + 1, 10)}` : '',
      payTime: paid
        ? `2027-01-${pad(day, 2)} ${pad(10 + (i % 8), 2)}:${pad(i % 60, 2)}:${pad((i * 7 + 30) % 60, 2)}`
        : '',
      amountPaid: paid ? amount - discount : 0,
      orderAmount: amount,
      coupon,
      discount,
    };
    registrations.push({
      race_id: options.currentRaceId,
      bib: runner.status === 1 ? nextBib('current', runner.currentItem) : null,
      name: runner.name,
      gender: runner.gender,
      birthday: runner.birthday,
      cert_type: runner.certType,
      cert_hash: hash,
      phone_masked: maskMobile(runner.phone),
      emergency_name: `${runner.name.slice(0, 1)}${pick<string>(rnd() < 0.5 ? GIVEN_M : GIVEN_F)}${pick<string>(GIVEN_F)}`,
      emergency_phone_masked: maskMobile(`1${pick<string>('3456789')}${pad(Math.floor(rnd() * 1e9), 9)}`),
      item: runner.currentItem,
      status: runner.status,
      orders_json: JSON.stringify([order]),
      channel: channel.channel,
      channel_name: channel.channelName ?? null,
      channel_name_en: channel.channelNameEn ?? null,
    });

    // Past race: 97% of the runners finished it (all the hand-picked ones).
    if (i >= DEMO_RUNNERS.length && rnd() < 0.03) continue;
    const item = runner.pastItem;
    const def = ITEMS[item];
    const [lo = 60, hi = 180] = TIME_RANGE_MIN[item] ?? [];
    const u = (rnd() + rnd() + rnd()) / 3; // bell-shaped between lo and hi
    const minutes = Math.min(hi, lo + (hi - lo) * u * u * 1.4);
    const chipMs = Math.round(minutes * 60_000 + rnd() * 59_000);
    const gunMs = chipMs + Math.round(u * 8 * 60_000 + rnd() * 20_000);
    const drift = 0.04 + rnd() * 0.1; // the second half is slower
    const splits = checkpointsFor(item).map((cp) => {
      const x = cp.distanceKm / (def?.distanceKm ?? 1);
      return {
        checkpoint: cp.checkpoint,
        distanceKm: cp.distanceKm,
        chipMs: Math.round(chipMs * (x + drift * x * (x - 1))),
      };
    });
    const bib = nextBib('past', item);
    results.push(
      unrankedResult({
        raceId: options.pastRaceId,
        bib,
        name: runner.name,
        gender: runner.gender,
        certHash: hash,
        item,
        gunMs,
        chipMs,
        birthday: runner.birthday,
        raceDate: pastDate,
        splits,
      }),
    );

    if (i < DEMO_RUNNERS.length || rnd() < 0.15) {
      const n = 1 + Math.floor(rnd() * 3);
      for (let p = 0; p < n; p++) {
        const minutes = Math.round(((chipMs / 60_000) * (p + 1)) / (n + 1));
        const start = options.pastRaceStart;
        const hh = Number(start.slice(11, 13)) + Math.floor((Number(start.slice(14, 16)) + minutes) / 60);
        const mm = (Number(start.slice(14, 16)) + minutes) % 60;
        photos.push({
          race_id: options.pastRaceId,
          bib,
          url: `demo/gallery/gallery-${pad(1 + Math.floor(rnd() * 12), 2)}.svg`,
          taken_at: `${pastDate} ${pad(hh, 2)}:${pad(mm, 2)}:00`,
        });
      }
    }
  }
  await repo.saveRegistrations(registrations);
  await repo.saveResults(options.pastRaceId, results);
  await repo.savePhotos(photos);
  return { registrations: registrations.length, results: results.length, photos: photos.length };
}
