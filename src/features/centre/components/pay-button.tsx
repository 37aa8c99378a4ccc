import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePay } from '../utils/use-pay';

/** An order's pay button: orderPay, then the provider's cashier page; loading until the browser leaves. */
export function PayButton({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation();
  const { pay, paying } = usePay();
  return (
    <Button type="primary" loading={paying === orderNo} onClick={() => void pay(orderNo)} data-testid="order-pay">
      {t('centre.order.pay')}
    </Button>
  );
}
