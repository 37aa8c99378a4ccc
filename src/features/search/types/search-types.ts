/** Shapes of the search calls' answers (server contract of the race-center search routes). */
import type { EntryModel } from '#contract/entry';

export interface Split {
  checkpoint: string;
  distanceKm: number;
  /** Time from the start to this checkpoint. */
  time: string;
  /** This segment's own time (from the previous checkpoint); older servers leave it out. */
  split?: string;
  pace: string;
}

/** A race of the organiser that has results (racesWithResults). */
export interface RaceWithResults {
  raceId: string;
  raceName: string;
  raceNameEn?: string;
  /** YYYY-MM-DD */
  raceDate: string;
  /** How many results it has. */
  results: number;
}

export interface Ranks {
  overall: number;
  gender: number;
  ageGroup: number;
  ageGroupLabel: string;
  finishers: number;
}

export interface ScoreResult {
  raceId: string | number;
  raceName: string;
  bib: string;
  name: string;
  /** 1 male, 2 female, 0 unknown. */
  gender: number;
  item: 'marathon' | 'half' | '10k' | string;
  itemName: string;
  gunTime: string;
  chipTime: string;
  pace: string;
  splits: Split[];
  ranks: Ranks;
  certificate?: { id: string; sig: string } | null;
  raceNameEn?: string;
  itemNameEn?: string;
  /** YYYY-MM-DD of the race. */
  raceDate?: string;
}

export interface Participant {
  name: string;
  certificateType: number;
  certificateNumber: string;
  phone: string;
  emergencyName: string;
  emergencyPhone: string;
  birthday: string;
  age: number;
  adult: boolean;
}

export interface Order {
  orderNo: string;
  subOrderNo: string;
  createTime: string;
  serialNo: string;
  payTime: string;
  amountPaid: number | string;
  orderAmount: number | string;
  coupon: string | number;
  discount: string | number;
}

/**
 * Query types of the registration lookup (spec §3 Enumerations): 1 registration status, 2 third-party,
 * 3 web (official website), 5 app registration info. A registration's channel uses the same codes 2, 3, 5.
 */
export type RegistrationQueryType = 1 | 2 | 3 | 5;
export type RegistrationChannel = 2 | 3 | 5;
export type RegistrationInfoType = RegistrationChannel;

/** What every registration answer says: status, item, bib and the channel the runner registered through. */
export interface RegistrationFacts {
  /** 0 submitted awaiting draw … 5 refunded (spec §4). */
  status: number;
  /** How the item gives its places (contract entryStatusLabel words the status by it); absent when unknown. */
  model?: EntryModel;
  raceName?: string;
  raceNameEn?: string;
  itemName?: string;
  itemNameEn?: string;
  bib?: string;
  /** 2 third-party, 3 web, 5 app; web when the server does not say. */
  channel?: number;
  /** The third-party platform, Chinese and English. */
  channelName?: string;
  channelNameEn?: string;
}

/** Query type 1: the status, with the participant's masked name only. */
export interface RegistrationStatusResult extends RegistrationFacts {
  queryType: 1;
  participant: { name: string };
}

/** Query types 2, 3, 5: the registration info of the channel (numbers masked by the server). */
export interface RegistrationResult extends RegistrationFacts {
  queryType?: RegistrationInfoType;
  participant: Participant;
  orders: Order[];
}

export interface PbItem {
  item: string;
  itemName: string;
  chipTime: string;
  raceId: string | number;
  raceName: string;
  raceNameEn?: string;
  itemNameEn?: string;
  raceDate: string;
}

export interface Photo {
  url: string;
  takenAt?: string;
}

export interface CertificateFacts {
  raceName: string;
  raceNameEn?: string;
  name: string;
  bib: string;
  itemName: string;
  itemNameEn?: string;
  chipTime: string;
  ranks?: Partial<Ranks>;
}

export type VerifyAnswer = { valid: true; facts: CertificateFacts } | { valid: false };

/** Who is searching: by bib, or by name and certificate number. */
export type IdentityQuery = { name: string; certificateType?: number; certificateNumber: string };
