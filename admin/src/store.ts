/** The console's state: who is signed in (with the CSRF token to send), the races they may open, the language. */
import { create } from 'zustand';
import type { ConsoleMe, ConsoleRace, StaffPermission } from '#contract/staff';

export type ConsoleLanguage = 'zh' | 'en';

const LANGUAGE_KEY = 'race-site-console-language';

function storedLanguage(): ConsoleLanguage {
  try {
    return window.localStorage.getItem(LANGUAGE_KEY) === 'en' ? 'en' : 'zh';
  } catch {
    return 'zh'; // site data blocked: Chinese, the default
  }
}

interface ConsoleState {
  me: ConsoleMe | null;
  /** undefined until the first answer of /me: the shell waits for it. */
  checked: boolean;
  races: ConsoleRace[];
  language: ConsoleLanguage;
  /** A page with unsaved changes asks before the shell leaves it (lib/unsaved-changes.ts); null: leave at once. */
  leaveGuard: ((leave: () => void) => void) | null;
  setLeaveGuard: (guard: ((leave: () => void) => void) | null) => void;
  setMe: (me: ConsoleMe | null) => void;
  setRaces: (races: ConsoleRace[]) => void;
  setLanguage: (language: ConsoleLanguage) => void;
}

export const useConsole = create<ConsoleState>((set) => ({
  me: null,
  checked: false,
  races: [],
  language: storedLanguage(),
  leaveGuard: null,
  setLeaveGuard: (leaveGuard) => set({ leaveGuard }),
  setMe: (me) => set({ me, checked: true }),
  setRaces: (races) => set({ races }),
  setLanguage: (language) => {
    try {
      window.localStorage.setItem(LANGUAGE_KEY, language);
    } catch {
      // kept for this visit only
    }
    set({ language });
  },
}));

/** Whether the signed-in member has `permission` (the console hides what the server would refuse). */
export function useCan(permission: StaffPermission): boolean {
  return useConsole((s) => s.me?.permissions.includes(permission) ?? false);
}

/** A race's name in the console's language. */
export function raceLabel(race: ConsoleRace, language: ConsoleLanguage): string {
  return race.raceName[language] || race.raceName.zh;
}
