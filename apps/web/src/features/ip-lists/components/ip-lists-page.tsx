import { useState } from 'react';
import { Card, Flex, Tabs, Typography } from 'antd';
import { IntroAlert } from '../../../components/intro-alert';
import { useTranslation } from 'react-i18next';
import { IP_LIST_MAX_ENTRIES, type TIpList } from '@proxy/contract';
import { AccountTargetRulesCard } from '../../../entities/target-rules/target-rules-panels';
import { IpListPanel } from './ip-list-panel';

/** /security: the account's IP whitelist and blacklist as tabs, with what each list does. */
export default function IpListsPage() {
  const { t } = useTranslation('ip-lists');
  const [activeList, setActiveList] = useState<TIpList>('whitelist');

  return (
    <Flex vertical gap={16}>
      <Card title={t('heading')}>
        <IntroAlert
          title={t('intro.title')}
          items={[
            t('intro.whitelist'),
            t('intro.blacklist'),
            t('intro.both'),
            t('intro.apply'),
            <Typography.Text type="secondary">{t('intro.format', { max: IP_LIST_MAX_ENTRIES })}</Typography.Text>,
          ]}
        />
        <Tabs
          activeKey={activeList}
          onChange={(key) => setActiveList(key as TIpList)}
          items={[
            { key: 'whitelist', label: t('tabs.whitelist'), children: <IpListPanel list="whitelist" /> },
            { key: 'blacklist', label: t('tabs.blacklist'), children: <IpListPanel list="blacklist" /> },
          ]}
        />
      </Card>
      <AccountTargetRulesCard />
    </Flex>
  );
}
