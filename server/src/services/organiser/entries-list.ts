/**
 * The entries of a race as the organiser's list shows them (the CLI's entries-list): every entry of an item
 * and status, with its certificate number and phone decrypted and masked (never whole: entries-export.ts is
 * the one place they are written whole).
 */
import type { AdminEntryRow } from '../../db/entry-admin-repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { maskCertNo, maskMobile } from '../../lib/race-center.ts';

export interface ListedEntry extends Omit<AdminEntryRow, 'certEnc' | 'phoneEnc' | 'valuesEnc'> {
  /** The masked certificate number; null when this server's key cannot read it. */
  certificate: string | null;
  /** The masked phone; null when there is none (or it cannot be read). */
  phone: string | null;
}

export async function listRaceEntries(
  repos: Repositories,
  raceId: string,
  filter: { itemCode?: string; status?: number },
): Promise<ListedEntry[]> {
  const entries = await repos.entryAdmin.listEntries(raceId, filter);
  return entries.map(({ certEnc, phoneEnc, valuesEnc: _values, ...entry }) => {
    const cert = repos.entryAdmin.decrypt(certEnc);
    const phone = repos.entryAdmin.decrypt(phoneEnc);
    return { ...entry, certificate: cert ? maskCertNo(cert) : null, phone: phone ? maskMobile(phone) : null };
  });
}
