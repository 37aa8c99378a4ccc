/**
 * The site-configuration document (spec §3 "Site configuration", "Content groups", "Route item",
 * "Data config"). One schema serves three edges: the SPA parses what the server sends, the reference
 * server refuses to publish a document that fails it, and the organiser CLI prints every error with its
 * JSON path. Unknown keys are kept (a newer document still loads in an older SPA).
 *
 * zod/mini keeps this small in the SPA bundle.
 */
import * as z from 'zod/mini';

const id = z.union([z.string(), z.number()]);
const text = z.string();
const optText = z.optional(z.string());
const flag01 = z.union([z.literal(0), z.literal(1)]);
/** 1 external link (new tab), 2 internal route. */
const jumpType = z.union([z.literal(1), z.literal(2)]);

export const routeMetaSchema = z.looseObject({
  title: text,
  titleEn: optText,
  parent: optText,
  /** Dotted path into contentGroups, e.g. "raceInformation.raceRules". */
  dataPath: optText,
  /** Path of the menu item to highlight while a hidden route is shown. */
  activeMenu: optText,
  /** External link: the menu item opens it in a new tab. */
  link: optText,
  hidden: z.optional(z.boolean()),
});

export interface RouteItem {
  name?: string;
  path: string;
  component?: string;
  redirect?: string;
  hidden?: boolean;
  meta?: z.infer<typeof routeMetaSchema>;
  children?: RouteItem[];
}

export const routeItemSchema: z.ZodMiniType<RouteItem> = z.looseObject({
  name: optText,
  path: text,
  component: optText,
  redirect: optText,
  hidden: z.optional(z.boolean()),
  meta: z.optional(routeMetaSchema),
  get children() {
    return z.optional(z.array(routeItemSchema));
  },
});

export const documentPageSchema = z.looseObject({
  id,
  /** Epoch milliseconds. */
  time: z.optional(z.number()),
  title: text,
  titleEn: optText,
  summary: optText,
  summaryEn: optText,
  recommend: z.optional(z.boolean()),
  /** HTML, rendered only through the sanitising component. */
  content: optText,
  contentEn: optText,
  /** External article: the item opens it in a new tab instead of the document page. */
  jumpUrl: optText,
  /** Sponsor / partner profile icon. */
  icon: optText,
});

const linkItem = z.looseObject({ id, label: text, labelEn: optText, link: text });

const adItem = z.looseObject({
  surfacePlotUrl: text,
  jumpUrl: optText,
  jumpUrlEn: optText,
  title: optText,
  titleEn: optText,
});

const carouselItem = z.looseObject({
  surfacePlotUrl: text,
  jumpUrl: optText,
  title: optText,
  titleEn: optText,
});

const pictureItem = z.looseObject({
  surfacePlotUrl: text,
  jumpUrl: optText,
  recommend: z.optional(z.boolean()),
  src: optText,
  title: optText,
  titleEn: optText,
});

const videoItem = z.looseObject({
  id,
  pic: text,
  recommend: z.optional(z.boolean()),
  summary: optText,
  summaryEn: optText,
  src: text,
  title: optText,
  titleEn: optText,
});

const partnerGroup = z.looseObject({
  id,
  label: text,
  labelEn: optText,
  /** One of PARTNER_CATEGORY_ORDER. */
  code: text,
  children: z.array(z.looseObject({ id, src: text, href: optText, name: optText, nameEn: optText })),
});

const searchSwitch = z.looseObject({
  openStatus: flag01,
  dialogText: optText,
  dialogTextEn: optText,
  jumpType: z.optional(jumpType),
  jumpUrl: optText,
  useMultipleSearch: z.optional(z.boolean()),
});

