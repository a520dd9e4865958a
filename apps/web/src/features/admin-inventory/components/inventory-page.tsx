import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ImportPanel } from './import-panel';
import { NodesPanel } from './nodes-panel';
import { StockCard } from './stock-card';

/**
 * /admin/inventory: the exits (filters, health from the probe, edit, retire,
 * probe now) with the stock per area and kind, and the CSV import in its own tab.
 */
export default function InventoryPage() {
  const { t } = useTranslation('admin-inventory');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'import' ? 'import' : 'nodes';
  return (
    <Card title={t('title')}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'import' ? { tab: 'import' } : {}, { replace: true })}
        items={[
          {
            key: 'nodes',
            label: t('tabs.nodes'),
            children: (
              <>
                <StockCard />
                <NodesPanel />
              </>
            ),
          },
          { key: 'import', label: t('tabs.import'), children: <ImportPanel /> },
        ]}
      />
    </Card>
  );
}
