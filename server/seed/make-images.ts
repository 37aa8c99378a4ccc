/**
 * Writes every image of the demo event (server/seed/files/demo/**.svg): logo, footer copyright bars, QR
 * codes, ads, carousel slides, gallery pictures, video posters, partner logos, the race poster and the
 * route map. Deterministic: a seeded PRNG and no clock, so a re-run gives byte-identical files.
 *
 * Run: node --import tsx server/seed/make-images.ts
 * The outputs are shipped (the SPA shows them through /files/demo/...); re-run after editing this file.
 */
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'files', 'demo');
const FONT = 'PingFang SC, Noto Sans CJK SC, Microsoft YaHei, sans-serif';

/** Palette: deep canal blue, jade, lantern red, warm gold, and their neighbours. */
const C = {
  blue: '#0b3d6b',
  blue2: '#14568f',
  blue3: '#2a78b8',
  navy: '#08223d',
  jade: '#1a9c8c',
  jade2: '#5cc2b2',
  red: '#d9452b',
  red2: '#b3321d',
  gold: '#f2b233',
  gold2: '#ffd77a',
  ink: '#1f2a36',
  wall: '#f5f0e6',
  roof: '#3a4550',
  stone: '#a8b6c0',
  paper: '#fbf8f1',
  white: '#ffffff',
};

// ---------------------------------------------------------------------------------------------------
// Basics: PRNG, number formatting, escaping, document with <defs>
// ---------------------------------------------------------------------------------------------------

