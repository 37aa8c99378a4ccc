import { API_PATHS } from '#contract/api';
import type {
  CodeCheckAnswer,
  EntryInfo,
  EntrySubmitAnswer,
  EntrySubmitRequest,
  TeamCreateRequest,
  TeamInfo,
} from '#contract/entry';
import { apiRequest } from '@/lib/api-client';

/** GET the race's sign-up state: the window, the items and the form channel (public). */
export async function getEntryInfo(raceId: string): Promise<EntryInfo> {
  const envelope = await apiRequest<EntryInfo>({
    method: 'GET',
    url: API_PATHS.entryInfo,
    params: { raceId },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST an invitation code: what it opens (refused with redemptionCodeMissing when unknown, used up or expired). */
export async function checkEntryCode(raceId: string, code: string): Promise<CodeCheckAnswer> {
  const envelope = await apiRequest<CodeCheckAnswer>({
    method: 'POST',
    url: API_PATHS.entryCodeCheck,
    data: { raceId, code },
    silent: 'answers',
  });
  return envelope.data;
}

/** POST a new team of an item; the answer holds the team code to share. */
export async function createTeam(request: TeamCreateRequest): Promise<TeamInfo> {
  const envelope = await apiRequest<TeamInfo>({
    method: 'POST',
    url: API_PATHS.teamCreate,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}

/** GET a team by its code (to join it). */
export async function getTeam(raceId: string, teamCode: string): Promise<TeamInfo> {
  const envelope = await apiRequest<TeamInfo>({
    method: 'GET',
    url: API_PATHS.teamGet,
    params: { raceId, teamCode },
    silent: 'answers',
  });
  return envelope.data;
}

/**
 * POST the entry. A refusal rejects with an ApiError; field refusals are in `data.fields`, keyed
 * `${person index}.${field key}` (shown on the fields; not toasted).
 */
export async function submitEntry(request: EntrySubmitRequest): Promise<EntrySubmitAnswer> {
  const envelope = await apiRequest<EntrySubmitAnswer>({
    method: 'POST',
    url: API_PATHS.entrySubmit,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}
