import { Card, Empty, Flex, Image, Skeleton, Tag, Typography } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TWorkOrderAttachment, TWorkOrderMessage } from '@proxy/contract';
import { formatDateTimeMinutes } from '../../lib/format';
import { useAttachmentUrl } from './attachment-file';

/** One attached image: a thumbnail that opens the full image. */
function AttachmentThumb({ attachment }: { attachment: TWorkOrderAttachment }) {
  const { t } = useTranslation('common');
  const { url, isError } = useAttachmentUrl(attachment.attachment_id);
  if (isError) {
    return (
      <Tag icon={<PictureOutlined />} color="error">
        {t('workOrder.imageFailed', { name: attachment.filename })}
      </Tag>
    );
  }
  if (!url) return <Skeleton.Image active style={{ width: 96, height: 96 }} />;
  return (
    <Image
      src={url}
      alt={attachment.filename}
      width={96}
      height={96}
      style={{ objectFit: 'cover' }}
      data-testid="work-order-image"
    />
  );
}

/**
 * A work order's conversation, oldest message first: who wrote it, when, the
 * text and its images. `viewer` names the customer "You" on the customer's screen.
 */
export function WorkOrderConversation({
  messages,
  viewer,
}: {
  messages: TWorkOrderMessage[];
  viewer: 'customer' | 'operator';
}) {
  const { t } = useTranslation('common');
  if (messages.length === 0) return <Empty />;
  return (
    <Flex vertical gap={12} data-testid="work-order-conversation">
      {messages.map((message) => {
        const isOperator = message.author === 'operator';
        return (
          <Card
            key={message.message_id}
            size="small"
            data-testid={`work-order-message-${message.author}`}
            style={{ marginLeft: isOperator ? 0 : 48, marginRight: isOperator ? 48 : 0 }}
            styles={{ body: { background: isOperator ? 'var(--ant-color-primary-bg, #e6f0ff)' : undefined } }}
            title={
              <Flex gap={8} align="center" wrap>
                <Tag color={isOperator ? 'blue' : 'default'}>
                  {t(`workOrder.author.${!isOperator && viewer === 'customer' ? 'me' : message.author}`)}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
                  {formatDateTimeMinutes(message.created_at)}
                </Typography.Text>
              </Flex>
            }
          >
            <Typography.Paragraph
              style={{ whiteSpace: 'pre-wrap', marginBottom: message.attachments.length > 0 ? 8 : 0 }}
            >
              {message.content}
            </Typography.Paragraph>
            {message.attachments.length > 0 && (
              <Image.PreviewGroup>
                <Flex gap={8} wrap>
                  {message.attachments.map((attachment) => (
                    <AttachmentThumb key={attachment.attachment_id} attachment={attachment} />
                  ))}
                </Flex>
              </Image.PreviewGroup>
            )}
          </Card>
        );
      })}
    </Flex>
  );
}