class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0;
  }
  /** mulberry32 */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
  int(lo: number, hi: number): number {
    return Math.floor(this.range(lo, hi + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const fmt = (v: unknown): string => (typeof v === 'number' ? String(Math.round(v * 10) / 10) : String(v));

/** Template tag: numbers are rounded to one decimal, everything else is inserted as is. */
function s(strings: TemplateStringsArray, ...vals: unknown[]): string {
  let out = strings[0] ?? '';
  for (let i = 0; i < vals.length; i += 1) out += fmt(vals[i]) + (strings[i + 1] ?? '');
  return out;
}

const esc = (t: string): string =>
  t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Stop = [offset: number, color: string, opacity?: number];

class Doc {
  private defs: string[] = [];
  private seq = 0;
  /** Identical gradients are defined once. */
  private memo = new Map<string, string>();
  constructor(
    readonly w: number,
    readonly h: number,
  ) {}
  id(prefix = 'i'): string {
    this.seq += 1;
    return `${prefix}${this.seq}`;
  }
  private stops(stops: Stop[]): string {
    return stops
      .map(([o, c, op]) => `<stop offset="${o}" stop-color="${c}"${op === undefined ? '' : ` stop-opacity="${op}"`}/>`)
      .join('');
  }
  private gradient(prefix: string, make: (id: string) => string): string {
    const key = make('');
    let ref = this.memo.get(key);
    if (!ref) {
      const id = this.id(prefix);
      this.defs.push(make(id));
      ref = `url(#${id})`;
      this.memo.set(key, ref);
    }
    return ref;
  }
  linear(stops: Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
    return this.gradient(
      'g',
      (id) =>
        `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${this.stops(stops)}</linearGradient>`,
    );
  }
  radial(stops: Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
    return this.gradient(
      'r',
      (id) => `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${this.stops(stops)}</radialGradient>`,
    );
  }
  /** A definition made once per document under `key` (e.g. a runner pose); returns its id. */
  shared(key: string, make: (id: string) => string): string {
    let ref = this.memo.get(key);
    if (!ref) {
      ref = this.id('s');
      this.defs.push(make(ref));
      this.memo.set(key, ref);
    }
    return ref;
  }
  /** Adds a raw definition; `make` receives the new id. */
  def(make: (id: string) => string, prefix = 'd'): string {
    const id = this.id(prefix);
    this.defs.push(make(id));
    return id;
  }
  render(body: string): string {
    const defs = this.defs.length ? `<defs>${this.defs.join('')}</defs>` : '';
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.w}" height="${this.h}" viewBox="0 0 ${this.w} ${this.h}" font-family="${FONT}">${defs}${body}</svg>\n`;
  }
}

function text(
  x: number,
  y: number,
  t: string,
  size: number,
  fill: string,
  extra: { weight?: number; anchor?: 'start' | 'middle' | 'end'; spacing?: number; opacity?: number } = {},
): string {
  const attrs = [
    s`x="${x}" y="${y}" font-size="${size}" fill="${fill}"`,
    extra.weight ? `font-weight="${extra.weight}"` : '',
    extra.anchor && extra.anchor !== 'start' ? `text-anchor="${extra.anchor}"` : '',
    extra.spacing ? s`letter-spacing="${extra.spacing}"` : '',
    extra.opacity !== undefined ? s`opacity="${extra.opacity}"` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return `<text ${attrs}>${esc(t)}</text>`;
}

/** Rough advance width of a string (CJK ≈ 1 em, Latin ≈ 0.56 em), for sizing pills and boxes. */
function textWidth(t: string, size: number, spacing = 0): number {
  let w = 0;
  for (const ch of t) w += (/[\u2E80-\uFFFF]/.test(ch) ? 1 : /[A-Z0-9]/.test(ch) ? 0.64 : 0.52) * size + spacing;
  return w;
}

// ---------------------------------------------------------------------------------------------------
// Scene pieces
// ---------------------------------------------------------------------------------------------------

type Time = 'dawn' | 'day' | 'dusk' | 'night';

const SKY: Record<Time, Stop[]> = {
  dawn: [
    [0, '#7fb3d5'],
    [0.55, '#f6d9b0'],
    [1, '#fbe9cf'],
  ],
  day: [
    [0, '#6fb2de'],
    [0.7, '#cfe8f3'],
    [1, '#eaf5f6'],
  ],
  dusk: [
    [0, '#16365f'],
    [0.45, '#7a4d79'],
    [0.8, '#e8825a'],
    [1, '#f6b566'],
  ],
  night: [
    [0, '#061a30'],
    [0.7, '#0e3355'],
    [1, '#1a4a6e'],
  ],
};

const WATER: Record<Time, Stop[]> = {
  dawn: [
    [0, '#7fb7c2'],
    [1, '#2f6f8a'],
  ],
  day: [
    [0, '#5fb5b4'],
    [1, '#1d6b82'],
  ],
  dusk: [
    [0, '#c9826b'],
    [0.35, '#4f4f78'],
    [1, '#15304f'],
  ],
  night: [
    [0, '#123a5c'],
    [1, '#05172a'],
  ],
};

function sky(doc: Doc, w: number, h: number, time: Time): string {
  return s`<rect width="${w}" height="${h}" fill="${doc.linear(SKY[time])}"/>`;
}

function sun(doc: Doc, x: number, y: number, r: number, time: Time): string {
  if (time === 'night') {
    const glow = doc.radial([
      [0, '#fff6d8', 0.5],
      [1, '#fff6d8', 0],
    ]);
    return s`<circle cx="${x}" cy="${y}" r="${r * 3}" fill="${glow}"/><circle cx="${x}" cy="${y}" r="${r * 0.8}" fill="#fff3cf"/><circle cx="${x + r * 0.35}" cy="${y - r * 0.2}" r="${r * 0.72}" fill="#0c2a48"/>`;
  }
  const core = time === 'dusk' ? '#ffd58a' : '#fff1c9';
  const glow = doc.radial([
    [0, core, 0.85],
    [0.35, core, 0.35],
    [1, core, 0],
  ]);
  return s`<circle cx="${x}" cy="${y}" r="${r * 4}" fill="${glow}"/><circle cx="${x}" cy="${y}" r="${r}" fill="${core}"/>`;
}

function clouds(rng: Rng, w: number, yMax: number, count: number, color: string, opacity: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) {
    const x = rng.range(0, w);
    const y = rng.range(yMax * 0.15, yMax);
    const len = rng.range(120, 280);
    const hh = len * 0.12;
    out += s`<path d="M${x} ${y}h${len}a${hh} ${hh} 0 0 0-${hh * 2}-${hh}a${hh * 1.6} ${hh * 1.6} 0 0 0-${len * 0.45}-${hh * 0.6}a${hh * 1.2} ${hh * 1.2} 0 0 0-${len * 0.35} ${hh * 1.6}z"/>`;
  }
  return `<g fill="${color}" opacity="${opacity}">${out}</g>`;
}

function stars(rng: Rng, w: number, yMax: number, count: number): string {
  let d = '';
  for (let i = 0; i < count; i += 1) {
    const x = rng.range(0, w);
    const y = rng.range(0, yMax);
    const r = rng.range(0.6, 1.6);
    d += s`M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0-${2 * r} 0`;
  }
  return `<path d="${d}" fill="#fff" opacity=".7"/>`;
}

/** Smooth ridge line of hills between x=0 and x=w, filled down to baseY. */
function hills(rng: Rng, w: number, baseY: number, amp: number, step: number, fill: string, opacity = 1): string {
  const pts: Array<[number, number]> = [];
  for (let x = -step; x <= w + step; x += step) pts.push([x, baseY - amp * rng.range(0.35, 1)]);
  let d = s`M${pts[0]![0]} ${baseY}L${pts[0]![0]} ${pts[0]![1]}`;
  for (let i = 0; i < pts.length - 1; i += 1) {
    const [x0, y0] = pts[i]!;
    const [x1, y1] = pts[i + 1]!;
    d += s`Q${x0 + step / 2} ${Math.min(y0, y1) - amp * 0.15} ${(x0 + x1) / 2 + step / 2} ${y1}`;
  }
  d += s`L${w + step} ${baseY}Z`;
  return s`<path d="${d}" fill="${fill}" opacity="${opacity}"/>`;
}

function pagoda(x: number, baseY: number, h: number, fill: string): string {
  const tiers = 7;
  const tierH = (h * 0.82) / tiers;
  let d = '';
  for (let i = 0; i < tiers; i += 1) {
    const wBody = h * (0.2 - i * 0.018);
    const wRoof = wBody * 1.55;
    const yb = baseY - i * tierH;
    d += s`M${x - wBody / 2} ${yb}V${yb - tierH * 0.62}H${x + wBody / 2}V${yb}Z`;
    const yr = yb - tierH * 0.62;
    d += s`M${x - wRoof / 2} ${yr - tierH * 0.12}Q${x - wBody * 0.35} ${yr - tierH * 0.2} ${x - wBody * 0.3} ${yr - tierH * 0.42}H${x + wBody * 0.3}Q${x + wBody * 0.35} ${yr - tierH * 0.2} ${x + wRoof / 2} ${yr - tierH * 0.12}L${x + wBody * 0.5} ${yr}H${x - wBody * 0.5}Z`;
  }
  const top = baseY - tiers * tierH;
  d += s`M${x - 1.5} ${top}V${top - h * 0.18}h3V${top}Z`;
  return `<path d="${d}" fill="${fill}"/>`;
}

interface HouseOpts {
  night?: boolean;
  dusk?: boolean;
  lanterns?: boolean;
  tone?: 'near' | 'far';
}

/** A row of Jiangnan houses (white walls, dark tiles, stepped horse-head gables) standing on baseY. */
function houses(
  doc: Doc,
  rng: Rng,
  x0: number,
  x1: number,
  baseY: number,
  scale: number,
  opts: HouseOpts = {},
): string {
  const far = opts.tone === 'far';
  const wall = opts.night
    ? far
      ? '#1d3550'
      : '#2b4663'
    : opts.dusk
      ? far
        ? '#c9b8ad'
        : '#eadccd'
      : far
        ? '#dfe3e2'
        : C.wall;
  const shade = opts.night ? '#223b57' : opts.dusk ? '#cdb4a2' : far ? '#c7cfd2' : '#e2dccf';
  const roof = opts.night ? '#0c1e31' : far ? '#6b7a86' : C.roof;
  const win = opts.night ? '#ffcf6b' : far ? '#8d9aa3' : '#6b4a33';
  const glow = opts.night
    ? doc.radial([
        [0, '#ffcf6b', 0.55],
        [1, '#ffcf6b', 0],
      ])
    : '';
  let walls = '';
  let shades = '';
  let roofs = '';
  let wins = '';
  let glows = '';
  let lanterns = '';
  let x = x0;
  while (x < x1) {
    const w = rng.range(80, 160) * scale;
    const wallH = rng.range(55, 105) * scale;
    const top = baseY - wallH;
    const stepped = rng.chance(0.45);
    if (stepped) {
      const t1 = top - 12 * scale;
      const t2 = top - 26 * scale;
      walls += s`M${x} ${baseY}V${t1}H${x + w * 0.24}V${t2}H${x + w * 0.76}V${t1}H${x + w}V${baseY}Z`;
      const cap = (cx0: number, cx1: number, cy: number): string =>
        s`M${cx0 - 5 * scale} ${cy - 4 * scale}L${cx0 - 7 * scale} ${cy - 8 * scale}Q${(cx0 + cx1) / 2} ${cy - 10 * scale} ${cx1 + 7 * scale} ${cy - 8 * scale}L${cx1 + 5 * scale} ${cy - 4 * scale}L${cx1} ${cy + 2 * scale}H${cx0}Z`;
      roofs += cap(x, x + w * 0.24, t1) + cap(x + w * 0.24, x + w * 0.76, t2) + cap(x + w * 0.76, x + w, t1);
    } else {
      walls += s`M${x} ${baseY}V${top}H${x + w}V${baseY}Z`;
      const rh = rng.range(18, 30) * scale;
      const ov = 10 * scale;
      roofs += s`M${x - ov} ${top + 3 * scale}Q${x + w * 0.08} ${top - 1} ${x + w * 0.16} ${top - rh}H${x + w * 0.84}Q${x + w * 0.92} ${top - 1} ${x + w + ov} ${top + 3 * scale}Z`;
    }
    shades += s`M${x} ${baseY}V${baseY - 9 * scale}H${x + w}V${baseY}Z`;
    shades += s`M${x + w - 4 * scale} ${baseY}V${top + 4 * scale}H${x + w}V${baseY}Z`;
    const rows = wallH > 80 * scale ? 2 : 1;
    const cols = w > 120 * scale ? 3 : 2;
    for (let r = 0; r < rows; r += 1) {
      for (let c = 0; c < cols; c += 1) {
        if (rng.chance(0.25)) continue;
        const ww = 16 * scale;
        const wh = 20 * scale;
        const wx = x + ((c + 0.5) * w) / cols - ww / 2;
        const wy = top + 16 * scale + r * 36 * scale;
        if (wy + wh > baseY - 14 * scale) continue;
        wins += s`M${wx} ${wy}h${ww}v${wh}h-${ww}z`;
        if (opts.night && rng.chance(0.7))
          glows += s`<circle cx="${wx + ww / 2}" cy="${wy + wh / 2}" r="${ww * 1.6}" fill="${glow}"/>`;
      }
    }
    if (opts.lanterns && rng.chance(0.6) && !far) {
      const lx = x + w * rng.range(0.2, 0.8);
      lanterns += lantern(doc, lx, top + 14 * scale, 6 * scale, Boolean(opts.night), false);
    }
    x += w + rng.range(0, 8) * scale;
  }
  return `<path d="${walls}" fill="${wall}"/><path d="${shades}" fill="${shade}"/>${glows}<path d="${wins}" fill="${win}"/><path d="${roofs}" fill="${roof}"/>${lanterns}`;
}

/** Red lantern with gold caps, centred on (x, y); r is the body radius. */
function lantern(doc: Doc, x: number, y: number, r: number, glow: boolean, string = true): string {
  const body = doc.radial(
    [
      [0, '#ff7a52'],
      [0.7, C.red],
      [1, C.red2],
    ],
    0.4,
    0.4,
    0.65,
  );
  let out = '';
  if (glow)
    out += s`<circle cx="${x}" cy="${y}" r="${r * 3.2}" fill="${doc.radial([
      [0, C.gold, 0.5],
      [1, C.gold, 0],
    ])}"/>`;
  if (string)
    out += s`<path d="M${x} ${y - r * 1.6}v${r * 0.5}" stroke="${C.ink}" stroke-width="${Math.max(0.8, r * 0.08)}"/>`;
  out += s`<rect x="${x - r * 0.5}" y="${y - r * 1.28}" width="${r}" height="${r * 0.3}" rx="${r * 0.08}" fill="${C.gold}"/>`;
  out += s`<ellipse cx="${x}" cy="${y}" rx="${r}" ry="${r * 1.08}" fill="${body}"/>`;
  out += s`<ellipse cx="${x}" cy="${y}" rx="${r * 0.45}" ry="${r * 1.05}" fill="none" stroke="${C.red2}" stroke-width="${Math.max(0.6, r * 0.07)}" opacity=".6"/>`;
  out += s`<rect x="${x - r * 0.45}" y="${y + r * 0.98}" width="${r * 0.9}" height="${r * 0.26}" rx="${r * 0.08}" fill="${C.gold}"/>`;
  out += s`<path d="M${x} ${y + r * 1.24}v${r * 0.7}" stroke="${C.gold}" stroke-width="${Math.max(0.8, r * 0.14)}" stroke-linecap="round"/>`;
  return out;
}

/** A string of lanterns hanging on a sagging cord from (x0, y) to (x1, y). */
function lanternString(
  doc: Doc,
  x0: number,
  x1: number,
  y: number,
  sag: number,
  count: number,
  r: number,
  glow: boolean,
): string {
  const cx = (x0 + x1) / 2;
  const cy = y + sag * 2;
  let out = s`<path d="M${x0} ${y}Q${cx} ${cy} ${x1} ${y}" fill="none" stroke="#2b2b2b" stroke-width="${Math.max(1, r * 0.1)}" opacity=".7"/>`;
  for (let i = 1; i <= count; i += 1) {
    const t = i / (count + 1);
    const px = (1 - t) * (1 - t) * x0 + 2 * (1 - t) * t * cx + t * t * x1;
    const py = (1 - t) * (1 - t) * y + 2 * (1 - t) * t * cy + t * t * y;
    out += lantern(doc, px, py + r * 1.9, r, glow);
  }
  return out;
}

/** Single-arch stone bridge over water at baseY; the arch and its reflection form a full circle. */
function archBridge(cx: number, baseY: number, span: number, rise: number, fill: string, line: string): string {
  const r = rise * 0.62;
  const L = span / 2;
  const top = baseY - rise;
  const body =
    s`M${cx - L} ${baseY}C${cx - L * 0.55} ${baseY - rise * 0.35} ${cx - L * 0.45} ${top} ${cx} ${top}` +
    s`C${cx + L * 0.45} ${top} ${cx + L * 0.55} ${baseY - rise * 0.35} ${cx + L} ${baseY}Z` +
    s`M${cx - r} ${baseY}A${r} ${r} 0 0 1 ${cx + r} ${baseY}Z`;
  const ring = r + rise * 0.07;
  let out = `<path d="${body}" fill="${fill}" fill-rule="evenodd"/>`;
  out += s`<path d="M${cx - ring} ${baseY}A${ring} ${ring} 0 0 1 ${cx + ring} ${baseY}" fill="none" stroke="${line}" stroke-width="${rise * 0.11}" stroke-dasharray="${rise * 0.06} ${rise * 0.035}" opacity=".75"/>`;
  // parapet
  const py = rise * 0.07;
  out += s`<path d="M${cx - L * 0.92} ${baseY - rise * 0.06 - py}C${cx - L * 0.52} ${baseY - rise * 0.42 - py} ${cx - L * 0.45} ${top - py} ${cx} ${top - py}C${cx + L * 0.45} ${top - py} ${cx + L * 0.52} ${baseY - rise * 0.42 - py} ${cx + L * 0.92} ${baseY - rise * 0.06 - py}" fill="none" stroke="${line}" stroke-width="${rise * 0.045}" stroke-linecap="round"/>`;
  return out;
}

/** Height of the bridge deck above baseY at x (evaluates the same Bézier curves as archBridge). */
function deckY(cx: number, baseY: number, span: number, rise: number, x: number): number {
  const L = span / 2;
  const u = Math.min(1, Math.abs(x - cx) / L);
  // right half: P0 (0, rise) P1 (0.45L, rise) P2 (0.55L, 0.35 rise) P3 (L, 0); find t with x(t) = u·L
  let lo = 0;
  let hi = 1;
  const bx = (t: number): number => 3 * (1 - t) * (1 - t) * t * 0.45 + 3 * (1 - t) * t * t * 0.55 + t * t * t;
  for (let i = 0; i < 30; i += 1) {
    const mid = (lo + hi) / 2;
    if (bx(mid) < u) lo = mid;
    else hi = mid;
  }
  const t = lo;
  const y = (1 - t) ** 3 * rise + 3 * (1 - t) * (1 - t) * t * rise + 3 * (1 - t) * t * t * 0.35 * rise;
  return baseY - y;
}

function waterRect(doc: Doc, w: number, y: number, h: number, time: Time): string {
  return s`<rect y="${y}" width="${w}" height="${h}" fill="${doc.linear(WATER[time])}"/>`;
}

/** Short horizontal highlights on the water, denser and longer towards the viewer. */
function ripples(rng: Rng, w: number, y: number, h: number, count: number): string {
  let d1 = '';
  let d2 = '';
  for (let i = 0; i < count; i += 1) {
    const depth = Math.pow(rng.next(), 1.3);
    const ry = y + 3 + depth * (h - 3);
    const len = rng.range(20, 90) * (0.5 + depth);
    const rx = rng.range(-20, w);
    if (rng.chance(0.5)) d1 += s`M${rx} ${ry}h${len}`;
    else d2 += s`M${rx} ${ry}h${len}`;
  }
  return (
    s`<path d="${d1}" stroke="#fff" stroke-width="1.6" opacity=".28" stroke-linecap="round"/>` +
    s`<path d="${d2}" stroke="#fff" stroke-width="2.4" opacity=".14" stroke-linecap="round"/>`
  );
}

/** Wupeng (black-awning) boat centred on x, floating on y. */
function boat(x: number, y: number, len: number, night: boolean): string {
  const hull = night ? '#1a1410' : '#4a3426';
  const awning = night ? '#0d0f12' : '#23262b';
  const hh = len * 0.12;
  let out = s`<path d="M${x - len / 2} ${y - hh * 1.4}Q${x - len * 0.3} ${y + hh * 0.4} ${x} ${y + hh * 0.3}Q${x + len * 0.3} ${y + hh * 0.4} ${x + len / 2} ${y - hh * 1.3}Q${x} ${y - hh * 0.5} ${x - len / 2} ${y - hh * 1.4}Z" fill="${hull}"/>`;
  out += s`<path d="M${x - len * 0.22} ${y - hh * 0.75}Q${x - len * 0.2} ${y - hh * 3} ${x} ${y - hh * 3}Q${x + len * 0.2} ${y - hh * 3} ${x + len * 0.22} ${y - hh * 0.75}Z" fill="${awning}"/>`;
  out += s`<path d="M${x - len * 0.12} ${y - hh * 0.8}Q${x - len * 0.12} ${y - hh * 2.2} ${x} ${y - hh * 2.3}" fill="none" stroke="#6d5a44" stroke-width="${len * 0.012}" opacity=".8"/>`;
  // boatman with a pole
  const bx = x + len * 0.34;
  const by = y - hh * 1.1;
  out += s`<path d="M${bx} ${by}v-${len * 0.16}" stroke="${awning}" stroke-width="${len * 0.035}" stroke-linecap="round"/>`;
  out += s`<circle cx="${bx}" cy="${by - len * 0.2}" r="${len * 0.025}" fill="${awning}"/>`;
  out += s`<path d="M${bx - len * 0.08} ${by - len * 0.26}L${bx + len * 0.08} ${by - len * 0.26}L${bx} ${by - len * 0.3}Z" fill="${night ? '#3b3222' : '#b89b62'}"/>`;
  out += s`<path d="M${bx - len * 0.2} ${by - len * 0.3}L${bx + len * 0.2} ${y + hh * 1.5}" stroke="#5b4632" stroke-width="${len * 0.012}"/>`;
  return out;
}

function willow(rng: Rng, x: number, baseY: number, h: number, color: string, trunk: string): string {
  const cy = baseY - h;
  let out = s`<path d="M${x - h * 0.035} ${baseY}Q${x - h * 0.02} ${baseY - h * 0.5} ${x + h * 0.06} ${cy}L${x + h * 0.09} ${cy + h * 0.02}Q${x + h * 0.05} ${baseY - h * 0.5} ${x + h * 0.045} ${baseY}Z" fill="${trunk}"/>`;
  let d = '';
  for (let i = 0; i < 22; i += 1) {
    const sx = x + h * rng.range(-0.25, 0.35);
    const sy = cy + h * rng.range(-0.08, 0.12);
    const len = h * rng.range(0.35, 0.8);
    const dx = h * rng.range(-0.12, 0.12);
    d += s`M${sx} ${sy}q${dx} ${len * 0.2} ${dx * 0.6} ${len}`;
  }
  out += s`<path d="${d}" fill="none" stroke="${color}" stroke-width="${Math.max(1.2, h * 0.012)}" stroke-linecap="round" opacity=".85"/>`;
  let crown = '';
  for (let i = 0; i < 7; i += 1) {
    const rx = h * rng.range(0.12, 0.22);
    crown += s`<ellipse cx="${x + h * rng.range(-0.22, 0.3)}" cy="${cy + h * rng.range(-0.08, 0.06)}" rx="${rx}" ry="${rx * 0.55}"/>`;
  }
  out += `<g fill="${color}" opacity=".9">${crown}</g>`;
  return out;
}

// Runner pictograms --------------------------------------------------------------------------------

type Pt = [number, number];
interface Pose {
  head: Pt;
  neck: Pt;
  hip: Pt;
  backArm: Pt[];
  backLeg: Pt[];
  frontLeg: Pt[];
  frontArm: Pt[];
}

const POSES: Record<'a' | 'b' | 'cheer', Pose> = {
  a: {
    head: [0.14, -0.905],
    neck: [0.1, -0.79],
    hip: [0.02, -0.48],
    backArm: [
      [0.08, -0.75],
      [-0.05, -0.64],
      [-0.01, -0.53],
    ],
    backLeg: [
      [0.02, -0.48],
      [-0.07, -0.27],
      [-0.17, -0.06],
      [-0.11, -0.02],
    ],
    frontLeg: [
      [0.02, -0.48],
      [0.2, -0.37],
      [0.13, -0.14],
      [0.19, -0.12],
    ],
    frontArm: [
      [0.08, -0.75],
      [0.15, -0.62],
      [0.26, -0.7],
    ],
  },
  b: {
    head: [0.14, -0.935],
    neck: [0.1, -0.82],
    hip: [0.02, -0.51],
    backArm: [
      [0.08, -0.78],
      [-0.07, -0.68],
      [-0.06, -0.56],
    ],
    backLeg: [
      [0.02, -0.51],
      [-0.04, -0.3],
      [-0.21, -0.37],
      [-0.24, -0.32],
    ],
    frontLeg: [
      [0.02, -0.51],
      [0.17, -0.36],
      [0.25, -0.14],
      [0.31, -0.14],
    ],
    frontArm: [
      [0.08, -0.78],
      [0.13, -0.64],
      [0.24, -0.74],
    ],
  },
  cheer: {
    head: [0.06, -0.91],
    neck: [0.05, -0.8],
    hip: [0.02, -0.48],
    backArm: [
      [0.05, -0.76],
      [-0.09, -0.9],
      [-0.13, -1.04],
    ],
    backLeg: [
      [0.02, -0.48],
      [-0.06, -0.27],
      [-0.15, -0.06],
      [-0.09, -0.02],
    ],
    frontLeg: [
      [0.02, -0.48],
      [0.17, -0.36],
      [0.12, -0.13],
      [0.18, -0.11],
    ],
    frontArm: [
      [0.05, -0.76],
      [0.19, -0.9],
      [0.24, -1.04],
    ],
  },
};

const SHIRTS = [C.red, C.jade, C.gold, C.blue3, '#ffffff', '#e8713c', '#7a5ab8', C.jade2];

/**
 * A running figure standing on (x, baseY), h tall; skin = limbs & head, shirt = torso. Each pose is defined
 * once per document at 100 units tall and placed with <use>; the shirt colour comes in through `color`.
 */
function runner(
  doc: Doc,
  x: number,
  baseY: number,
  h: number,
  shirt: string,
  pose: keyof typeof POSES,
  skin = C.ink,
  flip = false,
  bib = true,
): string {
  const id = doc.shared(`runner:${pose}:${skin}:${bib}`, (sid) => {
    const p = POSES[pose];
    const u = 100;
    const pt = ([px, py]: Pt): string => `${fmt(px * u)} ${fmt(py * u)}`;
    const line = (pts: Pt[]): string => 'M' + pts.map(pt).join('L');
    let g = `<g id="${sid}" stroke-linecap="round" stroke-linejoin="round" fill="none">`;
    g += `<path d="${line(p.backArm)}${line(p.backLeg)}" stroke="${skin}" stroke-width="6.2" opacity=".72"/>`;
    g += `<path d="${line([p.neck, p.hip])}" stroke="currentColor" stroke-width="13.5"/>`;
    g += `<path d="${line([p.hip, [p.hip[0] + 0.005, p.hip[1] + 0.03]])}" stroke="${C.ink}" stroke-width="13"/>`;
    g += `<path d="${line(p.frontLeg)}${line(p.frontArm)}" stroke="${skin}" stroke-width="6.2"/>`;
    g += `<circle cx="${fmt(p.head[0] * u)}" cy="${fmt(p.head[1] * u)}" r="7.2" fill="${skin}" stroke="none"/>`;
    if (bib) {
      const mx = (p.neck[0] * 0.45 + p.hip[0] * 0.55) * u;
      const my = (p.neck[1] * 0.45 + p.hip[1] * 0.55) * u;
      const ang = (Math.atan2(p.neck[0] - p.hip[0], -(p.neck[1] - p.hip[1])) * 180) / Math.PI;
      g += `<rect x="${fmt(mx - 4.5)}" y="${fmt(my - 4)}" width="9" height="7.5" fill="#fff" stroke="none" transform="rotate(${fmt(ang)} ${fmt(mx)} ${fmt(my)})"/>`;
    }
    return g + '</g>';
  });
  const k = Math.round((h / 100) * 1000) / 1000;
  return `<use href="#${id}" transform="translate(${fmt(x)} ${fmt(baseY)}) scale(${flip ? -k : k} ${k})" color="${shirt}"/>`;
}

/** Standing spectator; `wave` raises one arm with a small flag. */
function spectator(x: number, baseY: number, h: number, body: string, skin: string, wave: boolean): string {
  const bw = h * 0.3;
  let out = s`<path d="M${x - bw / 2} ${baseY}V${baseY - h * 0.62}q0-${h * 0.1} ${bw * 0.3}-${h * 0.1}h${bw * 0.4}q${bw * 0.3} 0 ${bw * 0.3} ${h * 0.1}V${baseY}Z" fill="${body}"/>`;
  out += s`<circle cx="${x}" cy="${baseY - h * 0.82}" r="${h * 0.1}" fill="${skin}"/>`;
  if (wave) {
    out += s`<path d="M${x + bw * 0.4} ${baseY - h * 0.64}L${x + bw * 0.75} ${baseY - h * 1.02}" stroke="${body}" stroke-width="${h * 0.08}" stroke-linecap="round"/>`;
    out += s`<path d="M${x + bw * 0.75} ${baseY - h * 1.02}v-${h * 0.28}" stroke="#555" stroke-width="${Math.max(1, h * 0.02)}"/>`;
    out += s`<path d="M${x + bw * 0.75} ${baseY - h * 1.3}h${h * 0.24}l-${h * 0.05} ${h * 0.08} ${h * 0.05} ${h * 0.08}h-${h * 0.24}z" fill="${C.red}"/>`;
  }
  return out;
}

function confetti(rng: Rng, x0: number, y0: number, w: number, h: number, count: number): string {
  let out = '';
  const colors = [C.gold, C.red, C.jade2, '#ffffff', C.gold2];
  for (let i = 0; i < count; i += 1) {
    const x = x0 + rng.range(0, w);
    const y = y0 + rng.range(0, h);
    const a = rng.range(0, 180);
    const cw = rng.range(5, 11);
    out += s`<rect x="${x}" y="${y}" width="${cw}" height="${cw * 0.45}" fill="${rng.pick(colors)}" transform="rotate(${a} ${x} ${y})"/>`;
  }
  return out;
}

/** Inflatable arch (start or finish) over a road; pillars stand on baseY. */
function gantry(
  doc: Doc,
  cx: number,
  baseY: number,
  w: number,
  h: number,
  label: string,
  labelEn: string,
  clock: string,
): string {
  const pw = w * 0.075;
  const fill = doc.linear(
    [
      [0, '#ef6a4c'],
      [1, C.red2],
    ],
    0,
    0,
    1,
    0,
  );
  let out = s`<path d="M${cx - w / 2} ${baseY}V${baseY - h + pw}a${pw} ${pw} 0 0 1 ${pw}-${pw}H${cx + w / 2 - pw}a${pw} ${pw} 0 0 1 ${pw} ${pw}V${baseY}h-${pw}V${baseY - h + pw * 1.9}H${cx - w / 2 + pw}V${baseY}Z" fill="${fill}"/>`;
  out += s`<path d="M${cx - w / 2 + pw * 0.5} ${baseY}V${baseY - h + pw * 1.2}M${cx + w / 2 - pw * 0.5} ${baseY}V${baseY - h + pw * 1.2}" stroke="#fff" stroke-width="${pw * 0.12}" opacity=".35"/>`;
  out += text(cx, baseY - h + pw * 1.28, `${label}  ${labelEn}`, pw * 0.82, '#fff', {
    weight: 700,
    anchor: 'middle',
    spacing: pw * 0.1,
  });
  const cw = w * 0.2;
  out += s`<rect x="${cx - cw / 2}" y="${baseY - h + pw * 2.2}" width="${cw}" height="${pw * 0.9}" rx="${pw * 0.12}" fill="#101820"/>`;
  out += text(cx, baseY - h + pw * 2.88, clock, pw * 0.6, C.gold, {
    anchor: 'middle',
    weight: 700,
    spacing: pw * 0.06,
  });
  return out;
}

function medal(doc: Doc, cx: number, cy: number, r: number, year: string): string {
  let out = '';
  out += s`<path d="M${cx - r * 0.9} ${cy - r * 3.2}L${cx - r * 0.05} ${cy - r * 0.6}L${cx + r * 0.35} ${cy - r * 0.85}L${cx - r * 0.3} ${cy - r * 3.2}Z" fill="${C.blue2}"/>`;
  out += s`<path d="M${cx + r * 0.9} ${cy - r * 3.2}L${cx + r * 0.05} ${cy - r * 0.6}L${cx - r * 0.35} ${cy - r * 0.85}L${cx + r * 0.3} ${cy - r * 3.2}Z" fill="${C.red}"/>`;
  out += s`<path d="M${cx + r * 0.6} ${cy - r * 3.2}L${cx + r * 0.2} ${cy - r * 2.1}" stroke="${C.gold}" stroke-width="${r * 0.06}"/>`;
  out += s`<circle cx="${cx}" cy="${cy + r * 0.05}" r="${r * 1.02}" fill="#000" opacity=".25"/>`;
  out += s`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${doc.linear(
    [
      [0, '#fff0b8'],
      [0.45, C.gold],
      [1, '#b07a12'],
    ],
    0,
    0,
    1,
    1,
  )}"/>`;
  out += s`<circle cx="${cx}" cy="${cy}" r="${r * 0.82}" fill="none" stroke="#a8700f" stroke-width="${r * 0.03}"/>`;
  out += s`<circle cx="${cx}" cy="${cy}" r="${r * 0.78}" fill="${doc.linear(
    [
      [0, '#ffe59a'],
      [1, '#d99a1e'],
    ],
    0,
    0,
    1,
    1,
  )}"/>`;
  out += archBridge(cx, cy + r * 0.28, r * 1.2, r * 0.42, '#c4871a', '#8c5c0c');
  out += s`<path d="M${cx - r * 0.55} ${cy + r * 0.36}q${r * 0.14}-${r * 0.06} ${r * 0.28} 0t${r * 0.28} 0 ${r * 0.28} 0 ${r * 0.28} 0" fill="none" stroke="#8c5c0c" stroke-width="${r * 0.035}"/>`;
  out += text(cx, cy - r * 0.32, year, r * 0.3, '#7a4d06', { weight: 700, anchor: 'middle', spacing: r * 0.03 });
  out += text(cx, cy + r * 0.62, 'FINISHER', r * 0.13, '#7a4d06', { weight: 700, anchor: 'middle', spacing: r * 0.04 });
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Composite scenes (each draws the full w×h area)
// ---------------------------------------------------------------------------------------------------

interface CanalOpts {
  time: Time;
  waterY: number;
  bridge?: { cx: number; span: number; rise: number; runners?: number };
  lanterns?: boolean;
  boats?: number;
  willow?: 'left' | 'right' | 'both';
  pagoda?: number;
  sunX?: number;
  leftBank?: [number, number];
  rightBank?: [number, number];
}

function canalScene(doc: Doc, rng: Rng, w: number, h: number, o: CanalOpts): string {
  const night = o.time === 'night';
  const dusk = o.time === 'dusk';
  let out = sky(doc, w, h, o.time);
  if (night) out += stars(rng, w, o.waterY * 0.6, 60);
  out += sun(doc, o.sunX ?? w * 0.72, o.waterY * 0.38, Math.min(w, h) * 0.045, o.time);
  if (!night) out += clouds(rng, w, o.waterY * 0.5, 4, '#fff', o.time === 'day' ? 0.55 : 0.3);
  const hillFar = night ? '#12304d' : dusk ? '#6b5a7e' : '#9fbcc9';
  const hillNear = night ? '#0d2741' : dusk ? '#4e4a6e' : '#7fa6b5';
  out += hills(rng, w, o.waterY, h * 0.2, w / 5, hillFar, 0.8);
  if (o.pagoda !== undefined) out += pagoda(o.pagoda, o.waterY - h * 0.08, h * 0.26, hillNear);
  out += hills(rng, w, o.waterY, h * 0.1, w / 7, hillNear, 0.9);
  // banks + bridge, reflected in the water
  const bankId = doc.id('bank');
  let bank = '';
  const hopts: HouseOpts = { night, dusk, lanterns: o.lanterns };
  bank += houses(doc, rng, -20, w + 20, o.waterY - h * 0.025, h / 700, { ...hopts, tone: 'far', lanterns: false });
  const lb = o.leftBank ?? [-20, w * 0.34];
  const rb = o.rightBank ?? [w * 0.66, w + 20];
  bank += houses(doc, rng, lb[0], lb[1], o.waterY, h / 480, hopts);
  bank += houses(doc, rng, rb[0], rb[1], o.waterY, h / 480, hopts);
  if (o.bridge) {
    const b = o.bridge;
    bank += archBridge(
      b.cx,
      o.waterY,
      b.span,
      b.rise,
      night ? '#22344a' : dusk ? '#8c7f8e' : '#b9c4c9',
      night ? '#3f5878' : dusk ? '#5c5068' : '#7b8c97',
    );
  }
  out += `<g id="${bankId}">${bank}</g>`;
  const clip = doc.def(
    (id) => s`<clipPath id="${id}"><rect y="${o.waterY}" width="${w}" height="${h - o.waterY}"/></clipPath>`,
    'c',
  );
  out += waterRect(doc, w, o.waterY, h - o.waterY, o.time);
  out += s`<g clip-path="url(#${clip})"><use href="#${bankId}" transform="matrix(1 0 0 -1 0 ${o.waterY * 2})" opacity="${night ? 0.45 : 0.32}"/></g>`;
  out += ripples(rng, w, o.waterY, h - o.waterY, Math.round(w / 12));
  if (o.bridge?.runners) {
    const b = { ...o.bridge, runners: o.bridge.runners };
    const rh = b.rise * 0.34;
    for (let i = 0; i < b.runners; i += 1) {
      const t = (i + 0.5) / b.runners;
      const bx = b.cx - b.span * 0.38 + t * b.span * 0.76;
      const by = deckY(b.cx, o.waterY, b.span, b.rise, bx) - b.rise * 0.02;
      out += runner(
        doc,
        bx,
        by,
        rh * rng.range(0.9, 1.05),
        rng.pick(SHIRTS),
        rng.pick(['a', 'b'] as const),
        night ? '#0a1626' : C.ink,
        false,
        false,
      );
    }
  }
  for (let i = 0; i < (o.boats ?? 0); i += 1) {
    out += boat(rng.range(w * 0.15, w * 0.85), o.waterY + (h - o.waterY) * rng.range(0.3, 0.7), h * 0.16, night);
  }
  if (o.willow === 'left' || o.willow === 'both')
    out += willow(
      rng,
      w * 0.04,
      h * 1.02,
      h * 0.75,
      night ? '#0f3a3a' : dusk ? '#3d5c4a' : '#4f9a66',
      night ? '#081420' : '#3d3027',
    );
  if (o.willow === 'right' || o.willow === 'both')
    out += willow(
      rng,
      w * 0.95,
      h * 1.02,
      h * 0.7,
      night ? '#0f3a3a' : dusk ? '#3d5c4a' : '#4f9a66',
      night ? '#081420' : '#3d3027',
    );
  return out;
}

interface StreetOpts {
  time: Time;
  roadY: number;
  runners: number;
  spectators?: number;
  lanterns?: boolean;
  direction?: 1 | -1;
  minH?: number;
  maxH?: number;
  volunteers?: boolean;
  /** Barrier boards left of this x stay blank (keeps the headline area of a slide clean). */
  boardsFrom?: number;
}

/** Side view of a street in the old town: houses, cheering crowd behind a barrier, runners on the road. */
function streetScene(doc: Doc, rng: Rng, w: number, h: number, o: StreetOpts): string {
  const night = o.time === 'night';
  const dusk = o.time === 'dusk';
  let out = sky(doc, w, h, o.time);
  out += sun(doc, w * 0.8, o.roadY * 0.25, h * 0.05, o.time);
  out += houses(doc, rng, -20, w + 20, o.roadY - h * 0.1, h / 300, { night, dusk, lanterns: o.lanterns });
  if (o.lanterns) out += lanternString(doc, -10, w + 10, h * 0.08, h * 0.05, Math.round(w / 90), h * 0.022, night);
  // crowd
  const crowdY = o.roadY - h * 0.02;
  for (let i = 0; i < (o.spectators ?? 0); i += 1) {
    const x = (i + rng.range(0.1, 0.9)) * (w / (o.spectators ?? 1));
    const sh = h * rng.range(0.15, 0.2);
    out += spectator(
      x,
      crowdY,
      sh,
      rng.pick(['#2d4f7c', '#8b3a2f', '#3f6f5f', '#6a5f8c', '#c28a2b', '#444c56']),
      night ? '#1b1b1b' : '#5a4638',
      rng.chance(0.35),
    );
  }
  // barrier with sponsor boards
  const by = o.roadY - h * 0.05;
  out += s`<rect x="0" y="${by}" width="${w}" height="${h * 0.06}" fill="${C.blue}"/>`;
  const boards = Math.round(w / 260);
  for (let i = 0; i < boards; i += 1) {
    const bx = (i + 0.5) * (w / boards);
    if (bx < (o.boardsFrom ?? 0)) continue;
    out += text(bx, by + h * 0.042, i % 2 ? '青川运河马拉松' : 'QINGCHUAN MARATHON', h * 0.026, '#fff', {
      anchor: 'middle',
      weight: 700,
      spacing: 2,
    });
  }
  // road
  out += s`<rect y="${o.roadY + h * 0.01}" width="${w}" height="${h - o.roadY}" fill="${night ? '#2a3440' : dusk ? '#a08d86' : '#c9c2b6'}"/>`;
  let slabs = '';
  for (let y = o.roadY + h * 0.05; y < h; y += h * 0.06) slabs += s`M0 ${y}H${w}`;
  out += s`<path d="${slabs}" stroke="#000" stroke-width="1" opacity=".06"/>`;
  out += s`<path d="M0 ${o.roadY + h * 0.12}H${w}" stroke="${C.gold}" stroke-width="${h * 0.008}" stroke-dasharray="${h * 0.06} ${h * 0.04}" opacity=".7"/>`;
  // the aid station stands on the right; runners approach it from the left
  if (o.volunteers) out += aidTable(rng, w * 0.78, o.roadY + h * 0.1, h);
  // runners sorted back to front
  const rs: Array<{ x: number; y: number; hh: number }> = [];
  const minH = o.minH ?? 0.22;
  const maxH = o.maxH ?? 0.42;
  for (let i = 0; i < o.runners; i += 1) {
    const depth = rng.next();
    rs.push({
      x: rng.range(-0.02, o.volunteers ? 0.56 : 1.02) * w,
      y: o.roadY + h * 0.04 + depth * (h - o.roadY - h * 0.06),
      hh: h * (minH + (maxH - minH) * depth),
    });
  }
  rs.sort((a, b) => a.y - b.y);
  for (const r of rs)
    out += runner(
      doc,
      r.x,
      r.y,
      r.hh,
      rng.pick(SHIRTS),
      rng.pick(['a', 'b'] as const),
      night ? '#10161d' : C.ink,
      o.direction === -1,
    );
  return out;
}

function aidTable(rng: Rng, x: number, y: number, h: number): string {
  const tw = h * 0.6;
  let out = '';
  for (let i = 0; i < 3; i += 1)
    out += spectator(x - tw * 0.35 + i * tw * 0.35, y, h * 0.2, C.jade, '#5a4638', rng.chance(0.3));
  out += s`<rect x="${x - tw / 2}" y="${y - h * 0.055}" width="${tw}" height="${h * 0.07}" fill="${C.blue2}"/>`;
  out += text(x, y - h * 0.01, '补给站 WATER', h * 0.035, '#fff', { anchor: 'middle', weight: 700 });
  let cups = '';
  for (let i = 0; i < 14; i += 1) {
    const cx = x - tw * 0.46 + (i * tw * 0.92) / 13;
    cups += s`M${cx - h * 0.009} ${y - h * 0.055}l${h * 0.003}-${h * 0.025}h${h * 0.012}l${h * 0.003} ${h * 0.025}z`;
  }
  out += `<path d="${cups}" fill="#fff"/>`;
  return out;
}

/** Text block for carousel slides and posters: a tag, a big title, an English subline. */
function headline(x: number, y: number, tag: string, title: string, sub: string, size: number): string {
  let out = '';
  if (tag) {
    const tw = textWidth(tag, size * 0.32, 2) + size * 0.5;
    out += s`<rect x="${x}" y="${y - size * 1.55}" width="${tw}" height="${size * 0.52}" rx="${size * 0.26}" fill="${C.gold}"/>`;
    out += text(x + size * 0.25, y - size * 1.18, tag, size * 0.32, C.navy, { weight: 700, spacing: 2 });
  }
  out += `<g filter="url(#ts)">${text(x, y, title, size, '#fff', { weight: 700, spacing: size * 0.04 })}</g>`;
  out += s`<rect x="${x}" y="${y + size * 0.32}" width="${size * 0.9}" height="${size * 0.07}" fill="${C.gold}"/>`;
  out += text(x, y + size * 0.95, sub, size * 0.38, '#fff', { spacing: size * 0.04, opacity: 0.92 });
  return out;
}

function shadowFilter(doc: Doc): void {
  doc.def(
    () =>
      '<filter id="ts" x="-5%" y="-30%" width="110%" height="160%"><feDropShadow dx="0" dy="2" stdDeviation="3" flood-color="#000" flood-opacity=".35"/></filter>',
  );
}

// ---------------------------------------------------------------------------------------------------
// Brand pieces: logo mark, logos, copyright bars, QR codes, ads
// ---------------------------------------------------------------------------------------------------

/** The race mark: a canal-blue disc with a white arch bridge, waves, a runner and a gold sun. */
function logoMark(doc: Doc, x: number, y: number, size: number): string {
  const r = size / 2;
  const cx = x + r;
  const cy = y + r;
  const fill = doc.linear(
    [
      [0, C.blue2],
      [1, C.blue],
    ],
    0,
    0,
    1,
    1,
  );
  let out = s`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"/>`;
  out += s`<circle cx="${cx}" cy="${cy}" r="${r * 0.9}" fill="none" stroke="${C.jade2}" stroke-width="${size * 0.02}" opacity=".6"/>`;
  out += s`<circle cx="${cx + r * 0.4}" cy="${cy - r * 0.42}" r="${r * 0.19}" fill="${C.gold}"/>`;
  // bridge: deck curve + arch
  out += s`<path d="M${cx - r * 0.72} ${cy + r * 0.22}Q${cx} ${cy - r * 0.5} ${cx + r * 0.72} ${cy + r * 0.22}" fill="none" stroke="#fff" stroke-width="${size * 0.055}" stroke-linecap="round"/>`;
  out += s`<path d="M${cx - r * 0.3} ${cy + r * 0.22}A${r * 0.3} ${r * 0.3} 0 0 1 ${cx + r * 0.3} ${cy + r * 0.22}" fill="none" stroke="#fff" stroke-width="${size * 0.04}"/>`;
  out += s`<path d="M${cx - r * 0.62} ${cy + r * 0.46}q${r * 0.155}-${r * 0.1} ${r * 0.31} 0t${r * 0.31} 0 ${r * 0.31} 0 ${r * 0.31} 0" fill="none" stroke="${C.jade2}" stroke-width="${size * 0.04}" stroke-linecap="round"/>`;
  out += s`<path d="M${cx - r * 0.45} ${cy + r * 0.66}q${r * 0.15}-${r * 0.08} ${r * 0.3} 0t${r * 0.3} 0 ${r * 0.3} 0" fill="none" stroke="${C.jade2}" stroke-width="${size * 0.035}" stroke-linecap="round" opacity=".7"/>`;
  out += runner(doc, cx - r * 0.06, cy - r * 0.1, r * 0.74, C.red, 'b', '#fff', false, false);
  return out;
}

function makeLogo(): string {
  const doc = new Doc(360, 72);
  let out = logoMark(doc, 4, 6, 60);
  out += text(76, 38, '青川运河马拉松', 27, C.blue, { weight: 700, spacing: 2.5 });
  out += s`<rect x="77" y="47" width="5" height="5" fill="${C.red}" transform="rotate(45 79.5 49.5)"/>`;
  out += text(88, 55, 'QINGCHUAN GRAND CANAL MARATHON', 10.4, C.jade, { weight: 700, spacing: 1.2 });
  return doc.render(out);
}

function makeLogoH5(): string {
  const doc = new Doc(240, 64);
  let out = logoMark(doc, 2, 6, 52);
  out += text(64, 32, '青川运河马拉松', 22, C.blue, { weight: 700, spacing: 1 });
  out += text(65, 50, 'QINGCHUAN CANAL MARATHON', 9.2, C.jade, { weight: 700, spacing: 0.6 });
  return doc.render(out);
}

function makeCopyright(kind: 'zh' | 'en' | 'h5'): string {
  const w = kind === 'h5' ? 750 : 1200;
  const h = kind === 'h5' ? 120 : 90;
  const doc = new Doc(w, h);
  let out = s`<rect width="${w}" height="${h}" fill="${doc.linear(
    [
      [0, C.navy],
      [1, C.blue],
    ],
    0,
    0,
    1,
    0,
  )}"/>`;
  out += s`<path d="M0 ${h - 4}H${w}" stroke="${C.gold}" stroke-width="4"/>`;
  // faint wave motif
  let waves = '';
  for (let i = 0; i < 3; i += 1) waves += s`M${w * 0.72} ${h * (0.3 + i * 0.2)}q30-12 60 0t60 0 60 0 60 0 60 0 60 0`;
  out += s`<path d="${waves}" fill="none" stroke="#fff" stroke-width="2" opacity=".07"/>`;
  if (kind === 'h5') {
    out += logoMark(doc, 40, 26, 64);
    out += text(124, 54, '© 2027 青川运河马拉松组委会 版权所有', 24, '#fff', { weight: 700 });
    out += text(124, 88, '主办：青川市人民政府  承办：青川市体育局', 18, '#cfe0ee');
  } else if (kind === 'zh') {
    out += logoMark(doc, 300, 19, 50);
    out += text(366, 42, '© 2027 青川运河马拉松组委会 版权所有', 18, '#fff', { weight: 700, spacing: 1 });
    out += text(366, 66, '主办：青川市人民政府  承办：青川市体育局 · 青川运河马拉松组委会', 13, '#cfe0ee', {
      spacing: 0.5,
    });
  } else {
    out += logoMark(doc, 250, 19, 50);
    out += text(
      316,
      42,
      '© 2027 Qingchuan Grand Canal Marathon Organising Committee. All rights reserved.',
      16,
      '#fff',
      { weight: 700 },
    );
    out += text(
      316,
      66,
      "Hosted by Qingchuan Municipal People's Government · Organised by Qingchuan Sports Bureau",
      13,
      '#cfe0ee',
    );
  }
  return doc.render(out);
}

/** A QR-looking code (version 3 layout, 29 modules) from a seeded bit pattern; it does not scan. */
function makeQr(seed: number, accent: string, center: 'logo' | 'wechat' | 'weibo'): string {
  const N = 29;
  const m = 7;
  const q = 3;
  const size = (N + q * 2) * m;
  const doc = new Doc(size, size);
  const rng = new Rng(seed);
  const grid: boolean[][] = [];
  for (let y = 0; y < N; y += 1) {
    grid.push([]);
    for (let x = 0; x < N; x += 1) grid[y]!.push(rng.chance(0.5));
  }
  const reserved = (x: number, y: number): boolean =>
    (x < 8 && y < 8) ||
    (x >= N - 8 && y < 8) ||
    (x < 8 && y >= N - 8) ||
    (x >= N - 9 && x <= N - 5 && y >= N - 9 && y <= N - 5);
  for (let y = 0; y < N; y += 1) {
    for (let x = 0; x < N; x += 1) {
      if (reserved(x, y)) grid[y]![x] = false;
      else if (y === 6) grid[y]![x] = x % 2 === 0;
      else if (x === 6) grid[y]![x] = y % 2 === 0;
      const c = N / 2;
      if (Math.abs(x - c + 0.5) < 3.5 && Math.abs(y - c + 0.5) < 3.5) grid[y]![x] = false;
    }
  }
  let d = '';
  for (let y = 0; y < N; y += 1) {
    let x = 0;
    while (x < N) {
      if (!grid[y]![x]) {
        x += 1;
        continue;
      }
      let run = 1;
      while (x + run < N && grid[y]![x + run]) run += 1;
      d += `M${(x + q) * m} ${(y + q) * m}h${run * m}v${m}h-${run * m}z`;
      x += run;
    }
  }
  const finder = (fx: number, fy: number): string => {
    const X = (fx + q) * m;
    const Y = (fy + q) * m;
    return `<rect x="${X}" y="${Y}" width="${7 * m}" height="${7 * m}" rx="${m * 1.2}" fill="${C.ink}"/><rect x="${X + m}" y="${Y + m}" width="${5 * m}" height="${5 * m}" rx="${m * 0.7}" fill="#fff"/><rect x="${X + 2 * m}" y="${Y + 2 * m}" width="${3 * m}" height="${3 * m}" rx="${m * 0.5}" fill="${accent}"/>`;
  };
  let out = `<rect width="${size}" height="${size}" rx="12" fill="#fff"/>`;
  out += `<path d="${d}" fill="${C.ink}"/>`;
  out += finder(0, 0) + finder(N - 7, 0) + finder(0, N - 7);
  const A = (N - 9 + q) * m;
  out += `<rect x="${A}" y="${A}" width="${5 * m}" height="${5 * m}" fill="${C.ink}"/><rect x="${A + m}" y="${A + m}" width="${3 * m}" height="${3 * m}" fill="#fff"/><rect x="${A + 2 * m}" y="${A + 2 * m}" width="${m}" height="${m}" fill="${C.ink}"/>`;
  const c = size / 2;
  out += s`<rect x="${c - 26}" y="${c - 26}" width="52" height="52" rx="10" fill="#fff"/>`;
  if (center === 'logo') out += logoMark(doc, c - 22, c - 22, 44);
  else if (center === 'wechat') {
    out += s`<rect x="${c - 22}" y="${c - 22}" width="44" height="44" rx="9" fill="#07c160"/>`;
    out += s`<ellipse cx="${c - 4}" cy="${c - 3}" rx="12" ry="10" fill="#fff"/><ellipse cx="${c + 7}" cy="${c + 6}" rx="10" ry="8.5" fill="#fff" stroke="#07c160" stroke-width="2"/>`;
    out += s`<circle cx="${c - 8}" cy="${c - 5}" r="1.8" fill="#07c160"/><circle cx="${c}" cy="${c - 5}" r="1.8" fill="#07c160"/><circle cx="${c + 4}" cy="${c + 5}" r="1.5" fill="#07c160"/><circle cx="${c + 10}" cy="${c + 5}" r="1.5" fill="#07c160"/>`;
  } else {
    out += s`<rect x="${c - 22}" y="${c - 22}" width="44" height="44" rx="9" fill="${C.red}"/>`;
    out += s`<ellipse cx="${c - 2}" cy="${c + 4}" rx="14" ry="10" fill="#fff"/><ellipse cx="${c - 3}" cy="${c + 6}" rx="6" ry="4.5" fill="#222"/><circle cx="${c - 4}" cy="${c + 6}" r="1.6" fill="#fff"/>`;
    out += s`<path d="M${c + 8} ${c - 12}a10 10 0 0 1 9 9M${c + 7} ${c - 7}a5 5 0 0 1 5 5" fill="none" stroke="${C.gold}" stroke-width="2.4" stroke-linecap="round"/>`;
  }
  return doc.render(out);
}

function makeBannerAd(kind: 1 | 2): string {
  const doc = new Doc(240, 60);
  if (kind === 1) {
    let out = `<rect width="240" height="60" rx="6" fill="${doc.linear(
      [
        [0, C.red],
        [1, '#e8713c'],
      ],
      0,
      0,
      1,
      0,
    )}"/>`;
    out += lantern(doc, 26, 30, 11, false, false);
    out += text(50, 28, '报名进行中', 17, '#fff', { weight: 700 });
    out += text(50, 46, 'Entries open until Jan 24', 11, C.gold2, { spacing: 0.3 });
    out += `<path d="M220 22l8 8-8 8" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>`;
    return doc.render(out);
  }
  let out = `<rect width="240" height="60" rx="6" fill="${doc.linear(
    [
      [0, C.jade],
      [1, C.blue2],
    ],
    0,
    0,
    1,
    0,
  )}"/>`;
  out += `<rect x="12" y="10" width="26" height="40" rx="5" fill="#fff"/><rect x="15" y="15" width="20" height="28" rx="2" fill="${C.blue}"/><circle cx="25" cy="46.5" r="1.6" fill="${C.blue}"/>`;
  out += runner(doc, 24, 37, 18, C.gold, 'a', '#fff', false, false);
  out += text(50, 28, '官方APP 随时查成绩', 16, '#fff', { weight: 700 });
  out += text(50, 46, 'Official app · results on the go', 11, '#d6f2ec');
  return doc.render(out);
}

function makeWideAd(kind: 'hotel' | 'goods' | 'bank' | 'volunteer', seed: number): string {
  const w = 1200;
  const h = 160;
  const doc = new Doc(w, h);
  const rng = new Rng(seed);
  shadowFilter(doc);
  let out = '';
  const scene = (time: Time, x: number, ww: number): string => {
    return `<svg x="${x}" width="${ww}" height="${h}" viewBox="0 0 ${ww} ${h}" preserveAspectRatio="xMidYMid slice">${canalScene(doc, rng, ww, h, { time, waterY: h * 0.72, bridge: { cx: ww * 0.55, span: ww * 0.42, rise: h * 0.34 }, lanterns: true })}</svg>`;
  };
  if (kind === 'hotel') {
    out += scene('dusk', 560, 640);
    out += s`<rect width="760" height="${h}" fill="${doc.linear(
      [
        [0, C.navy],
        [0.75, C.blue, 0.96],
        [1, C.blue, 0],
      ],
      0,
      0,
      1,
      0,
    )}"/>`;
    out += text(60, 66, '跑者专享 · 运河古镇住宿 8 折起', 34, '#fff', { weight: 700, spacing: 1 });
    out += text(60, 100, 'Runner rates at Canal Ancient Town hotels — from 20% off', 17, C.gold2);
    out += pill(60, 116, '青禾酒店 × 青川运河马拉松', 14, C.gold, C.navy);
  } else if (kind === 'goods') {
    out += s`<rect width="${w}" height="${h}" fill="${doc.linear(
      [
        [0, '#fdf3e1'],
        [1, '#f7dcb0'],
      ],
      0,
      0,
      1,
      0,
    )}"/>`;
    out += s`<circle cx="1080" cy="40" r="150" fill="${C.gold}" opacity=".25"/>`;
    // T-shirt
    out += s`<path d="M860 40l40-18h40q20 18 40 0h40l40 18-20 40-26-12v80H906V68l-26 12z" fill="${C.blue}"/><path d="M906 100h128v12H906z" fill="${C.jade}"/><path d="M930 22q40 28 80 0" fill="none" stroke="${C.gold}" stroke-width="4"/>`;
    out += logoMark(doc, 950, 58, 40);
    out += medal(doc, 1110, 108, 34, '2027');
    out += text(60, 66, '2027 官方特许商品 限量上线', 34, C.blue, { weight: 700, spacing: 1 });
    out += text(60, 100, 'Official 2027 licensed products — limited edition, now online', 17, C.red2);
    out += pill(60, 116, '完赛T恤 · 纪念奖牌 · 运河文创', 14, C.red, '#fff');
  } else if (kind === 'bank') {
    out += s`<rect width="${w}" height="${h}" fill="${doc.linear(
      [
        [0, '#8e1e12'],
        [1, C.red],
      ],
      0,
      0,
      1,
      0,
    )}"/>`;
    out += s`<circle cx="1040" cy="80" r="110" fill="${C.gold}" opacity=".18"/>`;
    out += s`<circle cx="1040" cy="80" r="56" fill="${C.gold}"/><circle cx="1040" cy="80" r="46" fill="none" stroke="#fff3cf" stroke-width="3"/><rect x="1026" y="66" width="28" height="28" fill="${C.red2}"/>`;
    out += text(60, 66, '青川银行 冠名赞助 2027 青川运河马拉松', 32, '#fff', { weight: 700, spacing: 1 });
    out += text(60, 100, 'Qingchuan Bank — title sponsor of the 2027 Qingchuan Grand Canal Marathon', 17, C.gold2);
    out += pill(60, 116, '跑者联名卡 报名费立减 ¥30', 14, C.gold, '#7a1a0e');
  } else {
    out += scene('day', 600, 600);
    out += s`<rect width="780" height="${h}" fill="${doc.linear(
      [
        [0, '#0f6f64'],
        [0.75, C.jade, 0.97],
        [1, C.jade, 0],
      ],
      0,
      0,
      1,
      0,
    )}"/>`;
    for (let i = 0; i < 3; i += 1) out += spectator(640 + i * 40, 150, 60, C.jade, '#5a4638', i === 1);
    out += text(60, 66, '3000 名赛事志愿者招募中', 34, '#fff', { weight: 700, spacing: 1 });
    out += text(60, 100, 'Join 3,000 race-day volunteers along the canal', 17, '#e0fbf5');
    out += pill(60, 116, '报名截止 2027年3月1日', 14, C.gold, C.navy);
  }
  return doc.render(out);
}

function pill(x: number, y: number, label: string, size: number, fill: string, color: string): string {
  const w = textWidth(label, size, 1) + size * 1.6;
  return (
    s`<rect x="${x}" y="${y}" width="${w}" height="${size * 1.8}" rx="${size * 0.9}" fill="${fill}"/>` +
    text(x + size * 0.8, y + size * 1.28, label, size, color, { weight: 700, spacing: 1 })
  );
}

// ---------------------------------------------------------------------------------------------------
// Carousel, gallery, video posters, race poster
// ---------------------------------------------------------------------------------------------------

/** Left-side shade that keeps the headline readable over the illustration. */
function leftShade(doc: Doc, w: number, h: number, color: string, to = 0.62, hold = 0.36): string {
  return s`<rect width="${w}" height="${h}" fill="${doc.linear(
    [
      [0, color, 0.96],
      [hold, color, 0.88],
      [to, color, 0],
    ],
    0,
    0,
    1,
    0,
  )}"/>`;
}

function makeCarousel(i: number): string {
  const w = 1920;
  const h = 600;
  const doc = new Doc(w, h);
  shadowFilter(doc);
  const rng = new Rng(100 + i);
  let out = '';
  // Text starts at x = 440: inside the 1080-px safe width that stays visible when the slide is cropped.
  if (i === 1) {
    out += canalScene(doc, rng, w, h, {
      time: 'dawn',
      waterY: 430,
      bridge: { cx: 1340, span: 620, rise: 190, runners: 9 },
      boats: 1,
      willow: 'right',
      pagoda: 1640,
      sunX: 1500,
      leftBank: [-20, 700],
      rightBank: [1700, 1940],
    });
    out += leftShade(doc, w, h, C.navy, 0.55);
    out += headline(440, 270, '2027.04.18 · 青川', '2027 青川运河马拉松', 'QINGCHUAN GRAND CANAL MARATHON', 76);
    out += text(442, 380, '千年运河 · 古桥相连 · 一路奔跑', 26, C.gold2, { spacing: 4 });
    out += text(442, 414, 'A thousand years of canal, a day of running', 18, '#fff', { opacity: 0.8, spacing: 1 });
  } else if (i === 2) {
    out += canalScene(doc, rng, w, h, {
      time: 'night',
      waterY: 420,
      bridge: { cx: 1420, span: 520, rise: 170 },
      lanterns: true,
      boats: 2,
      sunX: 1750,
      leftBank: [-20, 1200],
      rightBank: [1640, 1940],
    });
    out += lanternString(doc, 900, 1960, 10, 40, 9, 16, true);
    out += lanternString(doc, -40, 900, 30, 30, 8, 13, true);
    out += leftShade(doc, w, h, '#04121f', 0.55);
    out += headline(440, 290, '运河之光', '千灯映运河', 'LANTERNS LIGHT THE GRAND CANAL', 80);
    out += text(442, 400, '赛前夜跑嘉年华 · 4月17日 19:00 古镇千灯廊', 24, C.gold2, { spacing: 2 });
    out += text(442, 434, 'Pre-race night carnival · Apr 17, 19:00 · Thousand Lantern Corridor', 17, '#fff', {
      opacity: 0.8,
    });
  } else if (i === 3) {
    out += streetScene(doc, rng, w, h, {
      time: 'day',
      roadY: 360,
      runners: 0,
      spectators: 34,
      lanterns: true,
      boardsFrom: 1100,
    });
    out += gantry(doc, 1380, 470, 700, 360, '起点', 'START', '07:30:00');
    const rs: Array<[number, number]> = [];
    for (let k = 0; k < 34; k += 1) rs.push([rng.range(1020, 1900), rng.range(420, 600)]);
    rs.sort((a, b) => a[1] - b[1]);
    for (const [x, y] of rs)
      out += runner(doc, x, y, 70 + (y - 420) * 0.5, rng.pick(SHIRTS), rng.pick(['a', 'b'] as const), C.ink, true);
    out += leftShade(doc, w, h, C.blue, 0.7, 0.46);
    out += headline(440, 280, '报名通道', '1月10日 报名开启', 'REGISTRATION OPENS JAN 10, 2027', 76);
    out += pill(442, 360, '马拉松 · 半程马拉松 · 10公里', 22, C.gold, C.navy);
    out += text(442, 440, 'Marathon · Half Marathon · 10 km — lottery draw after Jan 24', 18, '#fff', {
      opacity: 0.85,
    });
  } else {
    out += streetScene(doc, rng, w, h, {
      time: 'dusk',
      roadY: 340,
      runners: 0,
      spectators: 40,
      lanterns: false,
      boardsFrom: 1100,
    });
    out += gantry(doc, 1460, 580, 620, 400, '终点', 'FINISH', '02:09:37');
    out += confetti(rng, 1100, 0, 820, 420, 120);
    out += runner(doc, 1460, 585, 210, C.red, 'cheer', C.ink, false);
    out += runner(doc, 1250, 560, 150, C.jade, 'a', C.ink, false);
    out += runner(doc, 1720, 575, 170, C.gold, 'b', C.ink, true);
    out += s`<path d="M1196 486Q1330 500 1452 478M1472 478Q1580 470 1640 500Q1700 530 1724 500" stroke="${C.gold2}" stroke-width="4" fill="none"/>`;
    out += leftShade(doc, w, h, '#2a1230', 0.72, 0.46);
    out += headline(440, 290, '完赛时刻', '为每一位完赛者喝彩', 'CHEERING EVERY FINISHER', 68);
    out += text(442, 400, '42.195 公里 · 6 小时关门 · 完赛即得运河纪念奖牌', 24, C.gold2, { spacing: 2 });
    out += text(442, 434, '42.195 km · 6-hour cut-off · a canal medal for every finisher', 17, '#fff', {
      opacity: 0.8,
    });
  }
  return doc.render(out);
}

function watermark(w: number, h: number): string {
  return text(w - 16, h - 14, '青川运河马拉松 · 2026', 13, '#fff', { anchor: 'end', opacity: 0.75, weight: 700 });
}

type GalleryKind =
  | 'start'
  | 'bridge'
  | 'dawn'
  | 'lanternStreet'
  | 'crowd'
  | 'aid'
  | 'boats'
  | 'finish'
  | 'medal'
  | 'nightTown'
  | 'willowRun'
  | 'family';

function scene(doc: Doc, rng: Rng, w: number, h: number, kind: GalleryKind): string {
  switch (kind) {
    case 'start': {
      let out = streetScene(doc, rng, w, h, { time: 'dawn', roadY: h * 0.55, runners: 0, spectators: 16 });
      out += gantry(doc, w * 0.5, h * 0.98, w * 0.7, h * 0.7, '起点', 'START', '00:00:08');
      const rs: Array<[number, number]> = [];
      for (let k = 0; k < 34; k += 1) rs.push([rng.range(0, w), rng.range(h * 0.66, h * 1.02)]);
      rs.sort((a, b) => a[1] - b[1]);
      for (const [x, y] of rs)
        out += runner(
          doc,
          x,
          y,
          h * 0.16 + (y - h * 0.66) * 0.45,
          rng.pick(SHIRTS),
          rng.pick(['a', 'b'] as const),
          C.ink,
          true,
        );
      out += confetti(rng, 0, 0, w, h * 0.5, 50);
      return out;
    }
    case 'bridge':
      return canalScene(doc, rng, w, h, {
        time: 'day',
        waterY: h * 0.7,
        bridge: { cx: w * 0.5, span: w * 0.62, rise: h * 0.3, runners: 7 },
        willow: 'left',
        leftBank: [-20, w * 0.16],
        rightBank: [w * 0.82, w + 20],
      });
    case 'dawn':
      return canalScene(doc, rng, w, h, {
        time: 'dawn',
        waterY: h * 0.62,
        bridge: { cx: w * 0.3, span: w * 0.36, rise: h * 0.2, runners: 4 },
        boats: 1,
        pagoda: w * 0.8,
        sunX: w * 0.62,
        leftBank: [-20, w * 0.1],
        rightBank: [w * 0.5, w + 20],
      });
    case 'lanternStreet':
      return streetScene(doc, rng, w, h, { time: 'dusk', roadY: h * 0.6, runners: 14, spectators: 12, lanterns: true });
    case 'crowd':
      return streetScene(doc, rng, w, h, {
        time: 'day',
        roadY: h * 0.6,
        runners: 10,
        spectators: 20,
        minH: 0.28,
        maxH: 0.5,
        direction: -1,
      });
    case 'aid':
      return streetScene(doc, rng, w, h, {
        time: 'day',
        roadY: h * 0.56,
        runners: 8,
        spectators: 10,
        volunteers: true,
      });
    case 'boats': {
      let out = canalScene(doc, rng, w, h, {
        time: 'day',
        waterY: h * 0.5,
        boats: 3,
        willow: 'right',
        leftBank: [-20, w * 0.45],
        rightBank: [w * 0.6, w + 20],
      });
      // runners on the towpath in the foreground
      out += s`<rect y="${h * 0.86}" width="${w}" height="${h * 0.14}" fill="#b8ad9c"/>`;
      for (let k = 0; k < 6; k += 1)
        out += runner(
          doc,
          w * (0.08 + k * 0.15) + rng.range(-20, 20),
          h * 0.98,
          h * 0.28,
          rng.pick(SHIRTS),
          rng.pick(['a', 'b'] as const),
        );
      return out;
    }
    case 'finish': {
      let out = streetScene(doc, rng, w, h, { time: 'day', roadY: h * 0.55, runners: 0, spectators: 18 });
      out += gantry(doc, w * 0.5, h * 1.0, w * 0.8, h * 0.78, '终点', 'FINISH', '03:28:15');
      out += confetti(rng, 0, 0, w, h * 0.7, 70);
      out += runner(doc, w * 0.47, h * 0.99, h * 0.4, C.jade, 'cheer');
      out += s`<path d="M${w * 0.2} ${h * 0.76}Q${w * 0.35} ${h * 0.8} ${w * 0.5} ${h * 0.73}" stroke="${C.gold}" stroke-width="4" fill="none"/>`;
      return out;
    }
    case 'medal': {
      let out = s`<rect width="${w}" height="${h}" fill="${doc.radial(
        [
          [0, C.blue2],
          [1, C.navy],
        ],
        0.5,
        0.4,
        0.8,
      )}"/>`;
      out += confetti(rng, 0, 0, w, h, 40);
      out += medal(doc, w * 0.5, h * 0.62, h * 0.26, '2026');
      return out;
    }
    case 'nightTown':
      return (
        canalScene(doc, rng, w, h, {
          time: 'night',
          waterY: h * 0.62,
          bridge: { cx: w * 0.62, span: w * 0.46, rise: h * 0.26, runners: 5 },
          lanterns: true,
          boats: 1,
          leftBank: [-20, w * 0.38],
          rightBank: [w * 0.86, w + 20],
        }) + lanternString(doc, -10, w + 10, h * 0.02, h * 0.06, 7, h * 0.03, true)
      );
    case 'willowRun': {
      let out = canalScene(doc, rng, w, h, {
        time: 'day',
        waterY: h * 0.55,
        willow: 'both',
        pagoda: w * 0.7,
        leftBank: [w * 0.1, w * 0.4],
        rightBank: [w * 0.78, w + 20],
      });
      out += s`<rect y="${h * 0.84}" width="${w}" height="${h * 0.16}" fill="#c2b7a5"/>`;
      for (let k = 0; k < 4; k += 1)
        out += runner(doc, w * (0.22 + k * 0.18), h * 0.97, h * 0.36, rng.pick(SHIRTS), k % 2 ? 'a' : 'b');
      return out;
    }
    case 'family': {
      let out = streetScene(doc, rng, w, h, {
        time: 'day',
        roadY: h * 0.56,
        runners: 4,
        spectators: 14,
        lanterns: true,
        minH: 0.2,
        maxH: 0.28,
      });
      out += runner(doc, w * 0.45, h * 0.98, h * 0.5, C.red, 'a');
      out += runner(doc, w * 0.62, h * 0.98, h * 0.3, C.gold, 'b');
      out += runner(doc, w * 0.3, h * 0.96, h * 0.46, C.jade, 'b');
      return out;
    }
  }
}

function makeGallery(i: number, kind: GalleryKind): string {
  const w = 800;
  const h = 533;
  const doc = new Doc(w, h);
  return doc.render(scene(doc, new Rng(200 + i), w, h, kind) + watermark(w, h));
}

/**
 * A video's poster: its scene, the play mark and its titles. No running time: the card shows the video's own
 * (read from the file), never a number drawn into a picture (a 6-second clip's poster said 04:36).
 */
function makeVideoPoster(i: number, kind: GalleryKind, title: string, titleEn: string): string {
  const w = 800;
  const h = 450;
  const doc = new Doc(w, h);
  shadowFilter(doc);
  let out = scene(doc, new Rng(300 + i), w, h, kind);
  out += s`<rect width="${w}" height="${h}" fill="${doc.linear([
    [0, '#000', 0],
    [0.55, '#000', 0.05],
    [1, '#000', 0.7],
  ])}"/>`;
  out += s`<circle cx="${w / 2}" cy="${h * 0.44}" r="44" fill="#000" opacity=".35"/><circle cx="${w / 2}" cy="${h * 0.44}" r="40" fill="none" stroke="#fff" stroke-width="4"/>`;
  out += s`<path d="M${w / 2 - 12} ${h * 0.44 - 20}L${w / 2 + 22} ${h * 0.44}L${w / 2 - 12} ${h * 0.44 + 20}Z" fill="#fff"/>`;
  out += `<g filter="url(#ts)">${text(28, h - 52, title, 30, '#fff', { weight: 700, spacing: 1 })}</g>`;
  out += text(28, h - 22, titleEn, 16, C.gold2, { spacing: 0.5 });
  return doc.render(out);
}

function makePoster(): string {
  const w = 750;
  const h = 1060;
  const doc = new Doc(w, h);
  shadowFilter(doc);
  const rng = new Rng(400);
  let out = s`<rect width="${w}" height="${h}" fill="${C.navy}"/>`;
  out += `<svg y="200" width="${w}" height="560" viewBox="0 0 ${w} 560">${canalScene(doc, rng, w, 560, { time: 'dusk', waterY: 400, bridge: { cx: 400, span: 430, rise: 150, runners: 7 }, lanterns: true, boats: 1, willow: 'left', pagoda: 640, sunX: 560, leftBank: [-20, 180], rightBank: [600, 770] })}</svg>`;
  out += lanternString(doc, -20, w + 20, 196, 26, 6, 15, true);
  out += s`<rect width="${w}" height="280" fill="${doc.linear([
    [0, C.navy],
    [0.7, C.navy, 0.9],
    [1, C.navy, 0],
  ])}"/>`;
  out += s`<rect y="680" width="${w}" height="380" fill="${doc.linear([
    [0, C.navy, 0],
    [0.25, C.navy, 0.92],
    [1, C.navy],
  ])}"/>`;
  out += logoMark(doc, 60, 52, 64);
  out += text(140, 80, '青川运河马拉松', 24, '#fff', { weight: 700, spacing: 3 });
  out += text(141, 104, 'QINGCHUAN GRAND CANAL MARATHON', 11, C.jade2, { weight: 700, spacing: 1.6 });
  out += `<g filter="url(#ts)">${text(60, 200, '2027', 92, C.gold, { weight: 700, spacing: 4 })}</g>`;
  out += `<g filter="url(#ts)">${text(300, 196, '与运河同行', 54, '#fff', { weight: 700, spacing: 4 })}</g>`;
  out += text(302, 232, 'RUN WITH THE CANAL', 20, '#fff', { spacing: 5, opacity: 0.85 });
  const info: Array<[string, string]> = [
    ['比赛日 Race day', '2027.04.18  07:30 鸣枪'],
    ['报名 Registration', '2027.01.10 10:00 – 01.24 18:00'],
    ['项目 Events', '马拉松 · 半程马拉松 · 10公里'],
    ['起点 Start', '运河广场 Canal Square'],
  ];
  info.forEach(([k, v], j) => {
    const y = 790 + j * 58;
    out += s`<rect x="60" y="${y - 24}" width="4" height="44" fill="${C.gold}"/>`;
    out += text(78, y - 7, k, 14, C.jade2, { weight: 700, spacing: 1 });
    out += text(78, y + 17, v, 20, '#fff', { weight: 700 });
  });
  out += medal(doc, 600, 905, 70, '2027');
  out += s`<path d="M60 1018H690" stroke="#ffffff" stroke-opacity=".2"/>`;
  out += text(60, 1042, '主办：青川市人民政府 · 承办：青川市体育局 / 青川运河马拉松组委会', 13, '#cfe0ee');
  return doc.render(out);
}

// ---------------------------------------------------------------------------------------------------
// Route map
// ---------------------------------------------------------------------------------------------------

/** Landmarks along the route (km), shared with the route description in the site configuration. */
const LANDMARKS: Array<[km: number, zh: string, en: string, side: 1 | -1]> = [
  [3, '望川桥', 'Wangchuan Bridge', 1],
  [8, '古镇东门', 'Old Town East Gate', -1],
  [13, '千灯廊', 'Lantern Corridor', -1],
  [18, '文昌阁', 'Wenchang Pavilion', 1],
  [22.5, '通济桥', 'Tongji Bridge', 1],
  [28.3, '北岸折返点', 'North Bank Turnaround', -1],
  [31, '运河湿地公园', 'Canal Wetland Park', 1],
  [36, '运河博物馆', 'Grand Canal Museum', 1],
  [40, '青川大剧院', 'Qingchuan Grand Theatre', -1],
];

function catmullRom(pts: Pt[], samples: number): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i < pts.length - 1; i += 1) {
    const p0 = pts[Math.max(0, i - 1)]!;
    const p1 = pts[i]!;
    const p2 = pts[i + 1]!;
    const p3 = pts[Math.min(pts.length - 1, i + 2)]!;
    for (let k = 0; k < samples; k += 1) {
      const t = k / samples;
      const t2 = t * t;
      const t3 = t2 * t;
      const f = (a: number, b: number, c: number, d: number): number =>
        0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3);
      out.push([f(p0[0], p1[0], p2[0], p3[0]), f(p0[1], p1[1], p2[1], p3[1])]);
    }
  }
  out.push(pts[pts.length - 1]!);
  return out;
}

