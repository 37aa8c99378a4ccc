/**
 * zustand's `create` for the desktop first screen's server build (vite.config.ts aliases 'zustand' to this
 * module there, src/app/boot/home-first-screen.tsx): a store hook reads the store as it stands. zustand's own
 * hook reads a store's initial state while React renders on the server (useSyncExternalStore's server
 * snapshot), and the server renders one page at a time with the state it has just set.
 */
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';

type BoundStore<T> = StoreApi<T> & (<U = T>(selector?: (state: T) => U) => U);

export function create<T>(): (init: StateCreator<T, [], []>) => BoundStore<T> {
  return (init) => {
    const api = createStore(init);
    const hook = <U>(selector: (state: T) => U = (state) => state as unknown as U) => selector(api.getState());
    return Object.assign(hook, api);
  };
}
