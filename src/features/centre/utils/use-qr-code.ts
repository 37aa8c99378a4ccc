import { useEffect, useState } from 'react';

/**
 * A data: URL of the QR code of a text (the `qrcode` package, loaded only when a code is shown): the pick-up
 * pass and the order page's "scan to pay" (a wallet's QR payment, issue 31).
 */
export function useQrCode(text: string): string | undefined {
  const [qr, setQr] = useState<{ text: string; url: string }>();
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((QRCode) => QRCode.toDataURL(text, { width: 368, margin: 1, errorCorrectionLevel: 'M' }))
      .then((url) => live && setQr({ text, url }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [text]);
  return qr?.text === text ? qr.url : undefined;
}
