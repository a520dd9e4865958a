import type { TCodePurpose } from '@proxy/contract';
import { useCodeSender } from '../../../lib/send-code';
import { AuthButton } from './fields';
import type { TLightForm } from './light-form';

/**
 * "Send code" beside the e-mail field of the register and reset pages (the signed-in forms use
 * components/send-code-button, antd's; both wait per address, see useCodeSender): checks the
 * e-mail, then asks for a code.
 */
export function SendCodeButton({
  form,
  type,
  emailField = 'email',
}: {
  form: TLightForm;
  type: TCodePurpose;
  emailField?: string;
}) {
  const sender = useCodeSender(type, form.values[emailField] ?? '');

  const handleClick = async () => {
    const values = await form.validateFields([emailField]);
    if (!values) return; // the field shows why
    await sender.send(values[emailField]);
  };

  return (
    <AuthButton onClick={() => void handleClick()} isLoading={sender.isSending} disabled={sender.isWaiting}>
      {sender.label}
    </AuthButton>
  );
}
