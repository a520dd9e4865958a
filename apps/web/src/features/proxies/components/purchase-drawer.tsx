import { Button, Drawer, Flex, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFen } from '@proxy/contract';
import { usePriceQuote } from '../hooks/use-price-quote';
import { usePurchase, type TPurchaseValues } from '../hooks/use-purchase';
import type { TScreenConfig } from '../utils/screens';
import { PurchaseForm } from './purchase-form';
import { PurchaseResult } from './purchase-result';

/**
 * "Buy proxies": the purchase form with its live price and balance, then the
 * created proxies.
 */
export function PurchaseDrawer(props: { screen: TScreenConfig; isOpen: boolean; onClose: () => void }) {
  const { screen } = props;
  const { t } = useTranslation('proxies');
  const [form] = Form.useForm<TPurchaseValues>();
  const quote = usePriceQuote(screen, form);
  const purchase = usePurchase(screen);

  const handleClose = () => {
    purchase.clearResult();
    props.onClose();
  };

  const handleFinish = (values: TPurchaseValues) => {
    if (!quote.isShort) void purchase.submit(values);
  };

  return (
    <Drawer
      open={props.isOpen}
      onClose={handleClose}
      title={t('buy.title', { product: t(`screens.${screen.key}.product`) })}
      size={620}
      destroyOnHidden={false}
      footer={
        purchase.result ? (
          <Flex justify="end" gap={8}>
            <Button onClick={purchase.startOver}>{t('buy.buyMore')}</Button>
            <Button type="primary" onClick={handleClose}>
              {t('buy.done')}
            </Button>
          </Flex>
        ) : (
          <Flex justify="end" gap={8}>
            <Button onClick={handleClose}>{t('buy.cancel')}</Button>
            <Button
              type="primary"
              loading={purchase.isBuying}
              disabled={quote.isShort}
              onClick={() => form.submit()}
              data-testid="buy-submit"
            >
              {quote.preview ? t('buy.submitWithPrice', { total: formatFen(quote.preview.totalFen) }) : t('buy.submit')}
            </Button>
          </Flex>
        )
      }
    >
      {purchase.result ? (
        <PurchaseResult result={purchase.result} />
      ) : (
        <PurchaseForm screen={screen} form={form} quote={quote} onFinish={handleFinish} onLeave={handleClose} />
      )}
    </Drawer>
  );
}