function makeRouteMap(): string {
  const w = 1200;
  const h = 800;
  const doc = new Doc(w, h);
  const rng = new Rng(500);
  let out = s`<rect width="${w}" height="${h}" fill="#f4f1e8"/>`;
  // street grid
  let grid = '';
  for (let x = 40; x < w; x += 70 + rng.int(0, 30)) grid += s`M${x} 0L${x + rng.range(-40, 40)} ${h}`;
  for (let y = 30; y < h; y += 60 + rng.int(0, 30)) grid += s`M0 ${y}L${w} ${y + rng.range(-30, 30)}`;
  out += `<path d="${grid}" stroke="#ffffff" stroke-width="5"/><path d="${grid}" stroke="#e3ddd0" stroke-width="1"/>`;
  // parks, lake, old town
  out += s`<path d="M760 70c90-20 210 10 230 90s-40 150-150 150-170-60-160-130 20-100 80-110z" fill="#cfe8d4"/>`;
  out += s`<path d="M800 120c60-16 140 4 150 60s-30 100-100 96-110-40-100-90 10-58 50-66z" fill="#9fd0e6"/>`;
  out += s`<path d="M120 470c60-30 170-20 200 30s-10 120-90 130-150-20-160-80 10-60 50-80z" fill="#cfe8d4"/>`;
  out += s`<path d="M1150 380c40 10 60 60 55 110s-30 90-70 80-60-50-55-100 30-100 70-90z" fill="#cfe8d4"/>`;
  out += s`<rect x="430" y="330" width="250" height="170" rx="18" fill="#efe3cf" stroke="#d8c7a8" stroke-dasharray="6 4"/>`;
  out += text(420, 346, '青川古镇', 13, '#8a7350', { anchor: 'end', weight: 700 });
  out += text(420, 362, 'Qingchuan Old Town', 11, '#8a7350', { anchor: 'end' });
  out += text(860, 170, '青川湖', 15, '#2b6c8c', { anchor: 'middle', weight: 700 });
  out += text(860, 189, 'Qingchuan Lake', 11, '#2b6c8c', { anchor: 'middle' });
  // the canal
  const canal = 'M-20 700C160 660 260 560 380 520S600 470 700 400 860 330 960 330 1140 270 1220 220';
  out += `<path d="${canal}" fill="none" stroke="#9fd0e6" stroke-width="34" stroke-linecap="round"/>`;
  out += `<path d="${canal}" fill="none" stroke="#bfe0ee" stroke-width="12" stroke-linecap="round" opacity=".7"/>`;
  out += text(22, 632, '京杭大运河（青川段）', 13, '#2b6c8c', { weight: 700 });
  out += text(22, 649, 'Grand Canal · Qingchuan section', 11, '#2b6c8c');
  // route
  const ctrl: Pt[] = [
    [150, 720],
    [250, 640],
    [330, 560],
    [420, 500],
    [470, 420],
    [520, 360],
    [610, 340],
    [660, 400],
    [600, 460],
    [520, 470],
    [470, 420],
    [520, 300],
    [610, 230],
    [720, 200],
    [780, 130],
    [880, 90],
    [980, 130],
    [1000, 230],
    [930, 300],
    [860, 350],
    [900, 420],
    [1000, 440],
    [1080, 390],
    [1100, 300],
    [1140, 250],
    [1090, 560],
    [980, 610],
    [850, 640],
    [700, 660],
    [560, 690],
    [420, 720],
    [300, 740],
  ];
  const path = catmullRom(ctrl, 14);
  const cum: number[] = [0];
  for (let i = 1; i < path.length; i += 1)
    cum.push(cum[i - 1]! + Math.hypot(path[i]![0] - path[i - 1]![0], path[i]![1] - path[i - 1]![1]));
  const total = cum[cum.length - 1]!;
  const at = (km: number): { p: Pt; nx: number; ny: number } => {
    const target = (km / 42.195) * total;
    let i = 1;
    while (i < cum.length - 1 && cum[i]! < target) i += 1;
    const a = path[i - 1]!;
    const b = path[i]!;
    const t = (target - cum[i - 1]!) / Math.max(1e-6, cum[i]! - cum[i - 1]!);
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const len = Math.hypot(dx, dy) || 1;
    return { p: [a[0] + dx * t, a[1] + dy * t], nx: -dy / len, ny: dx / len };
  };
  const d = 'M' + path.map(([x, y]) => `${fmt(x)} ${fmt(y)}`).join('L');
  out += `<path d="${d}" fill="none" stroke="#fff" stroke-width="11" stroke-linejoin="round" stroke-linecap="round"/>`;
  out += `<path d="${d}" fill="none" stroke="${C.red}" stroke-width="6" stroke-linejoin="round" stroke-linecap="round"/>`;
  // direction arrows
  for (let km = 2; km < 42; km += 6) {
    const { p, nx, ny } = at(km);
    const ang = (Math.atan2(nx, -ny) * 180) / Math.PI;
    out += s`<path d="M-4 -4L3 0L-4 4" transform="translate(${p[0]} ${p[1]}) rotate(${ang})" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"/>`;
  }
  // aid stations every 2.5 km
  for (let km = 2.5; km < 42.195; km += 2.5) {
    const { p, nx, ny } = at(km);
    out += s`<circle cx="${p[0] + nx * 13}" cy="${p[1] + ny * 13}" r="5" fill="${C.jade}" stroke="#fff" stroke-width="1.5"/>`;
  }
  // medical points every 5 km (offset to the other side)
  for (let km = 5; km < 42; km += 5) {
    const { p, nx, ny } = at(km + 0.4);
    const x = p[0] - nx * 14;
    const y = p[1] - ny * 14;
    out += s`<rect x="${x - 6}" y="${y - 6}" width="12" height="12" rx="2" fill="#fff" stroke="${C.red}" stroke-width="1.2"/><path d="M${x - 3.5} ${y}h7M${x} ${y - 3.5}v7" stroke="${C.red}" stroke-width="2.2"/>`;
  }
  // km markers every 5 km
  for (let km = 5; km <= 40; km += 5) {
    if (km === 10) continue; // the 10 km finish flag marks it
    const { p } = at(km);
    out += s`<circle cx="${p[0]}" cy="${p[1]}" r="11" fill="${C.blue}" stroke="#fff" stroke-width="2"/>`;
    out += text(p[0], p[1] + 4, String(km), 11, '#fff', { anchor: 'middle', weight: 700 });
  }
  // landmarks
  for (const [km, zh, en, side] of LANDMARKS) {
    const { p, nx, ny } = at(km);
    const lx = p[0] + nx * 34 * side;
    const ly = p[1] + ny * 34 * side;
    out += s`<path d="M${p[0]} ${p[1]}L${lx} ${ly}" stroke="#6b7a86" stroke-width="1" stroke-dasharray="2 2"/>`;
    const bw = Math.max(textWidth(zh, 12), textWidth(en, 10)) + 14;
    out += s`<rect x="${lx - bw / 2}" y="${ly - 16}" width="${bw}" height="32" rx="5" fill="#fff" stroke="#c9d3da"/>`;
    out += text(lx, ly - 2, zh, 12, C.ink, { anchor: 'middle', weight: 700 });
    out += text(lx, ly + 11, en, 10, '#5b6b78', { anchor: 'middle' });
  }
  // start and finishes
  const flag = (
    x: number,
    y: number,
    color: string,
    label: string,
    labelEn: string,
    dx: number,
    dy: number,
  ): string => {
    const bw = Math.max(textWidth(label, 13), textWidth(labelEn, 10)) + 18;
    const bx = x + dx;
    const by = y + dy;
    return (
      s`<path d="M${x} ${y}L${bx} ${by}" stroke="${color}" stroke-width="1.5"/>` +
      s`<circle cx="${x}" cy="${y}" r="8" fill="${color}" stroke="#fff" stroke-width="2.5"/>` +
      s`<rect x="${bx - bw / 2}" y="${by - 19}" width="${bw}" height="38" rx="6" fill="${color}"/>` +
      text(bx, by - 2, label, 13, '#fff', { anchor: 'middle', weight: 700 }) +
      text(bx, by + 12, labelEn, 10, '#fff', { anchor: 'middle', opacity: 0.9 })
    );
  };
  out += flag(150, 720, C.jade, '起点 · 运河广场', 'START · Canal Square', 0, 50);
  const ten = at(10).p;
  out += flag(ten[0], ten[1], C.gold, '10公里终点 · 古镇广场', '10 km FINISH · Old Town Square', 0, 95);
  const half = at(21.0975).p;
  out += flag(half[0], half[1], '#e8713c', '半马终点 · 青川湖公园', 'HALF FINISH · Lake Park', -115, 0);
  const end = path[path.length - 1]!;
  out += flag(end[0], end[1], C.red, '全马终点 · 奥体中心', 'MARATHON FINISH · Olympic Sports Centre', 70, 40);
  // title
  out += s`<rect x="24" y="24" width="360" height="96" rx="10" fill="#fff" stroke="#d9e1e6"/>`;
  out += logoMark(doc, 40, 40, 64);
  out += text(118, 62, '2027 青川运河马拉松 路线图', 18, C.blue, { weight: 700 });
  out += text(118, 84, 'Course map · 42.195 km · Apr 18, 2027', 12, '#5b6b78');
  out += text(118, 104, '示意图，以赛前发布的最终路线为准', 11, '#8a96a0');
  // legend
  const lx = 930;
  const ly = 640;
  out += s`<rect x="${lx}" y="${ly}" width="246" height="136" rx="10" fill="#fff" stroke="#d9e1e6"/>`;
  out += text(lx + 16, ly + 24, '图例 Legend', 13, C.ink, { weight: 700 });
  const row = (k: number, icon: string, label: string): string =>
    icon + text(lx + 46, ly + 50 + k * 22, label, 11.5, '#34424f');
  out += row(
    0,
    s`<path d="M${lx + 16} ${ly + 46}h22" stroke="${C.red}" stroke-width="6" stroke-linecap="round"/>`,
    '比赛路线 Race course',
  );
  out += row(
    1,
    s`<circle cx="${lx + 27}" cy="${ly + 68}" r="9" fill="${C.blue}"/><text x="${lx + 27}" y="${ly + 71.5}" font-size="9" fill="#fff" text-anchor="middle" font-weight="700">5</text>`,
    '公里标识 Kilometre marker',
  );
  out += row(
    2,
    s`<circle cx="${lx + 27}" cy="${ly + 90}" r="5" fill="${C.jade}" stroke="#fff" stroke-width="1.5"/>`,
    '补给站（每2.5公里）Aid station',
  );
  out += row(
    3,
    s`<rect x="${lx + 21}" y="${ly + 106}" width="12" height="12" rx="2" fill="#fff" stroke="${C.red}"/><path d="M${lx + 23.5} ${ly + 112}h7M${lx + 27} ${ly + 108.5}v7" stroke="${C.red}" stroke-width="2.2"/>`,
    '医疗点 Medical point',
  );
  // compass + scale
  out += s`<g transform="translate(1140 60)"><circle r="22" fill="#fff" stroke="#d9e1e6"/><path d="M0 -16L6 4H-6Z" fill="${C.red}"/><path d="M0 16L6 4H-6Z" fill="#9aa7b1"/></g>`;
  out += text(1140, 100, 'N', 12, C.ink, { anchor: 'middle', weight: 700 });
  out += s`<path d="M40 148h120M40 142v12M100 145v6M160 142v12" stroke="${C.ink}" stroke-width="1.5"/>`;
  out += text(170, 152, '0 – 2 km', 11, C.ink);
  return doc.render(out);
}

