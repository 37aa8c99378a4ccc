import { useState } from 'react';
import { isMobileSite } from '@/lib/mobile-site';
import { payOrder } from '../api/entries';
import { browser } from './browser';

/**
 * Pay an order: asks where (orderPay) and goes to the provider's cashier page, which comes back to the order
 * page with ?paid=1, on the site the runner paid from (a phone on the mobile site comes back to it, without
 * loading the desktop page first). A refusal (the order is no longer payable) is the api client's toast.
 */
export function usePay(): { pay: (orderNo: string) => Promise<void>; paying: string | null } {
  const [paying, setPaying] = useState<string | null>(null);
  const pay = async (orderNo: string) => {
    setPaying(orderNo);
    try {
      const { cashierUrl } = await payOrder(orderNo, isMobileSite() ? 'mobile' : 'desktop');
      browser.assign(cashierUrl);
    } catch {
      setPaying(null);
    }
  };
  return { pay, paying };
}
