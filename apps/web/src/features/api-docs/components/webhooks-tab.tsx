import { Alert, Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENT_TYPES } from '@proxy/contract';

/** A receiver in Node (no dependencies): checks the signature and the timestamp, then deduplicates by the event id. */
const NODE_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const SECRET = process.env.WEBHOOK_SECRET; // whsec_..., shown when the endpoint was created
const seen = new Set(); // use your database: a unique key on the event id

function isGenuine(headers, body) {
  const timestamp = headers['webhook-timestamp'] ?? '';
  const signature = headers['webhook-signature'] ?? '';
  const expected = 'v1=' + createHmac('sha256', SECRET).update(\`\${timestamp}.\${body}\`).digest('hex');
  const isFresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return isFresh && signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8'); // the raw body, before any JSON parsing
    if (!isGenuine(req.headers, body)) return res.writeHead(400).end();
    const eventId = req.headers['webhook-id'];
    if (!seen.has(eventId)) {
      seen.add(eventId);
      const event = JSON.parse(body); // { id, type, created_at, data }
      console.log(event.type, event.data);
    }
    res.writeHead(200).end(); // answer 2xx fast; a duplicate gets 2xx too
  });
}).listen(8443); // behind your HTTPS front end
`;

/** The API docs' Webhooks tab: the delivery format, how to verify a signature, and the dedup rule. */
export function WebhooksTab() {
  const { t } = useTranslation('api-docs', { keyPrefix: 'webhooks' });
  return (
    <div id="webhooks">
      <Typography.Paragraph>{t('intro')}</Typography.Paragraph>
      <Descriptions
        bordered
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'id', label: 'Webhook-Id', children: t('headers.id') },
          { key: 'ts', label: 'Webhook-Timestamp', children: t('headers.timestamp') },
          { key: 'sig', label: 'Webhook-Signature', children: t('headers.signature') },
          {
            key: 'body',
            label: t('bodyLabel'),
            children: <Typography.Text code>{'{ "id", "type", "created_at", "data" }'}</Typography.Text>,
          },
        ]}
      />
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('dedup.title')}
        description={t('dedup.text')}
      />
      <Typography.Title level={5}>{t('verifyTitle')}</Typography.Title>
      <Typography.Paragraph>
        <pre style={{ whiteSpace: 'pre', overflowX: 'auto' }}>{NODE_SNIPPET}</pre>
      </Typography.Paragraph>
      <Typography.Title level={5}>{t('eventsTitle')}</Typography.Title>
      <Descriptions
        bordered
        size="small"
        column={1}
        items={WEBHOOK_EVENT_TYPES.map((type) => ({
          key: type,
          label: <Typography.Text code>{type}</Typography.Text>,
          children: t(`events.${type}`),
        }))}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('retries')}
      </Typography.Paragraph>
    </div>
  );
}
