/**
 * The site-configuration document (spec §3 "Site configuration", "Content groups", "Route item",
 * "Data config"). One schema serves three edges: the SPA parses what the server sends, the reference
 * server refuses to publish a document that fails it, and the organiser CLI prints every error with its
 * JSON path. Unknown keys are kept (a newer document still loads in an older SPA). Every document first
 * passes boundDocument (document-limits.ts), so the schema never sees one deeper than its limit; the
 * checks a schema cannot make (page components, dataPaths, misplaced keys) are in site-config-checks.ts.
 * Organisers read docs/site-config.md; docs/site-config.schema.json is generated from this file.
 *
 * zod/mini keeps this small in the SPA bundle.
 */
import * as z from 'zod/mini';
import { linkProblem } from '#contract/link-safety';
import { raceTimeProblem } from '#contract/site-config/race-time';
import { boundDocument, formatJsonPath, type ConfigProblem } from '#contract/site-config/document-limits';

const id = z.union([z.string(), z.number()]);
const text = z.string();
const optText = z.optional(z.string());
/**
 * A link or an image URL: refused when unsafe (javascript:, data:, vbscript:, file:, control characters,
 * backslash tricks). The rule itself is inspectLink, shared with the SPA.
 */
const link = z.string().check(
  z.refine((value) => linkProblem(value) === undefined, {
    error: (issue) => linkProblem(issue.input as string) ?? 'unsafe link',
  }),
);
const optLink = z.optional(link);
/** A race time: 'YYYY-MM-DD HH:mm:ss', China time (the rule is raceTimeProblem, shared with add-race). */
const optTime = z.optional(
  z.string().check(
    z.refine((value) => raceTimeProblem(value) === undefined, {
      error: (issue) => raceTimeProblem(issue.input as string) ?? 'not a race time',
    }),
  ),
);
/** 0 closed, 1 open. */
const flag01 = z.literal([0, 1]);
/** 1 external link (new tab), 2 internal route. */
const jumpType = z.literal([1, 2]);

export const routeMetaSchema = z.looseObject({
  title: text,
  titleEn: optText,
  parent: optText,
  /** Dotted path into contentGroups, e.g. "raceInformation.raceRules". */
  dataPath: optText,
  /** Path of the menu item to highlight while a hidden route is shown. */
  activeMenu: optText,
  /** External link: the menu item opens it in a new tab. */
  link: optLink,
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
  jumpUrl: optLink,
  /** Sponsor / partner profile icon. */
  icon: optLink,
});

const linkItem = z.looseObject({ id, label: text, labelEn: optText, link });

const adItem = z.looseObject({
  surfacePlotUrl: link,
  jumpUrl: optLink,
  jumpUrlEn: optLink,
  title: optText,
  titleEn: optText,
  /** Shown only while sign-up is open (an ad that announces it): hidden once it closes (entry-close, its end). */
  whileSignUpOpen: z.optional(z.boolean()),
});

const carouselItem = z.looseObject({
  surfacePlotUrl: link,
  jumpUrl: optLink,
  title: optText,
  titleEn: optText,
});

const pictureItem = z.looseObject({
  surfacePlotUrl: link,
  jumpUrl: optLink,
  recommend: z.optional(z.boolean()),
  src: optLink,
  title: optText,
  titleEn: optText,
});

const videoItem = z.looseObject({
  id,
  pic: link,
  recommend: z.optional(z.boolean()),
  summary: optText,
  summaryEn: optText,
  src: link,
  title: optText,
  titleEn: optText,
});

const partnerGroup = z.looseObject({
  id,
  label: text,
  labelEn: optText,
  /** One of PARTNER_CATEGORY_ORDER. */
  code: text,
  children: z.array(z.looseObject({ id, src: link, href: optLink, name: optText, nameEn: optText })),
});

const searchSwitch = z.looseObject({
  openStatus: flag01,
  dialogText: optText,
  dialogTextEn: optText,
  jumpType: z.optional(jumpType),
  jumpUrl: optLink,
  useMultipleSearch: z.optional(z.boolean()),
});

