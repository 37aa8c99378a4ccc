import { useState } from 'react';
import { generatePath, useNavigate } from 'react-router-dom';
import type { OrderPayAnswer } from '#contract/entry';
import { PATHS } from '@/config/paths';
import { isMobileSite } from '@/lib/mobile-site';
import { payOrder } from '../api/entries';
import { browser } from './browser';

/**
 * Pay an order with a method (a payment provider; default the server's first): asks where (orderPay) and goes
 * to the provider's cashier page, which comes back to the order page with ?paid=1, on the site the runner paid
 * from (a phone on the mobile site comes back to it, without loading the desktop page first). A provider that
 * is paid by scanning a QR code (display 'qr', WeChat Pay on a desktop) hands its answer to `onQr` (the order
 * page shows the code); without one (a list of orders) the order page is opened to show it (?method=). A
 * refusal (the order is no longer payable, the method is not available) is the api client's toast.
 */
export function usePay(onQr?: (answer: OrderPayAnswer) => void): {
  pay: (orderNo: string, method?: string) => Promise<void>;
  /** The order (and method) being paid, until the browser leaves or the QR code is shown. */
  paying: string | null;
} {
  const [paying, setPaying] = useState<string | null>(null);
  const navigate = useNavigate();
  const pay = async (orderNo: string, method?: string) => {
    setPaying(`${orderNo}:${method ?? ''}`);
    try {
      const answer = await payOrder(orderNo, isMobileSite() ? 'mobile' : 'desktop', method);
      if (answer.display !== 'qr') {
        browser.assign(answer.cashierUrl);
        return;
      }
      setPaying(null);
      if (onQr) onQr(answer);
      else navigate(`${generatePath(PATHS.order, { orderNo })}?method=${encodeURIComponent(answer.method)}`);
    } catch {
      setPaying(null);
    }
  };
  return { pay, paying };
}
