import { useTranslation } from 'react-i18next';
import { Field } from '../ui/fields';
import type { TLightForm } from '../ui/light-form';
import { SendCodeButton } from '../ui/send-code-button';

/**
 * The fields the register and reset pages share, in this order: the e-mail with its send-code
 * button, the code sent to it, the new password and its confirmation; labelled from the page's
 * own section of the auth texts (`register.*` or `reset.*`).
 */
export function EmailCodePasswordFields({ form, section }: { form: TLightForm; section: 'register' | 'reset' }) {
  const { t } = useTranslation('auth');
  return (
    <>
      <Field
        form={form}
        name="email"
        label={t(`${section}.email`)}
        icon="mail"
        placeholder={t(`${section}.emailPlaceholder`)}
        autoComplete="email"
        addon={<SendCodeButton form={form} type={section} />}
      />
      <Field
        form={form}
        name="code"
        label={t(`${section}.code`)}
        icon="safety"
        placeholder={t(`${section}.codePlaceholder`)}
        maxLength={6}
        inputMode="numeric"
        autoComplete="one-time-code"
      />
      <Field
        form={form}
        name="password"
        label={t(`${section}.password`)}
        icon="lock"
        isPassword
        placeholder={t(`${section}.passwordPlaceholder`)}
        autoComplete="new-password"
      />
      <Field
        form={form}
        name="confirm_password"
        label={t(`${section}.confirmPassword`)}
        icon="lock"
        isPassword
        placeholder={t(`${section}.confirmPasswordPlaceholder`)}
        autoComplete="new-password"
      />
    </>
  );
}