// ---------------------------------------------------------------------------------------------------
// Partner logos
// ---------------------------------------------------------------------------------------------------

type Icon =
  | 'coin'
  | 'drop'
  | 'wave'
  | 'chevron'
  | 'shield'
  | 'signal'
  | 'swoosh'
  | 'leaf'
  | 'roof'
  | 'plane'
  | 'bolt'
  | 'cup'
  | 'cross'
  | 'paper'
  | 'box'
  | 'orange'
  | 'foot'
  | 'glasses'
  | 'cloud'
  | 'pagoda'
  | 'boat'
  | 'heart'
  | 'ribbon'
  | 'stopwatch'
  | 'pin'
  | 'shirt'
  | 'hex';

interface Brand {
  file: string;
  zh: string;
  en: string;
  icon: Icon;
  c1: string;
  c2: string;
  layout: 'row' | 'stack';
}

/** Draws an icon in a 48×48 box at (x, y). */
function icon(kind: Icon, x: number, y: number, c1: string, c2: string): string {
  const g = (body: string): string => `<g transform="translate(${x} ${y})">${body}</g>`;
  switch (kind) {
    case 'coin':
      return g(
        `<circle cx="24" cy="24" r="23" fill="${c1}"/><circle cx="24" cy="24" r="18" fill="none" stroke="${c2}" stroke-width="2.5"/><rect x="17" y="17" width="14" height="14" fill="#fff"/><path d="M24 3v6M24 39v6M3 24h6M39 24h6" stroke="${c2}" stroke-width="2.5"/>`,
      );
    case 'drop':
      return g(
        `<path d="M24 2C24 2 7 22 7 32a17 17 0 0 0 34 0C41 22 24 2 24 2Z" fill="${c1}"/><path d="M16 32a8 8 0 0 0 8 8" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/><circle cx="30" cy="20" r="3" fill="${c2}"/>`,
      );
    case 'wave':
      return g(
        `<circle cx="24" cy="24" r="23" fill="${c1}"/><path d="M6 26q4.5-6 9 0t9 0 9 0 9 0M8 34q4-5 8 0t8 0 8 0 8 0" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/><circle cx="24" cy="14" r="5" fill="${c2}"/>`,
      );
    case 'chevron':
      return g(
        `<path d="M4 14L24 4L44 14V22L24 12L4 22Z" fill="${c1}"/><path d="M4 28L24 18L44 28V36L24 26L4 36Z" fill="${c2}"/><path d="M10 44h28" stroke="${c1}" stroke-width="4" stroke-linecap="round"/>`,
      );
    case 'shield':
      return g(
        `<path d="M24 2L43 9V24C43 35 35 43 24 47C13 43 5 35 5 24V9Z" fill="${c1}"/><path d="M15 24l7 7 12-13" fill="none" stroke="#fff" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round"/><path d="M24 2L43 9V24C43 35 35 43 24 47Z" fill="${c2}" opacity=".35"/>`,
      );
    case 'signal':
      return g(
        `<circle cx="12" cy="36" r="6" fill="${c2}"/><path d="M12 20a16 16 0 0 1 16 16M12 8a28 28 0 0 1 28 28" fill="none" stroke="${c1}" stroke-width="5" stroke-linecap="round"/>`,
      );
    case 'swoosh':
      return g(
        `<path d="M2 34C10 42 24 38 46 12C32 28 18 36 10 30C7 28 8 22 12 18C4 22 -1 29 2 34Z" fill="${c1}"/><circle cx="38" cy="8" r="5" fill="${c2}"/>`,
      );
    case 'leaf':
      return g(
        `<path d="M6 42C6 18 22 6 44 4C44 28 30 42 6 42Z" fill="${c1}"/><path d="M8 40C18 28 28 18 38 10" fill="none" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/><circle cx="12" cy="12" r="5" fill="${c2}"/>`,
      );
    case 'roof':
      return g(
        `<path d="M2 20Q10 18 14 10H34Q38 18 46 20Z" fill="${c1}"/><rect x="10" y="22" width="28" height="22" fill="${c2}"/><rect x="20" y="30" width="8" height="14" fill="#fff"/><circle cx="24" cy="6" r="3" fill="${c1}"/>`,
      );
    case 'plane':
      return g(`<path d="M4 30L44 10L34 40L24 30Z" fill="${c1}"/><path d="M24 30L44 10L20 38Z" fill="${c2}"/>`);
    case 'bolt':
      return g(`<circle cx="24" cy="24" r="23" fill="${c1}"/><path d="M27 6L13 27H23L20 42L35 20H25Z" fill="${c2}"/>`);
    case 'cup':
      return g(
        `<path d="M8 20H38V28C38 37 31 43 23 43S8 37 8 28Z" fill="${c1}"/><path d="M38 23h3a5 5 0 0 1 0 10h-4" fill="none" stroke="${c1}" stroke-width="3"/><path d="M16 14q-3-4 0-8M24 14q-3-4 0-8M32 14q-3-4 0-8" fill="none" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/><path d="M4 45h38" stroke="${c2}" stroke-width="3" stroke-linecap="round"/>`,
      );
    case 'cross':
      return g(
        `<rect x="2" y="2" width="44" height="44" rx="12" fill="${c1}"/><path d="M19 10h10v9h9v10h-9v9H19v-9h-9V19h9Z" fill="#fff"/><circle cx="38" cy="38" r="5" fill="${c2}"/>`,
      );
    case 'paper':
      return g(
        `<rect x="4" y="4" width="40" height="40" rx="4" fill="${c1}"/><rect x="10" y="10" width="16" height="14" fill="${c2}"/><path d="M30 12h8M30 18h8M10 30h28M10 36h28" stroke="#fff" stroke-width="3" stroke-linecap="round"/>`,
      );
    case 'box':
      return g(
        `<path d="M24 3L44 13V35L24 45L4 35V13Z" fill="${c1}"/><path d="M4 13L24 23L44 13M24 23V45" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M14 8L34 18V26" fill="none" stroke="${c2}" stroke-width="4"/>`,
      );
    case 'orange':
      return g(
        `<circle cx="24" cy="27" r="19" fill="${c1}"/><path d="M24 10C26 4 32 2 38 4C36 10 30 12 24 10Z" fill="${c2}"/><path d="M16 22a9 9 0 0 1 6-5" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" opacity=".7"/>`,
      );
    case 'foot':
      return g(
        `<ellipse cx="16" cy="30" rx="8" ry="13" fill="${c1}" transform="rotate(-15 16 30)"/><ellipse cx="32" cy="18" rx="8" ry="13" fill="${c2}" transform="rotate(15 32 18)"/>`,
      );
    case 'glasses':
      return g(
        `<circle cx="13" cy="26" r="10" fill="none" stroke="${c1}" stroke-width="4.5"/><circle cx="35" cy="26" r="10" fill="none" stroke="${c1}" stroke-width="4.5"/><path d="M20 22q4-4 8 0" fill="none" stroke="${c1}" stroke-width="3.5"/><path d="M9 22l5-4M31 22l5-4" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/>`,
      );
    case 'cloud':
      return g(
        `<path d="M12 38a10 10 0 0 1 0-20a14 14 0 0 1 26 2a9 9 0 0 1 0 18Z" fill="${c1}"/><path d="M14 30h20M18 24h12" stroke="${c2}" stroke-width="3" stroke-linecap="round"/>`,
      );
    case 'pagoda':
      return g(
        `<circle cx="24" cy="24" r="23" fill="${c1}" opacity=".14"/><g transform="translate(24 0) scale(1.9 1) translate(-24 0)">${pagoda(24, 44, 40, c1)}</g><circle cx="38" cy="11" r="5" fill="${c2}"/><path d="M4 44h40" stroke="${c1}" stroke-width="3" stroke-linecap="round"/>`,
      );
    case 'boat':
      return g(
        `<circle cx="24" cy="24" r="23" fill="${c2}" opacity=".2"/>${boat(22, 34, 50, false).replace(/#4a3426/g, c1)}<path d="M6 40q4-3 8 0t8 0 8 0 8 0" fill="none" stroke="${c2}" stroke-width="2.5" stroke-linecap="round"/>`,
      );
    case 'heart':
      return g(
        `<path d="M24 43S4 30 4 16A10 10 0 0 1 24 12A10 10 0 0 1 44 16C44 30 24 43 24 43Z" fill="${c1}"/><path d="M12 24h7l3-6 4 12 3-6h7" fill="none" stroke="#fff" stroke-width="2.5" stroke-linejoin="round"/>`,
      );
    case 'ribbon':
      return g(
        `<path d="M24 4C16 4 14 14 18 22L8 44H16L24 28L32 44H40L30 22C34 14 32 4 24 4ZM24 10C28 10 28 16 24 22C20 16 20 10 24 10Z" fill="${c1}"/><circle cx="24" cy="4" r="2" fill="${c2}"/>`,
      );
    case 'stopwatch':
      return g(
        `<rect x="19" y="1" width="10" height="5" rx="1.5" fill="${c2}"/><circle cx="24" cy="27" r="19" fill="${c1}"/><circle cx="24" cy="27" r="14" fill="#fff"/><path d="M24 27V17M24 27l7 5" stroke="${c1}" stroke-width="3" stroke-linecap="round"/><path d="M38 10l4-4" stroke="${c2}" stroke-width="3.5" stroke-linecap="round"/>`,
      );
    case 'pin':
      return g(
        `<path d="M24 46S8 28 8 18a16 16 0 0 1 32 0C40 28 24 46 24 46Z" fill="${c1}"/><circle cx="24" cy="18" r="6" fill="#fff"/><path d="M4 44h40" stroke="${c2}" stroke-width="3" stroke-linecap="round"/>`,
      );
    case 'shirt':
      return g(
        `<path d="M14 4L2 12L8 22L13 19V45H35V19L40 22L46 12L34 4Q24 12 14 4Z" fill="${c1}"/><path d="M13 30h22" stroke="${c2}" stroke-width="4"/>`,
      );
    case 'hex':
      return g(
        `<path d="M24 2L43 13V35L24 46L5 35V13Z" fill="${c1}"/><path d="M16 16h16l-16 16h16" fill="none" stroke="${c2}" stroke-width="4" stroke-linejoin="round"/>`,
      );
  }
}

