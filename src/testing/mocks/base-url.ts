/** jsdom's origin: relative API paths resolve against it. */
export const api = (path: string) => `http://localhost:3000${path}`;
