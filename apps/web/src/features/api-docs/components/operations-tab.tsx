import { Empty, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { groupByTag, type TApiOperation, type TApiTagGroup, type TExampleValues } from '../utils/openapi';
import { OperationCard } from './operation-card';

/** The customer API's own calls first, then other /v1 calls (e.g. tools). */
function sortGroups(groups: TApiTagGroup[]): TApiTagGroup[] {
  return [...groups].sort((a, b) => Number(b.tag === 'customer-api') - Number(a.tag === 'customer-api'));
}

/** Props of a tab of calls. */
export type TOperationsTabProps = {
  intro: string;
  operations: TApiOperation[];
  origin: string;
  apiKey: string;
  isKeyRevealed: boolean;
  values: TExampleValues;
};

/** The calls of one tab, grouped by their OpenAPI tag. */
export function OperationsTab({ intro, operations, ...rest }: TOperationsTabProps) {
  const { t } = useTranslation('api-docs');
  if (operations.length === 0) return <Empty description={t('docs.noOperations')} />;
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {intro}
      </Typography.Paragraph>
      {sortGroups(groupByTag(operations)).map((group) => (
        <section key={group.tag} aria-label={t(`tags.${group.tag}`, { defaultValue: group.tag })}>
          <Typography.Title level={4}>{t(`tags.${group.tag}`, { defaultValue: group.tag })}</Typography.Title>
          <Flex vertical gap={16}>
            {group.operations.map((operation) => (
              <OperationCard key={operation.id} operation={operation} {...rest} />
            ))}
          </Flex>
        </section>
      ))}
    </Flex>
  );
}
