import { useMemo, useState } from 'react';
import { Button, Card, Flex, Segmented, Tag, Typography } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatFen, IP_MONTH_DAYS, type TPriceCatalogue, type TProxyList, type TProxyToken } from '@proxy/contract';
import { PluginSetupModal } from '../../../entities/plugin/plugin-setup-modal';
import { usePriceCatalogue } from '../../../entities/pricing/price-catalogue';
import { toListQuery, useTokenList, type TTokenListFilters } from '../../../entities/proxies/token-list';
import { usePaging } from '../../../lib/use-paging';
import { useColumnChoice } from '../hooks/use-column-choice';
import { SCREENS, type TScreenKey } from '../utils/screens';
import { BatchBar } from './batch-bar';
import { ColumnChooser } from './column-chooser';
import { DetailDrawer } from './detail-drawer';
import { ExportModal } from './export-modal';
import { ListFilters } from './list-filters';
import { ProxyTable } from './proxy-table';
import { PurchaseDrawer } from './purchase-drawer';
import { RenewModal } from './renew-modal';
import { TestModal } from './test-modal';

type TListTab = 'all' | 'traffic' | 'ip';
const DEFAULT_PAGE_SIZE = 10;

/** The list prices of the screen's products, from the catalogue. */
function priceTags(
  key: TScreenKey,
  catalogue: TPriceCatalogue | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
): string[] {
  if (!catalogue) return [];
  switch (key) {
    case 'static':
      return [
        t('prices.trafficFrom', {
          price: formatFen(catalogue.residential_traffic_tier2_fen),
          max: formatFen(catalogue.residential_traffic_tier0_fen),
        }),
        t('prices.perDay', { price: formatFen(catalogue.static_ip_day_fen) }),
        t('prices.perMonth', { price: formatFen(catalogue.static_ip_month_fen), days: IP_MONTH_DAYS }),
      ];
    case 'dynamic':
      return [
        t('prices.trafficFrom', {
          price: formatFen(catalogue.residential_traffic_tier2_fen),
          max: formatFen(catalogue.residential_traffic_tier0_fen),
        }),
        t('prices.perDay', { price: formatFen(catalogue.dynamic_ip_day_fen) }),
      ];
    case 'idc':
      return [
        t('prices.perGb', { price: formatFen(catalogue.idc_traffic_fen) }),
        t('prices.perMonth', { price: formatFen(catalogue.idc_ip_month_fen), days: IP_MONTH_DAYS }),
      ];
  }
}

/**
 * One proxy screen (dynamic residential, static residential or data-center):
 * the purchase drawer, the list with filters, paging and selection, the batch
 * bar, and the detail, test, renew and export dialogs.
 */
export function ProxyScreen(props: { screenKey: TScreenKey }) {
  const screen = SCREENS[props.screenKey];
  const { t } = useTranslation('proxies');
  const [tab, setTab] = useState<TListTab>('all');
  const paging = usePaging(DEFAULT_PAGE_SIZE);
  const [filters, setFilters] = useState<TTokenListFilters>({});
  const [selected, setSelected] = useState<TProxyToken[]>([]);
  const [isBuying, setIsBuying] = useState(false);
  const [isExporting, setIsExporting] = useState(false);
  const [detailToken, setDetailToken] = useState<TProxyToken | null>(null);
  const [testedToken, setTestedToken] = useState<TProxyToken | null>(null);
  const [pluginToken, setPluginToken] = useState<TProxyToken | null>(null);
  const [renewed, setRenewed] = useState<TProxyToken[]>([]);
  const catalogue = usePriceCatalogue();
  const columns = useColumnChoice(screen.key);

  const list: TProxyList = screen.lists[tab] ?? screen.lists.all;
  const query = useTokenList(
    list,
    { ...toListQuery(filters), page: paging.page, page_size: paging.pageSize },
    { failureMessage: t('errors.fetchList') },
  );
  const tabs = useMemo(
    () =>
      (['all', 'traffic', 'ip'] as const)
        .filter((key) => screen.lists[key] !== undefined)
        .map((key) => ({ value: key, label: t(`listTabs.${key}`) })),
    [screen, t],
  );
  const hasIpProducts = list !== screen.lists.traffic;
  const selectedIds = selected.map((token) => token.token_id);

  const clearSelection = () => setSelected([]);
  const changeList = (next: TListTab) => {
    setTab(next);
    paging.toFirstPage();
    clearSelection();
  };
  const changeFilters = (next: TTokenListFilters) => {
    setFilters(next);
    paging.toFirstPage();
    clearSelection();
  };

  return (
    <Flex vertical gap={16}>
      <Card>
        <Flex justify="space-between" align="center" gap={16} wrap>
          <div style={{ minWidth: 0, flex: '1 1 420px' }}>
            <Typography.Title level={4} style={{ marginTop: 0 }}>
              {t(`screens.${screen.key}.title`)}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t(`screens.${screen.key}.description`)}
            </Typography.Paragraph>
            <Flex gap={4} wrap>
              {priceTags(screen.key, catalogue.data, t).map((text) => (
                <Tag key={text} color="blue">
                  {text}
                </Tag>
              ))}
            </Flex>
          </div>
          <Button type="primary" size="large" icon={<ShoppingCartOutlined />} onClick={() => setIsBuying(true)}>
            {t('buy.open')}
          </Button>
        </Flex>
      </Card>

      <Card>
        <Flex vertical gap={16}>
          <Flex justify={tabs.length > 1 ? 'space-between' : 'flex-end'} align="center" gap={8} wrap>
            {tabs.length > 1 && <Segmented<TListTab> value={tab} onChange={changeList} options={tabs} />}
            <ColumnChooser visible={columns.visible} onChange={columns.setVisible} />
          </Flex>
          <ListFilters category={screen.category} onChange={changeFilters} />
          <BatchBar
            screen={screen}
            selected={selected}
            hasIpProducts={hasIpProducts}
            onDone={clearSelection}
            onRenew={setRenewed}
            onExport={() => setIsExporting(true)}
          />
          <ProxyTable
            screen={screen}
            visibleColumns={columns.visible}
            records={query.data?.records ?? []}
            total={query.data?.total ?? 0}
            paging={paging}
            isLoading={query.isFetching}
            isFiltered={Object.values(filters).some((value) => value !== undefined && value !== '')}
            selectedIds={selectedIds}
            onSelect={(ids, rows) => {
              // Rows of other pages stay selected: keep the ones already known.
              const known = new Map([...selected, ...rows].map((row) => [row.token_id, row]));
              setSelected(ids.map((id) => known.get(id)).filter((row): row is TProxyToken => row !== undefined));
            }}
            onDetail={setDetailToken}
            onTest={setTestedToken}
            onRenew={(token) => setRenewed([token])}
            onPluginSetting={setPluginToken}
          />
        </Flex>
      </Card>

      <PurchaseDrawer screen={screen} isOpen={isBuying} onClose={() => setIsBuying(false)} />
      <DetailDrawer token={detailToken} onClose={() => setDetailToken(null)} />
      <TestModal token={testedToken} onClose={() => setTestedToken(null)} />
      <PluginSetupModal token={pluginToken} onClose={() => setPluginToken(null)} />
      <RenewModal screen={screen} tokens={renewed} onClose={() => setRenewed([])} />
      <ExportModal
        isOpen={isExporting}
        list={list}
        tokenIds={selectedIds}
        networks={selected.map((token) => token.network)}
        filters={filters}
        onClose={() => setIsExporting(false)}
      />
    </Flex>
  );
}
