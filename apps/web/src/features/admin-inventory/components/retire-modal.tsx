import { useEffect, useState } from 'react';
import { Alert, Flex, Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TInventoryNode } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { getErrorMessage } from '../../../lib/server-issues';
import { useMoveTargets, useRetireNode } from '../api/inventory';

/**
 * Retire an exit (status disabled). While live proxies are pinned to it, the
 * server refuses unless a free exit of the same kind and area takes them over:
 * the dialog offers those, and shows a refusal in the operator's language.
 */
export function RetireModal({ node, onClose }: { node: TInventoryNode | null; onClose: () => void }) {
  const { t } = useTranslation('admin-inventory');
  const retire = useRetireNode();
  const [moveTo, setMoveTo] = useState<number | undefined>(undefined);
  const targets = useMoveTargets(node && node.pinned_tokens > 0 ? node : null);

  useEffect(() => {
    retire.reset();
    setMoveTo(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new node starts a new dialog
  }, [node]);

  const candidates = (targets.data?.records ?? []).filter(
    (n) =>
      node &&
      n.id !== node.id &&
      n.egress !== 'direct' &&
      n.state === node.state &&
      n.city === node.city &&
      n.pinned_tokens === 0,
  );

  const submit = async () => {
    if (!node) return;
    const done = await retire.mutateAsync({ id: node.id, ...(moveTo ? { move_to: moveTo } : {}) }).catch(() => null);
    if (!done) return;
    showSuccess(
      done.moved_tokens > 0 ? t('retire.moved', { count: done.moved_tokens, id: done.moved_to }) : t('retire.done'),
    );
    onClose();
  };

  return (
    <Modal
      open={node !== null}
      title={t('retire.title', { id: node?.id })}
      okText={t('retire.confirm')}
      okButtonProps={{ danger: true }}
      cancelText={t('cancel')}
      confirmLoading={retire.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Typography.Paragraph style={{ margin: 0 }}>{t('retire.explain')}</Typography.Paragraph>
        {node && node.pinned_tokens > 0 && (
          <>
            <Alert type="warning" showIcon title={t('retire.pinned', { count: node.pinned_tokens })} />
            <Select
              allowClear
              aria-label={t('retire.moveTo')}
              placeholder={t('retire.moveTo')}
              loading={targets.isFetching}
              value={moveTo}
              onChange={(v?: number) => setMoveTo(v)}
              notFoundContent={t('retire.noTargets')}
              options={candidates.map((n) => ({
                value: n.id,
                label: `#${n.id} ${n.host}:${n.port}${n.exit_ip ? ` (${n.exit_ip})` : ''}`,
              }))}
            />
          </>
        )}
        {retire.error && (
          <Alert type="error" showIcon title={getErrorMessage(retire.error)} data-testid="retire-refusal" />
        )}
      </Flex>
    </Modal>
  );
}
