import { useEffect, useState } from 'react';
import { Checkbox, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME, TRIAL_CREDIT_FEN, formatFen, type TSiteNotice } from '@proxy/contract';
import { useSiteNotice } from '../entities/site/site-notice';
import { useClaims } from '../entities/site/site-settings';
import { NOTICE_PENDING_KEY } from '../lib/session';
import { readValue, removeRecord, writeRecord } from '../lib/storage';

/** Local flag: the notice the user ticked "do not show again" for (spec section 3), by notice id. */
export const NOTICE_HIDDEN_KEY = 'NOTICE_HIDDEN';
/** Id of the built-in welcome, shown while the operator has published no notice. */
export const WELCOME_NOTICE_ID = 0;

/**
 * True when the notice should open: right after a sign-in, unless the user
 * hid this very notice for good (a newly published notice shows again).
 */
export function shouldShowNotice(noticeId: number): boolean {
  const hidden = readValue<number | boolean>('local', NOTICE_HIDDEN_KEY);
  // `true` is the flag of earlier versions, which only had the welcome.
  const isHidden = hidden === noticeId || (hidden === true && noticeId === WELCOME_NOTICE_ID);
  return readValue<boolean>('session', NOTICE_PENDING_KEY) === true && !isHidden;
}

function WelcomeText() {
  const { t } = useTranslation('common');
  const claims = useClaims();
  const params = {
    product: PRODUCT_NAME,
    amount: formatFen(TRIAL_CREDIT_FEN, { symbol: false }).replace(/\.00$/, ''),
    ips: claims.residential_ips,
    countries: claims.countries,
    uptime: claims.uptime,
  };
  return (
    <>
      <Typography.Paragraph>{t('notice.welcome', params)}</Typography.Paragraph>
      <Typography.Paragraph strong>{t('notice.trial', params)}</Typography.Paragraph>
      <Typography.Paragraph>{t('notice.claims', params)}</Typography.Paragraph>
    </>
  );
}

/**
 * The notice shown once after sign-in, with "do not show again": the notice
 * the operator published last (GET /site/notice), or the built-in welcome
 * while there is none. `onSettled` runs once it is closed or not to be shown
 * (the guided tour waits for it).
 */
export function NoticeDialog(props: { onSettled?: () => void }) {
  const { t } = useTranslation('common');
  const { data, isPending } = useSiteNotice();
  const notice: TSiteNotice | null = data ?? null;
  const noticeId = notice?.notice_id ?? WELCOME_NOTICE_ID;
  const [isClosed, setIsClosed] = useState(false);
  const [isHiddenForGood, setIsHiddenForGood] = useState(false);
  const isOpen = !isPending && !isClosed && shouldShowNotice(noticeId);
  const { onSettled } = props;

  useEffect(() => {
    if (!isPending && !isOpen) onSettled?.();
  }, [isPending, isOpen, onSettled]);

  const close = () => {
    removeRecord('session', NOTICE_PENDING_KEY);
    if (isHiddenForGood) writeRecord('local', NOTICE_HIDDEN_KEY, noticeId);
    setIsClosed(true);
  };
  return (
    <Modal
      open={isOpen}
      title={notice ? notice.title : t('notice.title', { product: PRODUCT_NAME })}
      onOk={close}
      onCancel={close}
      okText={t('notice.confirm')}
      cancelButtonProps={{ style: { display: 'none' } }}
      data-testid="notice-dialog"
    >
      {notice ? (
        <Typography.Paragraph style={{ whiteSpace: 'pre-line' }}>{notice.content}</Typography.Paragraph>
      ) : (
        <WelcomeText />
      )}
      <Checkbox checked={isHiddenForGood} onChange={(e) => setIsHiddenForGood(e.target.checked)}>
        {t('notice.dontShowAgain')}
      </Checkbox>
    </Modal>
  );
}
