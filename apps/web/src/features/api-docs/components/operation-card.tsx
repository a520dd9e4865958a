import { Card, Flex, Table, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { maskApiKey } from '../utils/mask-api-key';
import {
  buildCurlExample,
  describeLimits,
  describeType,
  exampleAnswer,
  exampleTextLines,
  hasTextAnswer,
  type TApiOperation,
  type TApiParameter,
  type TExampleValues,
} from '../utils/openapi';
import { CopyButton } from '../../../components/copy-button';

const METHOD_COLORS: Record<string, string> = {
  GET: 'blue',
  POST: 'green',
  PUT: 'orange',
  DELETE: 'red',
  PATCH: 'purple',
};

/** Props of one documented call. */
export type TOperationCardProps = {
  operation: TApiOperation;
  origin: string;
  apiKey: string;
  isKeyRevealed: boolean;
  values: TExampleValues;
};

function CodeBlock({ text, label }: { text: string; label: string }) {
  const { token } = theme.useToken();
  return (
    <pre
      aria-label={label}
      style={{
        margin: 0,
        padding: 12,
        background: token.colorFillTertiary,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        fontSize: 12.5,
        lineHeight: 1.5,
        overflow: 'auto',
        maxHeight: 320,
        whiteSpace: 'pre',
      }}
    >
      {text}
    </pre>
  );
}

/** One call of the customer API: method, path, summary, parameters, a copyable curl and an example answer. */
export function OperationCard({ operation, origin, apiKey, isKeyRevealed, values }: TOperationCardProps) {
  const { t } = useTranslation('api-docs');
  const curl = buildCurlExample(operation, origin, apiKey, values);
  // The shown command hides the key unless revealed; the copied one carries it, so it works when pasted.
  const shownCurl = isKeyRevealed || !apiKey ? curl : buildCurlExample(operation, origin, maskApiKey(apiKey), values);
  const summary = t(`operations.${operation.id}`, { defaultValue: operation.summary });
  const isJson = /json/.test(operation.responseType);
  const textLines = hasTextAnswer(operation) ? exampleTextLines(operation) : '';

  return (
    <Card
      size="small"
      title={
        <Flex gap={8} align="center" wrap>
          <Tag color={METHOD_COLORS[operation.method] ?? 'default'} style={{ fontWeight: 600, marginInlineEnd: 0 }}>
            {operation.method}
          </Tag>
          <Typography.Text code copyable={{ text: operation.path }} style={{ fontSize: 14 }}>
            {operation.path}
          </Typography.Text>
        </Flex>
      }
      data-testid={`operation-${operation.id}`}
    >
      <Typography.Paragraph>{summary}</Typography.Paragraph>
      {operation.parameters.length > 0 && (
        <>
          <Typography.Title level={5}>{t('operation.parameters')}</Typography.Title>
          <Table<TApiParameter>
            rowKey={(p) => `${p.in}:${p.name}`}
            size="small"
            pagination={false}
            dataSource={operation.parameters}
            scroll={{ x: 640 }}
            style={{ marginBottom: 16 }}
            columns={[
              {
                key: 'name',
                title: t('operation.name'),
                dataIndex: 'name',
                render: (name: string) => (
                  <Typography.Text code style={{ whiteSpace: 'nowrap' }}>
                    {name}
                  </Typography.Text>
                ),
              },
              {
                key: 'in',
                title: t('operation.in'),
                dataIndex: 'in',
                render: (where: string) => (
                  <span style={{ whiteSpace: 'nowrap' }}>{t(`operation.where.${where}`, { defaultValue: where })}</span>
                ),
              },
              {
                key: 'type',
                title: t('operation.type'),
                render: (_, p) => <Typography.Text type="secondary">{describeType(p.schema)}</Typography.Text>,
              },
              {
                key: 'required',
                title: t('operation.required'),
                render: (_, p) =>
                  p.required ? <Tag color="red">{t('operation.yes')}</Tag> : <Tag>{t('operation.no')}</Tag>,
              },
              {
                key: 'description',
                title: t('operation.description'),
                render: (_, p) => {
                  const text = t(`params.${p.name}`, { defaultValue: p.description ?? '' });
                  const limits = describeLimits(p.schema, {
                    default: t('operation.default'),
                    chars: t('operation.chars'),
                  });
                  return (
                    <>
                      {text}
                      {limits && <Typography.Text type="secondary">{text ? ` (${limits})` : limits}</Typography.Text>}
                    </>
                  );
                },
              },
            ]}
          />
        </>
      )}
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('operation.curl')}
        </Typography.Title>
        <CopyButton size="small" text={curl} disabled={!apiKey} />
      </Flex>
      <CodeBlock text={shownCurl} label={t('operation.curl')} />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('operation.answer')}
      </Typography.Title>
      {textLines && isJson ? (
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">format=text</Typography.Text>
          <CodeBlock text={textLines} label={`${t('operation.answer')} (text)`} />
          <Typography.Text type="secondary">format=json</Typography.Text>
          <CodeBlock text={exampleAnswer(operation)} label={`${t('operation.answer')} (json)`} />
        </Flex>
      ) : (
        <CodeBlock text={isJson ? exampleAnswer(operation) : textLines} label={t('operation.answer')} />
      )}
    </Card>
  );
}
