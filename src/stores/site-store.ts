/**
 * What the start-up pipeline resolved for this host: the site configuration (or the preview one), the race
 * base information and the problems found in the document. Set once before the first render.
 */
import { create } from 'zustand';
import type { ConfigProblem, SiteConfig } from '#contract/site-config/schema';
import type { RaceInfo } from '#contract/site-config/race-types';

export type SiteMode = 'bound' | 'preview';
/** Why a host shows the preview: no race bound, bound but no document published, or start-up failed. */
export type PreviewReason = 'unbound' | 'unpublished' | 'failed';

export interface SiteState {
  mode: SiteMode;
  previewReason: PreviewReason | null;
  config: SiteConfig | null;
  race: RaceInfo | null;
  problems: ConfigProblem[];
  cloudType: string;
  setSite: (site: Partial<Omit<SiteState, 'setSite'>>) => void;
}

export const useSiteStore = create<SiteState>()((set) => ({
  mode: 'preview',
  previewReason: null,
  config: null,
  race: null,
  problems: [],
  cloudType: 'aliyun',
  setSite: (site) => set(site),
}));
