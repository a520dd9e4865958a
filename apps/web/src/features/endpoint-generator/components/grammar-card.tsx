import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SESSTIME_DEFAULT_MINUTES, SESSTIME_MAX_MINUTES } from '@proxy/contract';

type TPart = { key: 'country' | 'state' | 'city' | 'session' | 'sesstime'; example: string };

const PARTS: TPart[] = [
  { key: 'country', example: '-country-us' },
  { key: 'state', example: '-state-ca' },
  { key: 'city', example: '-city-losangeles' },
  { key: 'session', example: '-session-abc123' },
  { key: 'sesstime', example: '-sesstime-10' },
];

/** The full example of ARCHITECTURE.md, Proxies. */
export const GRAMMAR_EXAMPLE = 'USERNAME-country-us-state-ca-city-losangeles-session-abc123-sesstime-10';

/** Explains the username grammar (country, state, city, session, sesstime). */
export function GrammarCard() {
  const { t } = useTranslation('endpoint-generator');
  return (
    <Card title={t('grammar.title')}>
      <Typography.Paragraph>{t('grammar.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
          {GRAMMAR_EXAMPLE}
        </Typography.Text>
      </Typography.Paragraph>
      <Table<TPart>
        rowKey="key"
        size="small"
        pagination={false}
        dataSource={PARTS}
        columns={[
          {
            key: 'part',
            title: t('grammar.part'),
            dataIndex: 'key',
            width: 110,
            render: (key: string) => <Typography.Text code>{key}</Typography.Text>,
          },
          {
            key: 'meaning',
            title: t('grammar.meaning'),
            render: (_, part) =>
              t(`grammar.${part.key}`, { max: SESSTIME_MAX_MINUTES, default: SESSTIME_DEFAULT_MINUTES }),
          },
          {
            key: 'example',
            title: t('grammar.example'),
            dataIndex: 'example',
            width: 170,
            render: (text: string) => <Typography.Text code>{text}</Typography.Text>,
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
        {t('grammar.footnote')}
      </Typography.Paragraph>
    </Card>
  );
}
