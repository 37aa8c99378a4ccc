/** Shapes of the search calls' answers (server contract of the race-center search routes). */
export interface Split {
  checkpoint: string;
  distanceKm: number;
  time: string;
  pace: string;
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
  date?: string;
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

export interface RegistrationResult {
  /** 0 submitted awaiting draw … 5 refunded (spec §4). */
  status: number;
  participant: Participant;
  orders: Order[];
}

export interface PbItem {
  item: string;
  itemName: string;
  chipTime: string;
  raceId: string | number;
  raceName: string;
  date: string;
}

export interface Photo {
  url: string;
  takenAt?: string;
}

export interface CertificateFacts {
  raceName: string;
  name: string;
  bib: string;
  itemName: string;
  chipTime: string;
  ranks?: Partial<Ranks>;
}

export type VerifyAnswer = { valid: true; facts: CertificateFacts } | { valid: false };

/** Who is searching: by bib, or by name and certificate number. */
export type IdentityQuery = { name: string; certificateType?: number; certificateNumber: string };
