import { Alert, Button, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../../lib/clipboard';

/** Shows a new signing secret once, with a copy button. */
export function SecretModal({ secret, onClose }: { secret: string | undefined; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  return (
    <Modal
      open={secret !== undefined}
      title={t('secret.title')}
      onCancel={onClose}
      closable={false}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('secret.done')}
        </Button>
      }
    >
      <Alert type="warning" showIcon message={t('secret.once')} style={{ marginBottom: 12 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={secret} aria-label={t('secret.title')} data-testid="webhook-secret" />
        <Button onClick={() => void copyToClipboard(secret ?? '', t('secret.copied'))}>{t('secret.copy')}</Button>
      </Space.Compact>
    </Modal>
  );
}
