import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrderPayAnswer } from '#contract/entry';
import { usePay } from '../utils/use-pay';

/** A payment method's name in the runner's language (微信支付 / WeChat Pay…); an unknown one by its name. */
export function usePayMethodName(): (method: string) => string {
  const { t } = useTranslation();
  return (method) => t(`centre.payment.methods.${method}`, { defaultValue: method });
}

/**
 * An order's pay button: orderPay (with `method` when given), then the provider's cashier page; loading until
 * the browser leaves (or `onQr` shows the provider's QR code). `label` and `testId` name a second one on the
 * same page (pay again, after a failed payment).
 */
export function PayButton({
  orderNo,
  method,
  label,
  testId,
  primary = true,
  onQr,
}: {
  orderNo: string;
  method?: string;
  label?: string;
  testId?: string;
  primary?: boolean;
  onQr?: (answer: OrderPayAnswer) => void;
}) {
  const { t } = useTranslation();
  const { pay, paying } = usePay(onQr);
  return (
    <Button
      type={primary ? 'primary' : 'default'}
      loading={paying === `${orderNo}:${method ?? ''}`}
      onClick={() => void pay(orderNo, method)}
      data-testid={testId ?? 'order-pay'}
    >
      {label ?? t('centre.order.pay')}
    </Button>
  );
}

/**
 * The ways to pay an order: with one method (or none listed) the one pay button as before; with several, one
 * button per method named in the runner's language, the first the default.
 */
export function PayMethods({
  orderNo,
  methods,
  onQr,
  again = false,
}: {
  orderNo: string;
  methods: readonly string[] | undefined;
  onQr?: (answer: OrderPayAnswer) => void;
  /** Paying again after a failed payment. */
  again?: boolean;
}) {
  const { t } = useTranslation();
  const methodName = usePayMethodName();
  if (!methods || methods.length <= 1) {
    return (
      <PayButton
        orderNo={orderNo}
        method={methods?.[0]}
        onQr={onQr}
        {...(again ? { label: t('centre.payment.payAgain'), testId: 'payment-pay-again' } : {})}
      />
    );
  }
  return (
    <div
      className="centre-pay-methods"
      role="group"
      aria-label={t('centre.payment.choose')}
      data-testid={again ? 'payment-pay-again-methods' : 'order-pay-methods'}
    >
      <span className="centre-pay-methods__label">{t('centre.payment.choose')}</span>
      {methods.map((method, index) => (
        <PayButton
          key={method}
          orderNo={orderNo}
          method={method}
          onQr={onQr}
          primary={index === 0}
          label={methodName(method)}
          testId={again ? `payment-pay-again-${method}` : `order-pay-${method}`}
        />
      ))}
    </div>
  );
}
