import { useState } from 'react';
import { payOrder } from '../api/entries';
import { browser } from './browser';

/**
 * Pay an order: asks where (orderPay) and goes to the provider's cashier page, which comes back to the order
 * page with ?paid=1. A refusal (the order is no longer payable) is the api client's toast.
 */
export function usePay(): { pay: (orderNo: string) => Promise<void>; paying: string | null } {
  const [paying, setPaying] = useState<string | null>(null);
  const pay = async (orderNo: string) => {
    setPaying(orderNo);
    try {
      const { cashierUrl } = await payOrder(orderNo);
      browser.assign(cashierUrl);
    } catch {
      setPaying(null);
    }
  };
  return { pay, paying };
}