const BRANDS: Brand[] = [
  { file: 'qingchuan-bank', zh: '青川银行', en: 'QINGCHUAN BANK', icon: 'coin', c1: C.red, c2: C.gold, layout: 'row' },
  { file: 'canal-dairy', zh: '运河乳业', en: 'Canal Dairy', icon: 'wave', c1: C.blue3, c2: C.gold, layout: 'row' },
  {
    file: 'qingchuan-motors',
    zh: '青川汽车',
    en: 'QINGCHUAN MOTORS',
    icon: 'chevron',
    c1: C.ink,
    c2: C.red,
    layout: 'stack',
  },
  {
    file: 'jianglan-insurance',
    zh: '江澜保险',
    en: 'Jianglan Insurance',
    icon: 'shield',
    c1: C.blue,
    c2: C.jade2,
    layout: 'row',
  },
  {
    file: 'yunfan-telecom',
    zh: '云帆通信',
    en: 'Yunfan Telecom',
    icon: 'signal',
    c1: '#2f6fd6',
    c2: C.gold,
    layout: 'row',
  },
  {
    file: 'chuanliu-sports',
    zh: '川流运动',
    en: 'CHUANLIU SPORTS',
    icon: 'swoosh',
    c1: C.red,
    c2: C.ink,
    layout: 'row',
  },
  {
    file: 'qingquan-water',
    zh: '清泉饮用水',
    en: 'Qingquan Water',
    icon: 'drop',
    c1: '#2a9bd8',
    c2: C.jade2,
    layout: 'stack',
  },
  { file: 'hefeng-foods', zh: '禾丰食品', en: 'Hefeng Foods', icon: 'leaf', c1: '#3f9b4f', c2: C.gold, layout: 'row' },
  {
    file: 'qinghe-hotels',
    zh: '青禾酒店',
    en: 'Qinghe Hotels & Resorts',
    icon: 'roof',
    c1: C.ink,
    c2: '#b08a4a',
    layout: 'row',
  },
  {
    file: 'jincheng-airlines',
    zh: '锦程航空',
    en: 'Jincheng Airlines',
    icon: 'plane',
    c1: C.blue,
    c2: C.red,
    layout: 'stack',
  },
  { file: 'canal-energy', zh: '运河能量', en: 'Canal Energy Gel', icon: 'bolt', c1: C.ink, c2: C.gold, layout: 'row' },
  {
    file: 'jiangnan-tea',
    zh: '江南茶社',
    en: 'Jiangnan Tea House',
    icon: 'cup',
    c1: '#3c7a4e',
    c2: '#a9c97a',
    layout: 'row',
  },
  { file: 'antu-medical', zh: '安途医疗', en: 'Antu Medical', icon: 'cross', c1: C.red, c2: C.blue, layout: 'row' },
  {
    file: 'qingchuan-daily',
    zh: '青川日报',
    en: 'Qingchuan Daily',
    icon: 'paper',
    c1: C.blue,
    c2: C.red,
    layout: 'stack',
  },
  {
    file: 'suda-logistics',
    zh: '速达物流',
    en: 'Suda Logistics',
    icon: 'box',
    c1: '#e07a1f',
    c2: C.ink,
    layout: 'row',
  },
  {
    file: 'orange-grove',
    zh: '橙园饮品',
    en: 'Orange Grove Drinks',
    icon: 'orange',
    c1: '#f08a1c',
    c2: '#3f9b4f',
    layout: 'row',
  },
  { file: 'stride-care', zh: '步履护具', en: 'Stride Care', icon: 'foot', c1: C.jade, c2: C.blue, layout: 'stack' },
  {
    file: 'mingjing-eyewear',
    zh: '明镜眼镜',
    en: 'Mingjing Eyewear',
    icon: 'glasses',
    c1: C.ink,
    c2: C.gold,
    layout: 'row',
  },
  {
    file: 'yunduo-textile',
    zh: '云朵纺织',
    en: 'Yunduo Textiles',
    icon: 'shirt',
    c1: C.blue3,
    c2: C.gold,
    layout: 'row',
  },
  {
    file: 'xianguo-fruit',
    zh: '鲜果坊',
    en: 'Fresh Fruit Co.',
    icon: 'leaf',
    c1: '#d94a6a',
    c2: '#3f9b4f',
    layout: 'stack',
  },
  {
    file: 'qingchuan-tourism',
    zh: '青川文旅',
    en: 'Qingchuan Culture & Tourism',
    icon: 'pagoda',
    c1: C.jade,
    c2: C.red,
    layout: 'stack',
  },
  {
    file: 'canal-town-travel',
    zh: '运河古镇旅游',
    en: 'Canal Old Town Travel',
    icon: 'boat',
    c1: C.ink,
    c2: C.jade,
    layout: 'stack',
  },
  {
    file: 'qingchuan-charity',
    zh: '青川市慈善总会',
    en: 'Qingchuan Charity Federation',
    icon: 'heart',
    c1: C.red,
    c2: C.gold,
    layout: 'stack',
  },
  {
    file: 'blue-ribbon',
    zh: '蓝丝带公益',
    en: 'Blue Ribbon Foundation',
    icon: 'ribbon',
    c1: '#2f6fd6',
    c2: C.gold,
    layout: 'row',
  },
  {
    file: 'starlight-timing',
    zh: '星辰计时',
    en: 'STARLIGHT TIMING',
    icon: 'stopwatch',
    c1: C.blue,
    c2: C.gold,
    layout: 'row',
  },
  {
    file: 'qingchuan-cloud',
    zh: '青川云',
    en: 'Qingchuan Cloud',
    icon: 'cloud',
    c1: '#3a8ee6',
    c2: '#fff',
    layout: 'row',
  },
  { file: 'runway-tech', zh: '跑途科技', en: 'RunWay Tech', icon: 'pin', c1: C.jade, c2: C.ink, layout: 'stack' },
];

