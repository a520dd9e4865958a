import { useState } from 'react';
import { Alert, Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useChargeOptions } from '../api/charge-options';
import { BillsTab } from './bills-tab';
import { LedgerTab } from './ledger-tab';
import { TopUpTab } from './top-up-tab';

type TTab = 'top-up' | 'bills' | 'transactions';

/** /charge: top up (spec sections 2, 9), the bills (spec section 3) and the statement of the balance. */
export default function PaymentsPage() {
  const { t } = useTranslation('payments');
  const [tab, setTab] = useState<TTab>('top-up');
  const options = useChargeOptions();

  return (
    <Card title={t('heading')}>
      {options.data?.sandbox && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('sandbox.title')}
          description={t('sandbox.description')}
          data-testid="sandbox-banner"
        />
      )}
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as TTab)}
        items={[
          { key: 'top-up', label: t('tabs.topUp'), children: <TopUpTab onShowBills={() => setTab('bills')} /> },
          { key: 'bills', label: t('tabs.bills'), children: <BillsTab /> },
          { key: 'transactions', label: t('tabs.transactions'), children: <LedgerTab /> },
        ]}
      />
    </Card>
  );
}
