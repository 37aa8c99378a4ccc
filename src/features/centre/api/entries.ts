import { API_PATHS } from '#contract/api';
import type { MyEntriesAnswer, OrderPayAnswer, OrderView, PaySite } from '#contract/entry';
import { apiRequest } from '@/lib/api-client';

/** GET every registration of the account with its orders (the personal centre's index). */
export async function getMyEntries(): Promise<MyEntriesAnswer> {
  const envelope = await apiRequest<MyEntriesAnswer>({ method: 'GET', url: API_PATHS.myEntries, silent: 'answers' });
  return envelope.data;
}

/** GET one order of the account. `silent`: the payment result's polling shows no toast of its own. */
export async function getOrder(orderNo: string, silent: boolean | 'answers' = 'answers'): Promise<OrderView> {
  const envelope = await apiRequest<OrderView>({ method: 'GET', url: API_PATHS.orderGet, params: { orderNo }, silent });
  return envelope.data;
}

/**
 * POST pay: where to pay the order with `method` (a payment provider; default the server's first): the
 * provider's cashier page, which sends the runner back to `site`'s order page, or a QR code to show; a refusal
 * is shown as a toast.
 */
export async function payOrder(orderNo: string, site: PaySite, method?: string): Promise<OrderPayAnswer> {
  const envelope = await apiRequest<OrderPayAnswer>({
    method: 'POST',
    url: API_PATHS.orderPay,
    data: method === undefined ? { orderNo, site } : { orderNo, site, method },
  });
  return envelope.data;
}
