import { API_PATHS } from '#contract/api';
import type { MyResultsAnswer, MyResultsRequest, SizeStockAnswer } from '#contract/registration-screens';
import { apiRequest } from '@/lib/api-client';

/** POST the runner's own finishes in the organiser's races, by name and certificate (pastEvents, score claims). */
export async function getMyResults(request: MyResultsRequest): Promise<MyResultsAnswer> {
  const envelope = await apiRequest<MyResultsAnswer>({
    method: 'POST',
    url: API_PATHS.myResults,
    data: request,
    silent: 'answers',
  });
  return envelope.data;
}

/** GET the pieces left per size code of a clothing-size field (sizes with a stock only). */
export async function getSizeStock(raceId: string, channel: string, field: string): Promise<SizeStockAnswer> {
  const envelope = await apiRequest<SizeStockAnswer>({
    method: 'GET',
    url: API_PATHS.sizeStock,
    params: { raceId, channel, field },
    silent: true,
  });
  return envelope.data;
}
