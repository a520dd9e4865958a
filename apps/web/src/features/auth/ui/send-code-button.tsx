import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_MS } from '@proxy/contract/light';
import type { TCodePurpose } from '@proxy/contract';
import { showSuccess } from '../../../lib/message';
import { useSendCode } from '../../../lib/send-code';
import { AuthButton } from './fields';
import type { TLightForm } from './light-form';

/**
 * "Send code" beside the e-mail field of the register and reset pages (the signed-in forms use
 * components/send-code-button, antd's): checks the e-mail, asks for a code, then counts down 60 s
 * before a resend. The wait belongs to the address the code went to: another address ends it.
 */
export function SendCodeButton({ form, type, emailField = 'email' }: { form: TLightForm; type: TCodePurpose; emailField?: string }) {
  const { t } = useTranslation('common');
  const sendCode = useSendCode();
  const [waiting, setWaiting] = useState<{ email: string; seconds: number }>({ email: '', seconds: 0 });
  const isSameAddress = (form.values[emailField] ?? '').trim().toLowerCase() === waiting.email;
  const secondsLeft = isSameAddress ? waiting.seconds : 0;

  useEffect(() => {
    if (!isSameAddress && waiting.seconds > 0) setWaiting({ email: '', seconds: 0 });
  }, [isSameAddress, waiting.seconds]);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setWaiting((w) => ({ ...w, seconds: w.seconds - 1 })), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const handleClick = async () => {
    const values = await form.validateFields([emailField]);
    if (!values) return; // the field shows why
    const email = values[emailField];
    try {
      const answer = await sendCode.mutateAsync({ email, type });
      showSuccess(t('code.sent', { email }));
      const seconds = answer.resend_after > 0 ? answer.resend_after : CODE_RESEND_MS / 1000;
      setWaiting({ email: email.trim().toLowerCase(), seconds });
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <AuthButton onClick={handleClick} isLoading={sendCode.isPending} disabled={secondsLeft > 0}>
      {secondsLeft > 0 ? t('code.resend', { seconds: secondsLeft }) : t('code.send')}
    </AuthButton>
  );
}
