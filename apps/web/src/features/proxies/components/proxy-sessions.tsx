import { Alert, Button, Card, Empty, Flex, List, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  STICKY_SESSION_END_TEXTS,
  STICKY_SESSION_ENDS,
  type TProxyToken,
  type TSessionHold,
  type TSessionHoldsSummary,
} from '@proxy/contract';
import { formatDateTimeMinutes } from '../../../lib/format';
import { getLanguage } from '../../../lib/i18n';
import { usePaging } from '../../../lib/use-paging';
import { useSessionHolds } from '../api/session-holds';

// Whole percent, rounded down: "100 %" only when every session held.
const heldPercent = (summary: TSessionHoldsSummary) =>
  summary.sessions === 0 ? 0 : Math.floor((summary.held * 100) / summary.sessions);

/** One session: its id, when it started, minutes kept of those asked, held or why it ended early. */
function SessionItem({ hold }: { hold: TSessionHold }) {
  const { t } = useTranslation('proxies');
  const lang = getLanguage();
  return (
    <List.Item data-testid="sticky-session">
      <Flex vertical gap={2} style={{ width: '100%', minWidth: 0 }}>
        <Flex justify="space-between" gap={8} wrap>
          <Typography.Text code ellipsis style={{ maxWidth: '60%' }}>
            {hold.session}
          </Typography.Text>
          <Typography.Text type="secondary">{formatDateTimeMinutes(hold.started_at)}</Typography.Text>
        </Flex>
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text>
            {t('sessions.kept', { kept: hold.kept_minutes, asked: hold.asked_minutes })}
          </Typography.Text>
          {hold.end_reason === null ? (
            <Tag color="green">{t('sessions.held')}</Tag>
          ) : (
            <Tag color="orange" style={{ whiteSpace: 'normal' }}>
              {STICKY_SESSION_END_TEXTS[hold.end_reason][lang]}
            </Tag>
          )}
        </Flex>
      </Flex>
    </List.Item>
  );
}

/**
 * A dynamic proxy's sticky sessions of the last 7 days (the session hold report): the share that held their full
 * time, early ends per reason and the sessions, newest first. Static proxies keep one exit: nothing to show.
 */
export function ProxySessions({ token }: { token: TProxyToken }) {
  const { t } = useTranslation('proxies');
  const lang = getLanguage();
  const paging = usePaging(10);
  const isDynamic = token.product === 'dynamic';
  const holds = useSessionHolds(token.token_id, paging.page, paging.pageSize, isDynamic);
  if (!isDynamic) return null;

  const summary = holds.data?.summary;
  let body;
  if (holds.isPending) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (holds.isError || !summary)
    body = (
      <Alert
        type="warning"
        showIcon
        title={t('sessions.loadFailed')}
        action={
          <Button size="small" onClick={() => void holds.refetch()}>
            {t('sessions.retry')}
          </Button>
        }
      />
    );
  else if (summary.sessions === 0)
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        data-testid="sticky-sessions-empty"
        description={
          <Flex vertical gap={4} align="center">
            <span>{t('sessions.empty')}</span>
            <Link to="/proxy/endpoint-generator">{t('sessions.emptyLink')}</Link>
          </Flex>
        }
      />
    );
  else
    body = (
      <Flex vertical gap={8}>
        <Typography.Text strong data-testid="sticky-sessions-share">
          {t('sessions.share', { percent: heldPercent(summary), count: summary.sessions })}
        </Typography.Text>
        {summary.held < summary.sessions && (
          <Flex gap={4} wrap data-testid="sticky-sessions-ends">
            {STICKY_SESSION_ENDS.filter((reason) => summary.ends[reason] > 0).map((reason) => (
              <Tag key={reason} style={{ whiteSpace: 'normal' }}>
                {t('sessions.endCount', {
                  reason: STICKY_SESSION_END_TEXTS[reason][lang],
                  count: summary.ends[reason],
                })}
              </Tag>
            ))}
          </Flex>
        )}
        <List<TSessionHold>
          size="small"
          dataSource={holds.data.records}
          rowKey={(hold) => `${hold.session}@${hold.started_at}`}
          renderItem={(hold) => <SessionItem hold={hold} />}
          pagination={paging.pagination(holds.data.total, { hideOnSinglePage: true, showSizeChanger: false })}
        />
      </Flex>
    );

  return (
    <Card size="small" title={t('sessions.title')} data-testid="sticky-sessions">
      <Flex vertical gap={8}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('sessions.intro')}
        </Typography.Text>
        {body}
      </Flex>
    </Card>
  );
}
