/** Leaving the SPA for another page (the provider's cashier): one place, so tests can watch it. */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
