import { useId, useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type TIconName } from './icons';
import type { TLightForm } from './light-form';
import './auth.css';

/*
 * The sign-in pages' controls as plain elements styled by auth.css after the
 * console's antd theme (colours, radius, sizes, dark theme, focus ring): a
 * labelled field whose error (and help) is tied to the input with
 * aria-describedby, a password field with a show/hide button, buttons and a
 * checkbox.
 */

type TFieldProps = {
  form: TLightForm;
  name: string;
  label: string;
  icon?: TIconName;
  /** Help below the input (e.g. recovery codes). */
  extra?: string;
  /** A button beside the input (the send-code button). */
  addon?: ReactNode;
  /** Shown at the end of the input (a locked invite code). */
  suffix?: ReactNode;
  isPassword?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'name' | 'value' | 'onChange'>;

/** A form field: label, input (with its icon), the field's one error message. */
export function Field({ form, name, label, icon, extra, addon, suffix, isPassword, ...inputProps }: TFieldProps) {
  const { t } = useTranslation('auth');
  const id = `${useId()}-${name}`;
  const [isShown, setIsShown] = useState(false);
  const error = form.errors[name];
  const describedBy = [error ? `${id}-error` : '', extra ? `${id}-extra` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`auth-field${error ? ' auth-field-error' : ''}`}>
      <label className="auth-label" htmlFor={id}>
        {label}
      </label>
      <div className="auth-input-row">
        <span className="auth-input">
          {icon ? <Icon name={icon} className="auth-icon auth-input-prefix" /> : null}
          <input
            id={id}
            name={name}
            type={isPassword && !isShown ? 'password' : 'text'}
            value={form.values[name] ?? ''}
            onChange={(e) => form.setValue(name, e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            {...inputProps}
          />
          {suffix}
          {isPassword ? (
            <button
              type="button"
              className="auth-input-toggle"
              aria-label={isShown ? t('field.hidePassword') : t('field.showPassword')}
              aria-pressed={isShown}
              onClick={() => setIsShown((v) => !v)}
            >
              <Icon name={isShown ? 'eye' : 'eyeInvisible'} />
            </button>
          ) : null}
        </span>
        {addon}
      </div>
      {error ? (
        <div id={`${id}-error`} className="auth-error" role="alert">
          {error}
        </div>
      ) : null}
      {extra ? (
        <div id={`${id}-extra`} className="auth-extra">
          {extra}
        </div>
      ) : null}
    </div>
  );
}

type TButtonProps = {
  variant?: 'primary' | 'default' | 'text' | 'link';
  isBlock?: boolean;
  isLoading?: boolean;
  icon?: TIconName;
} & ButtonHTMLAttributes<HTMLButtonElement>;

/** A button in antd's look: primary, default (outlined), text or link; busy while `isLoading`. */
export function AuthButton({
  variant = 'default',
  isBlock,
  isLoading,
  icon,
  className,
  children,
  type = 'button',
  ...rest
}: TButtonProps) {
  return (
    <button
      type={type}
      className={`auth-btn auth-btn-${variant}${isBlock ? ' auth-btn-block' : ''}${isLoading ? ' auth-btn-loading' : ''}${className ? ` ${className}` : ''}`}
      aria-busy={isLoading || undefined}
      {...rest}
    >
      {isLoading ? <span className="auth-btn-spinner" aria-hidden="true" /> : icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}

/** A labelled checkbox. */
export function AuthCheckbox(props: { checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <label className="auth-checkbox">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} />
      <span>{props.children}</span>
    </label>
  );
}
