/**
 * The console's direct-pass review (issue 32 §1; services/console/direct-review.ts, admin/src/pages/review):
 * the race's queue of applications and one application as its reviewer reads it, with the documents the
 * runner uploaded (served to staff only, never cached). Approving and rejecting are the CLI's direct-approve /
 * direct-reject: only a submitted application (status 1), and only as the reviewer last read it.
 */
import type { DirectStatus } from './registration-screens.ts';
import type { LocalText } from './registration-form.ts';

/** The longest reason of a rejection (the runner reads it in /direct); the CLI's limit too. */
export const DIRECT_REJECT_REASON_MAX = 500;

/** One application in the queue: the name masked. */
export interface DirectQueueItem {
  id: number;
  status: DirectStatus;
  name: string;
  createdAt: number;
  updatedAt: number;
  submittedAt?: number;
  reviewedAt?: number;
  /** How many documents the runner uploaded with it. */
  documents: number;
}

export interface DirectQueueAnswer {
  items: DirectQueueItem[];
  /** The race's count per status (for the filter). */
  counts: Record<DirectStatus, number>;
}

/** A document of an application: an image shown inline, anything else (a PDF) a link; `url` is staff-only. */
export interface DirectDocument {
  /** The form field it was uploaded to. */
  field: string;
  label?: LocalText;
  name: string;
  kind: 'image' | 'pdf' | 'file';
  url: string;
}

/** One value of the application, by the form's field (labels from the race's published direct form). */
export interface DirectReviewValue {
  key: string;
  label?: LocalText;
  /** What the reviewer reads: lists joined, a claimed result spelled out, personal numbers masked. */
  text: string;
  /** Set for a certificate-number or phone field: its whole value is a separate, logged read. */
  personal?: boolean;
  /** A claimed result (a scoreVerification field), for the page to word in its language. */
  claim?: DirectClaimShown;
}

/** A result the runner claims: one of ours (checked against our results) or from another race (check it). */
export type DirectClaimShown =
  | { source: 'own'; resultId: string; found: boolean; item?: string; chipTime?: string }
  | { source: 'outside'; raceName: string; raceDate: string; item: string; chipTime: string };

export interface DirectReviewDetail {
  id: number;
  raceId: string;
  status: DirectStatus;
  name: string;
  createdAt: number;
  updatedAt: number;
  submittedAt?: number;
  reviewedAt?: number;
  rejectReason?: string;
  values: DirectReviewValue[];
  documents: DirectDocument[];
}

/** The whole personal numbers of an application (permission entries.personal), by field key. */
export type DirectPersonalAnswer = Record<string, string>;
