/**
 * The organiser's staff (issue 30 §2): who may do what in the console. One table, read by the server (which
 * refuses what a role may not do, on every route) and by the console (which only hides what the server would
 * refuse). Staff accounts are separate from runner accounts.
 */

/** Where the console's calls live, and the header that carries the session's CSRF token on a changing call. */
export const ADMIN_API_PREFIX = '/api/admin';
export const CSRF_HEADER = 'x-csrf-token';

/** The roles, in the order the console lists them. */
export const STAFF_ROLES = ['owner', 'finance', 'service', 'checkIn', 'results', 'observer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);

/**
 * What a console route needs. A route names one permission; a role has a fixed set:
 * - figures: the dashboards and counts (every role but check-in);
 * - entries.read: find and open entries (masked personal numbers);
 * - entries.personal: whole certificate numbers and phones of one opened entry (the opening is logged);
 * - entries.edit: edit form answers, cancel, transfer, bibs;
 * - money: orders, payments, refunds, offline payments, money figures and exports;
 * - payments.reconcile: the providers' daily bills against our books (reconciliation), marking differences handled;
 * - season: open and close entry, invitation and direct-pass codes, the ballot (commit, draw, reveal, wait list),
 *   bib assignment;
 * - review: direct-pass applications and their documents, approved or rejected with a reason;
 * - pickup: pick-up slots and capacities, staff check-in keys, mailing export and tracking import, letters;
 * - messages: messages to runners (templates, audiences, sends, delivery);
 * - site: the race's website (content, carousel, ads, menus, the JSON document, preview, publish, versions),
 *   its asset library and its registration forms;
 * - race: the race itself (race.json: items, fees, capacities, windows, letter, pick-up, refunds), new races and
 *   the domains bound to them;
 * - checkIn: the pick-up check-in screen;
 * - results: results and photo imports;
 * - staff: add, change and remove staff; read and export the audit log.
 */
export const STAFF_PERMISSIONS = [
  'figures',
  'entries.read',
  'entries.personal',
  'entries.edit',
  'money',
  'payments.reconcile',
  'season',
  'review',
  'pickup',
  'messages',
  'site',
  'race',
  'checkIn',
  'results',
  'staff',
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<StaffRole, readonly StaffPermission[]> = {
  owner: STAFF_PERMISSIONS,
  finance: ['figures', 'entries.read', 'money', 'payments.reconcile'],
  service: ['figures', 'entries.read', 'entries.personal', 'entries.edit', 'review', 'pickup', 'messages', 'site'],
  checkIn: ['checkIn'],
  results: ['figures', 'results'],
  observer: ['figures'],
};

export function roleCan(role: StaffRole, permission: StaffPermission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export const rolePermissions = (role: StaffRole): readonly StaffPermission[] => ROLE_PERMISSIONS[role];

/** Roles that must sign in with a second factor (TOTP) once it is set up, and must set it up at first login. */
export const roleNeedsSecondFactor = (role: StaffRole): boolean => role === 'owner' || role === 'finance';

/** A staff password: 12-128 characters, letters and digits at least (longer than a runner's: more is at stake). */
export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_MAX = 128;
export function checkStaffPassword(password: string): 'tooShort' | 'tooLong' | 'tooSimple' | null {
  if (password.length < STAFF_PASSWORD_MIN) return 'tooShort';
  if (password.length > STAFF_PASSWORD_MAX) return 'tooLong';
  if (!/[A-Za-z]/.test(password) || !/\d/.test(password)) return 'tooSimple';
  return null;
}

/** A staff member's e-mail, as kept: trimmed, lower case; undefined when it is not an address. */
export function normalizeStaffEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  return /^[^\s@]{1,64}@[^\s@]{1,190}\.[a-z]{2,}$/.test(email) ? email : undefined;
}

/** How long a console session lasts without use, and at most. */
export const STAFF_SESSION_IDLE_MS = 30 * 60_000;
export const STAFF_SESSION_MAX_MS = 12 * 3_600_000;

/** A staff member as the console shows them (never the password hash or the second factor's secret). */
export interface StaffView {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** The races the member is limited to; null: every race of the organiser. */
  races: string[] | null;
  mustChangePassword: boolean;
  secondFactor: boolean;
  locked: boolean;
  createdAt: number;
}

/** The steps a member must take before the console opens: the one-time password, then (owner, finance) TOTP. */
export type StaffPendingStep = 'changePassword' | 'setUpSecondFactor';

/** GET /api/admin/me and the login's answer: who is signed in, what they may do, and the CSRF token to send. */
export interface ConsoleMe {
  staff: StaffView;
  permissions: readonly StaffPermission[];
  pending: StaffPendingStep[];
  csrf: string;
}

/** A race in the console's race picker. */
export interface ConsoleRace {
  raceId: string;
  raceName: { zh: string; en: string };
  startTime: string | null;
  /** The race's IANA time zone (contract/time-zone.ts raceTimeZone): the console shows its times in it. */
  timeZone: string;
}

/** POST /api/admin/totp/propose: a new secret and its otpauth:// link (shown as a QR code) to confirm with a code. */
export interface SecondFactorProposal {
  secret: string;
  link: string;
}

/** GET /api/admin/staff: a member with their last sign-in (epoch ms; null when they never signed in). */
export type StaffListed = StaffView & { lastSignInAt: number | null };

/** An open console session as its member (or an owner) sees it: when, from where, on what; never its tokens. */
export interface StaffSessionView {
  id: number;
  /** The session the request came with. */
  current: boolean;
  ip: string;
  /** The browser and system, summarised from the user agent ('Chrome 131 · Windows'), or '' when unknown. */
  device: string;
  createdAt: number;
  lastUsedAt: number;
  expiresAt: number;
}

/** A record of the audit log as the console lists it (GET /api/admin/audit). */
export interface AuditEntry {
  seq: number;
  at: number;
  /** 'staff:<id>' or 'cli:<os user>@<host>' */
  actor: string;
  /** The acting member's name and e-mail, or the command line's actor. */
  actorName: string;
  staffId: number | null;
  source: string;
  action: string;
  raceId: string | null;
  target: string;
  /** The values before and after, as JSON text (personal numbers masked), or null. */
  before: string | null;
  after: string | null;
  prevHash: string;
  hash: string;
}

/** One page of the audit log, newest first, and the `before` of the next (older) page, or null. */
export interface AuditPage {
  records: AuditEntry[];
  next: number | null;
}

/** GET /api/admin/audit/verify: the chain is intact (with its head hash), or where it breaks. */
export type AuditVerdict =
  { ok: true; count: number; head: string } | { ok: false; count: number; brokenAt: number; reason: string };