function makePartnerLogo(b: Brand): string {
  const w = 240;
  const h = 120;
  const doc = new Doc(w, h);
  let out = `<rect width="${w}" height="${h}" fill="#fff"/>`;
  if (b.layout === 'row') {
    const zhSize = Math.min(24, 140 / [...b.zh].length);
    const enSize = Math.min(12, 140 / (b.en.length * 0.6));
    out += icon(b.icon, 20, 36, b.c1, b.c2);
    out += text(80, 62, b.zh, zhSize, C.ink, { weight: 700, spacing: 1 });
    out += text(81, 82, b.en, enSize, b.c1 === '#fff' ? C.ink : b.c1, { weight: 700, spacing: 0.3 });
  } else {
    const zhSize = Math.min(20, 200 / [...b.zh].length);
    const enSize = Math.min(11, 200 / (b.en.length * 0.6));
    out += icon(b.icon, 96, 12, b.c1, b.c2);
    out += text(120, 86, b.zh, zhSize, C.ink, { weight: 700, anchor: 'middle', spacing: 1.5 });
    out += text(120, 104, b.en, enSize, b.c1, { weight: 700, anchor: 'middle', spacing: 0.4 });
  }
  return doc.render(out);
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

const GALLERY: GalleryKind[] = [
  'start',
  'bridge',
  'dawn',
  'lanternStreet',
  'crowd',
  'aid',
  'boats',
  'finish',
  'medal',
  'nightTown',
  'willowRun',
  'family',
];

function main(): void {
  rmSync(OUT, { recursive: true, force: true });
  const files: Record<string, string> = {
    'logo.svg': makeLogo(),
    'logo-h5.svg': makeLogoH5(),
    'copyright-zh.svg': makeCopyright('zh'),
    'copyright-en.svg': makeCopyright('en'),
    'copyright-h5.svg': makeCopyright('h5'),
    'qr-app.svg': makeQr(11, C.blue, 'logo'),
    'qr-wechat.svg': makeQr(12, '#07c160', 'wechat'),
    'qr-weibo.svg': makeQr(13, C.red, 'weibo'),
    'banner-ad-1.svg': makeBannerAd(1),
    'banner-ad-2.svg': makeBannerAd(2),
    'ad-top-1.svg': makeWideAd('bank', 21),
    'ad-top-2.svg': makeWideAd('hotel', 22),
    'ad-bottom-1.svg': makeWideAd('goods', 23),
    'ad-bottom-2.svg': makeWideAd('volunteer', 24),
    'race-poster.svg': makePoster(),
    'route-map.svg': makeRouteMap(),
  };
  for (let i = 1; i <= 4; i += 1) files[`carousel-${i}.svg`] = makeCarousel(i);
  GALLERY.forEach((kind, i) => {
    files[`gallery/gallery-${String(i + 1).padStart(2, '0')}.svg`] = makeGallery(i + 1, kind);
  });
  const videos: Array<[GalleryKind, string, string]> = [
    ['bridge', '2026 青川运河马拉松 官方集锦', '2026 Official Highlights'],
    ['start', '鸣枪时刻 · 两万人同跑运河', 'Start: 20,000 runners on the canal'],
    ['nightTown', '千灯廊夜跑嘉年华', 'Night Run at the Lantern Corridor'],
    ['finish', '终点线上的笑与泪', 'Smiles and Tears at the Finish'],
  ];
  videos.forEach(([kind, t, te], i) => {
    files[`video/video-poster-${i + 1}.svg`] = makeVideoPoster(i + 1, kind, t, te);
  });
  for (const b of BRANDS) files[`partners/${b.file}.svg`] = makePartnerLogo(b);

  let total = 0;
  let largest = ['', 0] as [string, number];
  for (const [name, svg] of Object.entries(files)) {
    const path = join(OUT, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, svg);
    const size = Buffer.byteLength(svg);
    total += size;
    if (size > largest[1]) largest = [name, size];
    if (size > 40 * 1024) throw new Error(`${name} is ${size} bytes (limit 40 KB)`);
  }
  if (total > 1.5 * 1024 * 1024) throw new Error(`total ${total} bytes exceeds 1.5 MB`);
  const count = listFiles(OUT).length;
  console.log(
    `wrote ${count} SVGs to ${relative(process.cwd(), OUT)}: ${(total / 1024).toFixed(1)} KB total, largest ${largest[0]} ${(largest[1] / 1024).toFixed(1)} KB`,
  );
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

main();
