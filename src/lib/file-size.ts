/**
 * A file size for people (spec §9 "File sizes: 1024 steps, 2 decimals"): bytes below 1 KB as a whole number
 * of B (a byte has no fraction), then KB, MB, GB and TB with two decimals: 1536 → '1.50 KB'.
 */
const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  let value = bytes / 1024;
  let unit = 0;
  // 1023.999 KB would print as 1024.00 KB: move up a unit once the rounded value reaches 1024.
  while (unit < UNITS.length - 1 && Number(value.toFixed(2)) >= 1024) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}
