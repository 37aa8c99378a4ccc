import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePay } from '../utils/use-pay';

/**
 * An order's pay button: orderPay, then the provider's cashier page; loading until the browser leaves. `label`
 * and `testId` name a second one on the same page (pay again, after a failed payment).
 */
export function PayButton({ orderNo, label, testId }: { orderNo: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  const { pay, paying } = usePay();
  return (
    <Button
      type="primary"
      loading={paying === orderNo}
      onClick={() => void pay(orderNo)}
      data-testid={testId ?? 'order-pay'}
    >
      {label ?? t('centre.order.pay')}
    </Button>
  );
}