const searchConfig = z.looseObject({
  id,
  title: text,
  titleEn: optText,
  subTitle: optText,
  subTitleEn: optText,
  /** 1 sign up, 2 registration search, 3 score search, 4 photo search. */
  moduleType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  signUpStartTime: optText,
  signUpEndTime: optText,
  signUpTimeTitle: optText,
  signUpTimeTitleEn: optText,
  jumpType,
  jumpUrl: optText,
  openStatus: flag01,
  dialogText: optText,
  dialogTextEn: optText,
});

const multipleSearchRace = z.looseObject({
  raceId: id,
  raceName: text,
  raceNameEn: optText,
  year: z.optional(z.number()),
});

/** groupName → sub-group name → documents (a document page shows the first; a news page lists them). */
const contentGroups = z.record(z.string(), z.record(z.string(), z.array(documentPageSchema)));

export const siteConfigSchema = z.looseObject({
  version: text,
  build: z.optional(z.union([z.string(), z.number()])),
  websiteTitle: text,
  websiteTitleEn: optText,
  logo: text,
  logoH5: optText,
  /** Footer copyright images: Chinese, English, mobile. */
  copyright: optText,
  copyrightEn: optText,
  copyrightH5: optText,
  /** Filing links in the footer: public-security filing and ICP filing. */
  websiteRegInfo: z.optional(z.array(linkItem)),
  /** QR codes: the app download code shown in the login drawer, and social accounts. */
  appQrCode: optText,
  qrCodeList: z.optional(z.array(z.looseObject({ id, label: text, labelEn: optText, src: text }))),
  /** Ads in the top banner. */
  bannerAdList: z.optional(z.array(adItem)),
  adListTop: z.optional(z.array(adItem)),
  adListBottom: z.optional(z.array(adItem)),
  carouselList: z.optional(z.array(carouselItem)),
  /** The route map on the home page; without it the home page uses the race's route image (imgDetail). */
  routeMap: z.optional(
    z.looseObject({
      image: text,
      title: optText,
      titleEn: optText,
      summary: optText,
      summaryEn: optText,
      /** Where "full route" goes: usually the race-route document page. */
      jumpUrl: optText,
    }),
  ),
  wonderfulPictures: z.optional(z.array(pictureItem)),
  videoCollections: z.optional(z.array(videoItem)),
  cooperativePartnerList: z.optional(z.array(partnerGroup)),
  registrationSearch: z.optional(searchSwitch),
  scoreSearch: z.optional(searchSwitch),
  pictureSearch: z.optional(searchSwitch),
  searchConfigList: z.optional(z.array(searchConfig)),
  multipleSearchRaceList: z.optional(z.array(multipleSearchRace)),
  /**
   * Text that belongs to this event, shown in the footer (and wherever a page names the organiser):
   * never from the server-wide translation files, so two races on one server never mix.
   */
  eventInfo: z.optional(
    z.looseObject({
      slogan: optText,
      sloganEn: optText,
      /** One line per role, e.g. 主办单位 / Hosted by → 青川市人民政府. */
      organizers: z.optional(z.array(z.looseObject({ role: text, roleEn: optText, names: text, namesEn: optText }))),
      /** Phone number as dialled, e.g. 400-820-2027. */
      hotline: optText,
      /** When the hotline answers, e.g. 工作日 9:00-18:00. */
      hotlineHours: optText,
      hotlineHoursEn: optText,
      email: optText,
    }),
  ),
  /** Also read: race-app business type (default 1), email send type, app id. */
  raceAppBusinessType: z.optional(z.number()),
  emailSendType: z.optional(z.number()),
  appId: optText,
  /** Static menu groups (either variant of spec §2), shown after Home in this order. */
  menuGroups: z.optional(z.array(routeItemSchema)),
  /** Remote route list: 'Layout' marks the container, 'ParentView' children are flattened. */
  remoteAsyncRoutes: z.optional(z.array(routeItemSchema)),
  contentGroups: z.optional(contentGroups),
});

