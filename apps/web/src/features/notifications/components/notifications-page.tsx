import { useState } from 'react';
import { Badge, Button, Card, Empty, Flex, List, Segmented, Tag, Typography } from 'antd';
import { CheckOutlined, MailOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TNotification } from '@proxy/contract';
import { useNotificationList } from '../../../entities/notifications/notification-list';
import { formatDateTimeMinutes } from '../../../lib/format';
import { showSuccess } from '../../../lib/message';
import { usePaging } from '../../../lib/use-paging';
import { useMarkAsRead } from '../api/mark-as-read';

/** /notifications (from the header bell): the list with unread/read, mark one or all as read. */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const paging = usePaging();
  const [isUnreadOnly, setIsUnreadOnly] = useState(false);
  const list = useNotificationList({ page: paging.page, pageSize: paging.pageSize, isUnreadOnly });
  const markAsRead = useMarkAsRead();
  const unread = list.data?.unread ?? 0;

  const handleMark = async (id: number | 'all') => {
    try {
      await markAsRead.mutateAsync(id);
      showSuccess(id === 'all' ? t('markedAll') : t('marked'));
    } catch {
      // the request layer has shown why
    }
  };

  const renderItem = (item: TNotification) => (
    <List.Item
      key={item.notification_id}
      actions={
        item.is_read
          ? [<Tag key="read">{t('read')}</Tag>]
          : [
              <Button
                key="mark"
                size="small"
                icon={<CheckOutlined />}
                loading={markAsRead.isPending && markAsRead.variables === item.notification_id}
                onClick={() => void handleMark(item.notification_id)}
              >
                {t('markRead')}
              </Button>,
            ]
      }
    >
      <List.Item.Meta
        avatar={
          <Badge dot={!item.is_read}>
            <MailOutlined style={{ fontSize: 20 }} />
          </Badge>
        }
        title={
          <Flex gap={8} align="center" wrap>
            <Typography.Text strong={!item.is_read}>{item.title}</Typography.Text>
            {!item.is_read && <Tag color="processing">{t('unread')}</Tag>}
          </Flex>
        }
        description={
          <>
            <Typography.Paragraph
              style={{ marginBottom: 4, whiteSpace: 'pre-line' }}
              type={item.is_read ? 'secondary' : undefined}
            >
              {item.content}
            </Typography.Paragraph>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {formatDateTimeMinutes(item.created_at)}
            </Typography.Text>
          </>
        }
      />
    </List.Item>
  );

  return (
    <Card
      title={
        <Flex gap={8} align="center">
          {t('title')}
          {unread > 0 && <Badge count={unread} />}
        </Flex>
      }
      extra={
        <Button
          type="link"
          disabled={unread === 0}
          loading={markAsRead.isPending && markAsRead.variables === 'all'}
          onClick={() => void handleMark('all')}
        >
          {t('markAllRead')}
        </Button>
      }
    >
      <Segmented
        style={{ marginBottom: 16 }}
        value={isUnreadOnly ? 'unread' : 'all'}
        onChange={(value) => {
          setIsUnreadOnly(value === 'unread');
          paging.toFirstPage();
        }}
        options={[
          { label: t('filter.all'), value: 'all' },
          { label: t('filter.unread'), value: 'unread' },
        ]}
      />
      <List<TNotification>
        loading={list.isPending}
        dataSource={list.data?.records ?? []}
        renderItem={renderItem}
        locale={{ emptyText: <Empty description={isUnreadOnly ? t('emptyUnread') : t('empty')} /> }}
        pagination={
          (list.data?.total ?? 0) > paging.pageSize
            ? paging.pagination(list.data?.total, { showSizeChanger: false, showTotal: undefined })
            : false
        }
      />
    </Card>
  );
}
