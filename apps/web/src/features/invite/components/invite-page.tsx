import { Button, Card, Flex, Result, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInviteInfo, useRebateConfig } from '../api/invite';
import { InviteLinkCard } from './invite-link-card';
import { InviteRecordsTable } from './invite-records-table';
import { RebateRecordsTable } from './rebate-records-table';

/** /invite: my invite code and link, my totals, the rules, and the tabs invite records and rebate records (spec section 2). */
export default function InvitePage() {
  const { t } = useTranslation('invite');
  const info = useInviteInfo();
  const config = useRebateConfig();
  return (
    <Flex vertical gap={16}>
      {info.data ? (
        <InviteLinkCard info={info.data} config={config.data} />
      ) : info.isError ? (
        <Card>
          <Result
            status="warning"
            title={t('errors.fetchInfo')}
            extra={
              <Button onClick={() => void info.refetch()} loading={info.isFetching}>
                {t('retry')}
              </Button>
            }
          />
        </Card>
      ) : (
        <Card>
          <Skeleton active />
        </Card>
      )}
      <Card>
        <Tabs
          items={[
            { key: 'invites', label: t('tabs.invites'), children: <InviteRecordsTable /> },
            { key: 'rebates', label: t('tabs.rebates'), children: <RebateRecordsTable /> },
          ]}
        />
      </Card>
    </Flex>
  );
}