const searchConfig = z.looseObject({
  id,
  title: text,
  titleEn: optText,
  subTitle: optText,
  subTitleEn: optText,
  /** 1 sign up, 2 registration search, 3 score search, 4 photo search. */
  moduleType: z.literal([1, 2, 3, 4]),
  signUpStartTime: optTime,
  signUpEndTime: optTime,
  signUpTimeTitle: optText,
  signUpTimeTitleEn: optText,
  jumpType,
  jumpUrl: optLink,
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
  /** The JSON Schema an organiser's editor checks the document with (docs/site-config.schema.json). */
  $schema: optText,
  version: text,
  build: z.optional(z.union([z.string(), z.number()])),
  websiteTitle: text,
  websiteTitleEn: optText,
  logo: link,
  logoH5: optLink,
  /** Footer copyright images: Chinese, English, mobile. */
  copyright: optLink,
  copyrightEn: optLink,
  copyrightH5: optLink,
  /** Filing links in the footer: public-security filing and ICP filing. */
  websiteRegInfo: z.optional(z.array(linkItem)),
  /** QR codes: the app download code shown in the login drawer, and social accounts. */
  appQrCode: optLink,
  qrCodeList: z.optional(z.array(z.looseObject({ id, label: text, labelEn: optText, src: link }))),
  /** Ads in the top banner. */
  bannerAdList: z.optional(z.array(adItem)),
  adListTop: z.optional(z.array(adItem)),
  adListBottom: z.optional(z.array(adItem)),
  carouselList: z.optional(z.array(carouselItem)),
  /** The route map on the home page; without it the home page uses the race's route image (imgDetail). */
  routeMap: z.optional(
    z.looseObject({
      image: link,
      title: optText,
      titleEn: optText,
      summary: optText,
      summaryEn: optText,
      /** Where "full route" goes: usually the race-route document page. */
      jumpUrl: optLink,
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

export { formatJsonPath, type ConfigProblem };

/** What the allowed values of an enumerated field mean, for the messages. */
export const VALUE_MEANINGS: Record<string, string> = {
  moduleType: '1 sign up, 2 registration search, 3 score search, 4 photo search',
  jumpType: '1 external link (new tab), 2 route of this site',
  openStatus: '0 closed, 1 open',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** A short description of a value for a message: its type, and the value when it is short. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the text ${JSON.stringify(shown)}`;
  }
  return `${typeof value === 'number' ? 'the number' : ''} ${String(value)}`.trim();
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  values?: unknown[];
  errors?: Issue[][];
}

function expectedOf(issue: Issue): string[] {
  if (issue.code === 'invalid_type' && issue.expected) return [TYPE_NAMES[issue.expected] ?? issue.expected];
  if (issue.code === 'invalid_union') return (issue.errors ?? []).flatMap((alt) => alt.flatMap(expectedOf));
  return [];
}

/** The organiser-facing message of a schema issue: what is expected, the allowed values, what was found. */
function issueMessage(issue: Issue): string {
  const got = describeValue(issue.input);
  if (issue.code === 'invalid_value' && issue.values) {
    const key = String(issue.path[issue.path.length - 1] ?? '');
    const meaning = VALUE_MEANINGS[key] ? ` (${VALUE_MEANINGS[key]})` : '';
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}${meaning}; got ${got}`;
  }
  const expected = [...new Set(expectedOf(issue))];
  if (expected.length > 0) {
    const wanted = expected.join(' or ');
    return issue.input === undefined ? `required: ${wanted}` : `expected ${wanted}, got ${got}`;
  }
  return issue.message;
}

function toProblem(issue: Issue): ConfigProblem {
  return { path: formatJsonPath(issue.path), message: issueMessage(issue) };
}

/**
 * Every problem of a document, each with its JSON path (used by the CLI and the server): limits first
 * (depth, list and text lengths, size), then the schema, run on the part of the document within the limits.
 */
export function validateSiteConfig(raw: unknown): ConfigProblem[] {
  return validateBoundedSiteConfig(boundDocument(raw));
}

/** validateSiteConfig for a document already passed through boundDocument. */
export function validateBoundedSiteConfig(bounded: ReturnType<typeof boundDocument>): ConfigProblem[] {
  const result = siteConfigSchema.safeParse(bounded.value, { reportInput: true });
  return [...bounded.problems, ...(result.success ? [] : (result.error.issues as Issue[]).map(toProblem))];
}

interface SchemaDef {
  type: string;
  innerType?: SchemaLike;
  shape?: Record<string, SchemaLike>;
  element?: SchemaLike;
  valueType?: SchemaLike;
}
interface SchemaLike {
  _zod: { def: SchemaDef };
}

const defOf = (schema: unknown): SchemaDef | undefined => (schema as SchemaLike | undefined)?._zod?.def;

/** The schema of the value at `path` (undefined where the document may hold anything). */
export function schemaAt(path: readonly PropertyKey[], root: unknown = siteConfigSchema): SchemaLike | undefined {
  let schema = root as SchemaLike | undefined;
  for (const key of path) {
    let def = defOf(schema);
    while (def?.type === 'optional') def = defOf(def.innerType);
    if (!def) return undefined;
    if (def.type === 'object' && typeof key === 'string')
      schema = Object.hasOwn(def.shape!, key) ? def.shape![key] : undefined;
    else if (def.type === 'array' && typeof key === 'number') schema = def.element;
    else if (def.type === 'record') schema = def.valueType;
    else return undefined;
  }
  return schema;
}

/** Whether the value at `path` can be left out without breaking its container. */
function removable(path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  if (typeof path[path.length - 1] === 'number') return true; // a list item
  const parent = defOf(schemaAt(path.slice(0, -1)));
  const parentType = parent?.type === 'optional' ? defOf(parent.innerType)?.type : parent?.type;
  if (parentType === 'record') return true;
  const own = schemaAt(path);
  return own === undefined || defOf(own)?.type === 'optional';
}

type Container = Record<PropertyKey, unknown> | unknown[];

/**
 * The smallest part to leave out for an issue at `path`: the broken value itself when it is optional, else
 * the nearest list item or optional field around it. Undefined when only the whole document would do.
 */
function pruneTarget(
  doc: Container,
  path: readonly PropertyKey[],
): { container: Container; key: PropertyKey } | undefined {
  // Walk down as far as the document goes (a missing required field names a path that is not there).
  const nodes: unknown[] = [doc];
  for (const key of path) {
    const node = nodes[nodes.length - 1];
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) break;
    nodes.push((node as Record<PropertyKey, unknown>)[key as string]);
  }
  let depth = nodes.length - 1; // path[0..depth) exists
  while (depth > 0 && !removable(path.slice(0, depth))) depth -= 1;
  if (depth === 0) return undefined;
  return { container: nodes[depth - 1] as Container, key: path[depth - 1] };
}

function prune(targets: Array<{ container: Container; key: PropertyKey }>): void {
  const fromLists = new Map<unknown[], Set<number>>();
  for (const { container, key } of targets) {
    if (Array.isArray(container) && typeof key === 'number') {
      const indexes = fromLists.get(container) ?? new Set<number>();
      indexes.add(key);
      fromLists.set(container, indexes);
    } else {
      delete (container as Record<PropertyKey, unknown>)[key as string];
    }
  }
  for (const [list, indexes] of fromLists) {
    for (const index of [...indexes].sort((a, b) => b - a)) list.splice(index, 1);
  }
}

/**
 * Tolerant parse for the SPA: broken parts are dropped (the broken field when it is optional, else the
 * list item or optional field around it) so the rest of the site still shows, however many parts are
 * broken; parts beyond the document limits are dropped too. The problems are returned for reporting.
 * Fails only when the document is not an object or its required top-level fields are broken.
 */
export function parseSiteConfigTolerant(
  raw: unknown,
): { ok: true; config: SiteConfig; problems: ConfigProblem[] } | { ok: false; problems: ConfigProblem[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [{ path: '$', message: 'The site configuration is not a JSON object' }] };
  }
  const bounded = boundDocument(raw);
  const doc = bounded.value as Record<string, unknown>;
  const problems: ConfigProblem[] = [...bounded.problems];
  // Each round drops every broken part the schema found; dropping an optional part or a list item cannot
  // break anything else, so a second round normally passes. The bound only guards against surprises.
  for (let round = 0; round < 8; round += 1) {
    const result = siteConfigSchema.safeParse(doc, { reportInput: true });
    if (result.success) return { ok: true, config: result.data, problems };
    const targets = [];
    for (const issue of result.error.issues as Issue[]) {
      problems.push(toProblem(issue));
      const target = pruneTarget(doc, issue.path);
      if (!target) return { ok: false, problems };
      targets.push(target);
    }
    prune(targets);
  }
  return { ok: false, problems };
}
