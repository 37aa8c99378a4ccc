/**
 * The lookup bodies' rules and the hot path's shapes (lib/hot-path.ts). `lookupRefusal` is the one verdict
 * of the contract's rules (#contract/rules) on a lookup body's bib and name, the same the SPA's forms give:
 * the routes answer its refusal, and the hot path takes only bodies it passes. The hot shapes are exactly
 * `{ raceId, bib }` or `{ raceId, name, certificateNumber }`, checked no looser than the route schemas
 * (schemas.ts), so the hot path only ever answers what the route would have answered the same way. Anything
 * else (a refused body included) goes through the route.
 */
import type { Refusal } from '#contract/messages';
import { checkBib, checkName } from '#contract/rules';

/**
 * The contract's verdict on a lookup body: its bib (checkBib, as the SPA trims it) and its name (the required-text
 * rule: more than spaces and double quotes), each when the body carries one. Certificate numbers are not checked: the lookup bodies
 * carry no certificate type.
 */
export function lookupRefusal(body: object): Refusal | null {
  const { bib, name } = body as { bib?: unknown; name?: unknown };
  if (bib !== undefined) {
    const refusal = checkBib(typeof bib === 'string' ? bib : '');
    if (refusal) return refusal;
  }
  if (name !== undefined) return checkName(typeof name === 'string' ? name : '');
  return null;
}

export interface BibQuery {
  raceId: string;
  bib: string;
}

export interface ScoreQuery {
  raceId: string;
  bib?: string;
  name?: string;
  certificateNumber?: string;
}

/** A string the route schemas' `str(max)` takes: UTF-16 length bounds code points from above. */
const plainString = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= max;
const RACE_ID = /^[\w.-]{1,64}$/;

/**
 * `{"raceId":"…","bib":"…"}` exactly as the SPA and most clients write it (those keys in that order, no
 * spaces, no escapes): read with one expression instead of JSON.parse and the checks below. The characters
 * it allows are those RACE_ID and checkBib allow, so it takes only what plainBibQuery takes (an all-zero bib
 * is left to it, which refuses it); any other spelling goes through JSON.parse and plainBibQuery.
 */
const BIB_TEXT = /^\{"raceId":"([\w.-]{1,64})","bib":"([A-Za-z0-9]{1,20})"\}$/;
export function plainBibText(text: string): BibQuery | undefined {
  const match = BIB_TEXT.exec(text);
  if (match === null || /^0+$/.test(match[2]!)) return undefined;
  return { raceId: match[1]!, bib: match[2]! };
}

/** Exactly `{ raceId, bib }`. */
export function plainBibQuery(body: unknown): BibQuery | undefined {
  const fields = plainFields(body, 2);
  return fields && plainString(fields.bib, 20) && lookupRefusal(fields) === null
    ? { raceId: fields.raceId, bib: fields.bib }
    : undefined;
}

/** Exactly `{ raceId, name, certificateNumber }`. */
export function plainPersonQuery(body: unknown): ScoreQuery | undefined {
  const fields = plainFields(body, 3);
  return fields &&
    plainString(fields.name, 50) &&
    plainString(fields.certificateNumber, 32) &&
    lookupRefusal(fields) === null
    ? { raceId: fields.raceId, name: fields.name, certificateNumber: fields.certificateNumber }
    : undefined;
}

/** An object of exactly `count` fields, one of them a valid raceId. */
function plainFields(body: unknown, count: number): (Record<string, unknown> & { raceId: string }) | undefined {
  if (typeof body !== 'object' || body === null || Object.keys(body).length !== count) return undefined;
  const fields = body as Record<string, unknown>;
  return typeof fields.raceId === 'string' && RACE_ID.test(fields.raceId)
    ? (fields as Record<string, unknown> & { raceId: string })
    : undefined;
}
