/**
 * The console's mailing and letters pages (issue 32): what the server answers and the page shows. Mailing: the
 * runners who chose to have their race pack mailed (services/after-entry/mailing.ts, CLI mailing-export /
 * mailing-import), with the tracking-number import checked first (a preview with every bad row by its line)
 * and then written. Letters: who has and has not signed the race's current commitment letter
 * (services/after-entry/letter.ts, CLI letters-status / letters-export).
 */
import type { LocalText } from '#contract/registration-form';

/** Rows of the mailing and letters lists per page. */
export const CONSOLE_LIST_PAGE_SIZE = 20;

/** A parcel waits for its tracking number, or has been shipped with one. */
export const PARCEL_STATES = ['waiting', 'shipped'] as const;
export type ParcelState = (typeof PARCEL_STATES)[number];

/** One runner who chose mailing, as the console lists them. */
export interface MailingRowView {
  /** The account id: the key of the tracking file's rows. */
  key: string;
  name: string;
  /** Masked unless the member may see whole personal numbers (entries.personal). */
  phone: string;
  /** Province, city, district (Chinese names). */
  region: string[];
  address: string;
  /** The runner's entries holding a place: number, item, bib. */
  entries: string[];
  state: ParcelState;
  carrier: string | null;
  trackingNo: string | null;
  shippedAt: number | null;
  updatedAt: number;
}

export interface MailingCounts {
  /** Every runner who chose mailing. */
  toSend: number;
  /** Of them, shipped with a tracking number. */
  shipped: number;
  /** Of them, still without a tracking number. */
  waiting: number;
  /** Runners who collect their pack on site instead. */
  pickups: number;
}

/** GET /races/:raceId/mailing?state=&page= */
export interface MailingPageAnswer {
  counts: MailingCounts;
  rows: MailingRowView[];
  /** Rows matching the filter (all pages). */
  total: number;
  page: number;
  pageSize: number;
  /** Whether phones are whole (here and in the export). */
  wholePhones: boolean;
}

/** The columns of the tracking file: the list's key, then the carrier and the tracking number. */
export const TRACKING_COLUMNS = ['key', 'carrier', 'trackingNo'] as const;

/** What a bad row of a tracking file is, for the console's message (`mailing.problems.<code>`). */
export type TrackingProblemCode =
  | 'keyEmpty'
  | 'keyUnknown'
  | 'keyPickup'
  | 'keyDuplicate'
  | 'carrierEmpty'
  | 'carrierTooLong'
  | 'trackingEmpty'
  | 'trackingInvalid'
  | 'fieldCount';

export interface TrackingProblem {
  line: number;
  code: TrackingProblemCode;
  params: Record<string, string | number>;
  /** The same in English, as the CLI prints it (`line N: field: problem`). */
  text: string;
}

/** What a good row will do: ship a waiting parcel, change a shipped one's number, or repeat what is recorded. */
export type TrackingChange = 'new' | 'changed' | 'same';

export interface TrackingRowView {
  line: number;
  key: string;
  name: string;
  carrier: string;
  trackingNo: string;
  change: TrackingChange;
}

/** POST /races/:raceId/mailing/tracking/preview: nothing written. */
export interface TrackingPreviewAnswer {
  rows: TrackingRowView[];
  problems: TrackingProblem[];
}

/** POST /races/:raceId/mailing/tracking/import: the good rows written (runners messaged), the bad ones skipped. */
export interface TrackingImportAnswer {
  /** Parcels newly marked shipped, or whose carrier / tracking number changed. */
  shipped: number;
  /** Rows that repeat what is already recorded. */
  unchanged: number;
  problems: TrackingProblem[];
}

/** Where a registered entry stands with the letter: signed the current text, an older one, or not at all. */
export const LETTER_STANDINGS = ['current', 'older', 'unsigned'] as const;
export type LetterStanding = (typeof LETTER_STANDINGS)[number];

export interface LetterRowView {
  entryNo: string;
  itemCode: string;
  itemName: LocalText;
  name: string;
  /** Always masked. */
  certificate: string;
  standing: LetterStanding;
  signedAt: number | null;
  signerName: string | null;
  /** "name (relation)" of a co-signer. */
  guardian: string | null;
  relative: string | null;
}

/** GET /races/:raceId/letters?standing=&item=&page= */
export interface LettersPageAnswer {
  /** The race's letter; null when it has none or it is not enabled. */
  letter: {
    title: LocalText;
    versionHash: string;
    /** 'open' to sign, 'ended' at its deadline (or race day), 'closed' when not enabled. */
    state: 'open' | 'ended' | 'closed';
    deadline: string | null;
  } | null;
  counts: Record<LetterStanding, number>;
  items: { code: string; name: LocalText }[];
  rows: LetterRowView[];
  total: number;
  page: number;
  pageSize: number;
}
