/**
 * The request and answer schemas of the race-center routes. The hot path's shape checks
 * (hot-path-shapes.ts) must stay no looser than these.
 */
import { ITEM_CODE_PATTERN } from '#contract/entry';
import { EXPORT_LANGUAGES } from '#contract/score-export';
import { REGISTRATION_QUERY_TYPES } from '../../lib/race-center.ts';

const str = (max: number) => ({ type: 'string', minLength: 1, maxLength: max }) as const;
export const raceId = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[\\w.-]+$' } as const;
/** Bib and name: their bounds only, so that an empty one gets the contract rule's message (hot-path-shapes.ts). */
const ruled = (max: number) => ({ type: 'string', maxLength: max }) as const;
const personKeys = { name: ruled(50), certificateNumber: str(32) } as const;

export const registrationBody = {
  type: 'object',
  required: ['raceId', 'name', 'certificateNumber'],
  properties: {
    raceId,
    ...personKeys,
    queryType: { type: 'integer', enum: [...REGISTRATION_QUERY_TYPES], default: 1 },
  },
} as const;

export const scoreBody = {
  type: 'object',
  required: ['raceId'],
  properties: { raceId, bib: ruled(20), ...personKeys },
} as const;

export const personBody = { type: 'object', required: ['name', 'certificateNumber'], properties: personKeys } as const;

export const historyBody = {
  type: 'object',
  required: ['name', 'certificateNumber'],
  properties: { ...personKeys, raceIds: { type: 'array', maxItems: 50, items: raceId } },
} as const;

export const photosBody = {
  type: 'object',
  required: ['raceId', 'bib'],
  properties: { raceId, bib: ruled(20) },
} as const;

export const raceIdQuery = { type: 'object', required: ['raceId'], properties: { raceId } } as const;

export const certificateQuery = {
  type: 'object',
  required: ['id', 'sig'],
  properties: { id: { type: 'string', minLength: 3, maxLength: 90 }, sig: { type: 'string', maxLength: 100 } },
} as const;

export const exportBody = {
  type: 'object',
  required: ['raceId'],
  // Any item code of the race (race.json entry.items: 5K, 30K, a trail…), not only M, H and 10K.
  properties: {
    raceId,
    item: { type: 'string', pattern: ITEM_CODE_PATTERN.source },
    language: { type: 'string', enum: EXPORT_LANGUAGES },
  },
} as const;

export const resultSchema = {
  type: 'object',
  properties: {
    raceId: { type: 'string' },
    raceName: { type: 'string' },
    raceNameEn: { type: 'string' },
    raceDate: { type: 'string' },
    bib: { type: 'string' },
    name: { type: 'string' },
    gender: { type: 'integer' },
    item: { type: 'string' },
    itemName: { type: 'string' },
    itemNameEn: { type: 'string' },
    distanceKm: { type: 'number' },
    gunTime: { type: 'string' },
    chipTime: { type: 'string' },
    gunMs: { type: 'integer' },
    chipMs: { type: 'integer' },
    pace: { type: 'string' },
    splits: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          checkpoint: { type: 'string' },
          distanceKm: { type: 'number' },
          time: { type: 'string' },
          split: { type: 'string' },
          pace: { type: 'string' },
        },
      },
    },
    ranks: {
      type: 'object',
      properties: {
        overall: { type: 'integer' },
        gender: { type: 'integer' },
        ageGroup: { type: 'integer' },
        ageGroupLabel: { type: 'string' },
        finishers: { type: 'integer' },
      },
    },
    certificate: { type: 'object', properties: { id: { type: 'string' }, sig: { type: 'string' } } },
  },
} as const;