export type SiteConfig = z.infer<typeof siteConfigSchema>;
export type DocumentPage = z.infer<typeof documentPageSchema>;
export type RouteMeta = z.infer<typeof routeMetaSchema>;
export type AdItem = z.infer<typeof adItem>;
export type CarouselItem = z.infer<typeof carouselItem>;
export type RouteMap = NonNullable<SiteConfig['routeMap']>;
export type PictureItem = z.infer<typeof pictureItem>;
export type VideoItem = z.infer<typeof videoItem>;
export type PartnerGroup = z.infer<typeof partnerGroup>;
export type SearchSwitch = z.infer<typeof searchSwitch>;
export type SearchConfig = z.infer<typeof searchConfig>;
export type LinkItem = z.infer<typeof linkItem>;
export type EventInfo = NonNullable<SiteConfig['eventInfo']>;

/** Partner categories in the order of spec §3. */
export const PARTNER_CATEGORY_ORDER = [
  'titleSponsor',
  'eventPartner',
  'eventSponsor',
  'eventSupporter',
  'eventSupplier',
  'officialTourismCooperationPlatform',
  'publicWelfarePartner',
  'officialTechnicalServices',
] as const;

export interface ConfigProblem {
  /** JSON path, e.g. "$.carouselList[2].surfacePlotUrl". */
  path: string;
  message: string;
}

export function formatJsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : `${acc}.${String(key)}`), '$');
}

/** Every problem of a document, each with its JSON path (used by the CLI and the server). */
export function validateSiteConfig(raw: unknown): ConfigProblem[] {
  const result = siteConfigSchema.safeParse(raw);
  if (result.success) return [];
  return result.error.issues.map((issue) => ({
    path: formatJsonPath(issue.path),
    message: issue.message,
  }));
}

type Mutable = Record<PropertyKey, unknown> | unknown[];

/** Removes the smallest broken part named by `path`: the innermost array item, else the field. */
function pruneAt(root: Mutable, path: readonly PropertyKey[]): boolean {
  let cut = -1;
  let node: unknown = root;
  for (let i = 0; i < path.length; i += 1) {
    if (Array.isArray(node) && typeof path[i] === 'number') cut = i;
    if (node === null || typeof node !== 'object') break;
    node = (node as Record<PropertyKey, unknown>)[path[i] as string];
  }
  const end = cut >= 0 ? cut : path.length - 1;
  if (end < 0) return false;
  let parent: unknown = root;
  for (let i = 0; i < end; i += 1) parent = (parent as Record<PropertyKey, unknown>)[path[i] as string];
  if (Array.isArray(parent) && typeof path[end] === 'number') {
    parent.splice(path[end], 1);
    return true;
  }
  if (parent && typeof parent === 'object' && path[end] !== undefined) {
    delete (parent as Record<PropertyKey, unknown>)[path[end] as string];
    return true;
  }
  return false;
}

/**
 * Tolerant parse for the SPA: broken parts are dropped (an array item, else the field) so the rest of the
 * site still shows; the problems are returned for reporting. Fails only when the document is not an
 * object or its required top-level fields are broken.
 */
export function parseSiteConfigTolerant(
  raw: unknown,
): { ok: true; config: SiteConfig; problems: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [{ path: '$', message: 'The site configuration is not a JSON object' }] };
  }
  const doc = structuredClone(raw) as Record<string, unknown>;
  const problems: ConfigProblem[] = [];
  for (let round = 0; round < 50; round += 1) {
    const result = siteConfigSchema.safeParse(doc);
    if (result.success) return { ok: true, config: result.data, problems };
    let pruned = false;
    for (const issue of result.error.issues) {
      problems.push({ path: formatJsonPath(issue.path), message: issue.message });
      const required = issue.path.length === 1 && ['version', 'websiteTitle', 'logo'].includes(String(issue.path[0]));
      if (issue.path.length === 0 || required) return { ok: false, problems };
      pruned = pruneAt(doc, issue.path) || pruned;
      break; // paths shift after a splice: re-validate before pruning the next one
    }
    if (!pruned) return { ok: false, problems };
  }
  return { ok: false, problems };
}
