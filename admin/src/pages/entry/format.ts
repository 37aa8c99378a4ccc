/** Money as the entry page shows it: yuan from integer fen (contract formatFen). */
import { formatFen } from '#contract/entry';

export const yuanText = (fen: number) => `¥${formatFen(fen)}`;
