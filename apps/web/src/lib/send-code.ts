import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_MS } from '@proxy/contract/light';
import type { TCodePurpose, TRouteRequest } from '@proxy/contract';
import { callApi } from './api-client';
import { translate } from './i18n';
import { showSuccess } from './message';

/** E-mail and purpose of a verification code. */
export type TSendCodeInput = TRouteRequest<'userCode'>;

/** E-mails a 6-digit code; failures say "verification code send failed" with the server's reason. */
export function sendCode(input: TSendCodeInput) {
  return callApi('userCode', input, { failureMessage: translate('common:code.failed') });
}

/** Mutation of a send-code button. */
export function useSendCode() {
  return useMutation({ mutationFn: sendCode });
}

/**
 * What a "send code" button does, whatever its kit (the sign-in pages' plain one, antd's
 * elsewhere): asks for a code, says where it went, then counts down 60 s (or the server's
 * wait) before a resend. The wait belongs to the address the code went to: `currentEmail`,
 * the field's value now, being another address ends it.
 */
export function useCodeSender(type: TCodePurpose, currentEmail: unknown) {
  const { t } = useTranslation('common');
  const mutation = useSendCode();
  const [waiting, setWaiting] = useState<{ email: string; seconds: number }>({ email: '', seconds: 0 });
  const isSameAddress = typeof currentEmail === 'string' && currentEmail.trim().toLowerCase() === waiting.email;
  const secondsLeft = isSameAddress ? waiting.seconds : 0;

  useEffect(() => {
    if (!isSameAddress && waiting.seconds > 0) setWaiting({ email: '', seconds: 0 });
  }, [isSameAddress, waiting.seconds]);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setWaiting((w) => ({ ...w, seconds: w.seconds - 1 })), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const send = async (email: string) => {
    try {
      const answer = await mutation.mutateAsync({ email, type });
      showSuccess(t('code.sent', { email }));
      const seconds = answer.resend_after > 0 ? answer.resend_after : CODE_RESEND_MS / 1000;
      setWaiting({ email: email.trim().toLowerCase(), seconds });
    } catch {
      // the request layer has shown why
    }
  };

  return {
    send,
    isSending: mutation.isPending,
    isWaiting: secondsLeft > 0,
    label: secondsLeft > 0 ? t('code.resend', { seconds: secondsLeft }) : t('code.send'),
  };
}
