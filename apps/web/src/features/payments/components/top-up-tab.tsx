import { useState } from 'react';
import { Button, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TChargeResult } from '@proxy/contract';
import { useChargeOptions } from '../api/charge-options';
import { ChargeForm } from './charge-form';
import { PaymentPanel } from './payment-panel';

/** The top-up tab: the form, then the started order until it ends. */
export function TopUpTab(props: { onShowBills: () => void }) {
  const { t } = useTranslation('payments');
  const options = useChargeOptions();
  const [charge, setCharge] = useState<TChargeResult | null>(null);

  if (charge) return <PaymentPanel charge={charge} onAgain={() => setCharge(null)} onShowBills={props.onShowBills} />;
  if (options.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!options.data) {
    return (
      <Result
        status="warning"
        title={t('form.optionsFailed')}
        extra={
          <Button onClick={() => void options.refetch()} loading={options.isFetching}>
            {t('form.retry')}
          </Button>
        }
      />
    );
  }
  return <ChargeForm options={options.data} onStarted={setCharge} />;
}
