import { Alert, Card, Collapse, Flex, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  useAccountTargetRules,
  useSaveAccountTargetRules,
  useSaveTokenTargetRules,
  useTokenTargetRules,
} from './target-rules-api';
import { TargetRulesEditor } from './target-rules-editor';

/** The account-wide target rules: a card of the security page. */
export function AccountTargetRulesCard() {
  const { t } = useTranslation('common');
  const query = useAccountTargetRules();
  const save = useSaveAccountTargetRules();
  return (
    <Card title={t('targetRules.accountTitle')}>
      <Flex vertical gap={12}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('targetRules.accountIntro')}
        </Typography.Paragraph>
        {query.isPending ? (
          <Skeleton active />
        ) : query.isError ? null : (
          // Keyed by the saved list's time: a reload after saving starts the editor from what was stored.
          <TargetRulesEditor
            key={query.data?.updated_at ?? 'none'}
            scope="account"
            list={query.data}
            onSave={save.mutateAsync}
            isSaving={save.isPending}
          />
        )}
      </Flex>
    </Card>
  );
}

/** A proxy's own target rules, with which list applies to it now (the proxy detail drawer). */
export function TokenTargetRules({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation('common');
  const query = useTokenTargetRules(tokenId);
  const save = useSaveTokenTargetRules(tokenId);
  if (query.isPending) return <Skeleton active />;
  if (query.isError) return null;
  const { own, account, applies } = query.data;
  return (
    <Flex vertical gap={12}>
      <Alert
        type="info"
        showIcon
        data-testid="target-rules-applies"
        message={t(`targetRules.applies.${applies}`, {
          mode: account ? t(`targetRules.mode.${account.mode}`) : '',
          count: account?.rules.length ?? 0,
        })}
      />
      <TargetRulesEditor
        key={own?.updated_at ?? 'none'}
        scope="token"
        list={own}
        onSave={save.mutateAsync}
        isSaving={save.isPending}
      />
    </Flex>
  );
}

/** The proxy detail drawer's section: folded until opened (the lists load then). */
export function TokenTargetRulesSection({ tokenId }: { tokenId: number }) {
  const { t } = useTranslation('common');
  return (
    <Collapse
      size="small"
      items={[{ key: 'rules', label: t('targetRules.ownTitle'), children: <TokenTargetRules tokenId={tokenId} /> }]}
    />
  );
}
