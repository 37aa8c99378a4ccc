/**
 * App-wide state (spec §3 "Held state"): language, token, race binding, imgDetail, the login drawer and
 * re-login confirm flags, and the layout widths. Outside React read it with useAppStore.getState().
 */
import { create } from 'zustand';

export type Language = 'zh' | 'en';

export interface AppState {
  language: Language;
  token: string | null;
  raceId: string | null;
  domainName: string;
  imgDetail: string | null;
  loginDrawerOpen: boolean;
  reloginConfirmOpen: boolean;
  clientWidth: number;
  scrollBarWidth: number;
  setLanguageState: (language: Language) => void;
  setToken: (token: string | null) => void;
  setRace: (race: { raceId: string | null; domainName: string; imgDetail: string | null }) => void;
  setLoginDrawerOpen: (open: boolean) => void;
  setReloginConfirmOpen: (open: boolean) => void;
  setWidths: (widths: { clientWidth: number; scrollBarWidth: number }) => void;
}

export const useAppStore = create<AppState>()((set) => ({
  language: 'zh',
  token: null,
  raceId: null,
  domainName: '',
  imgDetail: null,
  loginDrawerOpen: false,
  reloginConfirmOpen: false,
  clientWidth: 0,
  scrollBarWidth: 0,
  setLanguageState: (language) => set({ language }),
  setToken: (token) => set({ token }),
  setRace: (race) => set(race),
  setLoginDrawerOpen: (loginDrawerOpen) => set({ loginDrawerOpen }),
  setReloginConfirmOpen: (reloginConfirmOpen) => set({ reloginConfirmOpen }),
  setWidths: (widths) => set(widths),
}));
