/**
 * What the start-up pipeline resolved for this host: the site configuration (or the preview one), the race
 * base information and the problems found in the document. Set once before the first render.
 */
import { create } from 'zustand';
import type { ConfigProblem, SiteConfig } from '@/features/site-config/site-config-schema';
import type { RaceInfo } from '@/features/site-config/race-types';

export type SiteMode = 'bound' | 'preview';

export interface SiteState {
  mode: SiteMode;
  config: SiteConfig | null;
  race: RaceInfo | null;
  problems: ConfigProblem[];
  cloudType: string;
  setSite: (site: Partial<Omit<SiteState, 'setSite'>>) => void;
}

export const useSiteStore = create<SiteState>()((set) => ({
  mode: 'preview',
  config: null,
  race: null,
  problems: [],
  cloudType: 'aliyun',
  setSite: (site) => set(site),
}));
