import { useState } from 'react';
import { Checkbox, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CLAIMS, PRODUCT_NAME, TRIAL_CREDIT_FEN, formatFen } from '@proxy/contract';
import { NOTICE_PENDING_KEY } from '../lib/session';
import { readValue, removeRecord, writeRecord } from '../lib/storage';

/** Local flag: the user ticked "do not show again" (spec section 3). */
export const NOTICE_HIDDEN_KEY = 'NOTICE_HIDDEN';

/** True when the notice should open: right after a sign-in, unless hidden for good. */
export function shouldShowNotice(): boolean {
  return readValue<boolean>('session', NOTICE_PENDING_KEY) === true && readValue<boolean>('local', NOTICE_HIDDEN_KEY) !== true;
}

/** The product notice shown once after sign-in, with "do not show again". */
export function NoticeDialog() {
  const { t } = useTranslation('common');
  const [isOpen, setIsOpen] = useState(shouldShowNotice);
  const [isHiddenForGood, setIsHiddenForGood] = useState(false);
  const close = () => {
    removeRecord('session', NOTICE_PENDING_KEY);
    if (isHiddenForGood) writeRecord('local', NOTICE_HIDDEN_KEY, true);
    setIsOpen(false);
  };
  const params = {
    product: PRODUCT_NAME,
    amount: formatFen(TRIAL_CREDIT_FEN, { symbol: false }).replace(/\.00$/, ''),
    ips: CLAIMS.residentialIps,
    countries: CLAIMS.countries,
    uptime: CLAIMS.uptime,
  };
  return (
    <Modal
      open={isOpen}
      title={t('notice.title', params)}
      onOk={close}
      onCancel={close}
      okText={t('notice.confirm')}
      cancelButtonProps={{ style: { display: 'none' } }}
      data-testid="notice-dialog"
    >
      <Typography.Paragraph>{t('notice.welcome', params)}</Typography.Paragraph>
      <Typography.Paragraph strong>{t('notice.trial', params)}</Typography.Paragraph>
      <Typography.Paragraph>{t('notice.claims', params)}</Typography.Paragraph>
      <Checkbox checked={isHiddenForGood} onChange={(e) => setIsHiddenForGood(e.target.checked)}>
        {t('notice.dontShowAgain')}
      </Checkbox>
    </Modal>
  );
}
