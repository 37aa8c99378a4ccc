import { API_PATHS } from '#contract/api';
import type { MessageLanguage, MyMessage } from '#contract/runner-messages';
import { apiRequest } from '@/lib/api-client';

/** GET the messages sent to the runner, newest first; `lang` (the language the centre is read in) becomes theirs. */
export async function listMyMessages(lang: MessageLanguage): Promise<MyMessage[]> {
  const envelope = await apiRequest<MyMessage[]>({
    method: 'GET',
    url: API_PATHS.myMessages,
    params: { lang },
    silent: 'answers',
  });
  return envelope.data;
}
