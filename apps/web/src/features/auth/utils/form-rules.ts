import type { FormInstance, FormRule } from 'antd';
import { ZChangePasswordForm, validationMessage } from '@proxy/contract';
import { zodRule } from '../../../lib/form-rules';
import { getLanguage } from '../../../lib/i18n';

/** A field that only has to be filled: the contract's "required" rule (non-empty string). */
export const zFilled = ZChangePasswordForm.shape.current_password;

/**
 * Rules of a "confirm password" field: filled, and equal to the form's
 * `password` field ("The two passwords you entered are inconsistent").
 */
export function getConfirmPasswordRules(form: FormInstance, passwordField = 'password'): FormRule[] {
  return [
    zodRule(zFilled),
    {
      validator: (_rule, value) =>
        !value || value === form.getFieldValue(passwordField)
          ? Promise.resolve()
          : Promise.reject(new Error(validationMessage('passwordMismatch', getLanguage()))),
    },
  ];
}
