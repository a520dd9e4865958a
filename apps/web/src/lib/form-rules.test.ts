import { afterEach, describe, expect, it } from 'vitest';
import type { FormInstance, FormRule } from 'antd';
import { ZRegisterForm, zCode, zUsername } from '@proxy/contract';
import { setLanguage } from './i18n';
import { getConfirmPasswordRules, lazyZodRule, zodFormRule, zodRule } from './form-rules';

type TValidator = (rule: unknown, value: unknown) => Promise<void>;

function validatorOf(rule: FormRule, values: Record<string, unknown> = {}): TValidator {
  const form = { getFieldsValue: () => values } as unknown as FormInstance;
  const object = typeof rule === 'function' ? rule(form) : rule;
  return object.validator as TValidator;
}

afterEach(() => setLanguage('zh'));

describe('zodRule', () => {
  it('passes valid values and shows the contract message in the interface language', async () => {
    const check = validatorOf(zodRule(zUsername));
    await expect(check({}, 'alice')).resolves.toBeUndefined();
    setLanguage('zh');
    await expect(check({}, 'a')).rejects.toThrow('用户名长度为 2-20 个字符');
    setLanguage('en');
    await expect(check({}, 'a')).rejects.toThrow('Username must be 2-20 characters');
    await expect(validatorOf(zodRule(zCode))({}, '12345')).rejects.toThrow('The verification code is 6 digits');
    await expect(validatorOf(zodRule(zCode))({}, undefined)).rejects.toThrow('This field is required');
  });
});

describe('zodFormRule', () => {
  it('reports whole-form refinements on their field', async () => {
    setLanguage('en');
    const values = {
      username: 'alice',
      email: 'a@b.co',
      password: '12345678',
      confirm_password: '87654321',
      code: '123456',
    };
    const check = validatorOf(zodFormRule(ZRegisterForm, 'confirm_password'), values);
    await expect(check({}, values.confirm_password)).rejects.toThrow('The two passwords you entered are inconsistent');
    const same = { ...values, confirm_password: '12345678' };
    await expect(
      validatorOf(zodFormRule(ZRegisterForm, 'confirm_password'), same)({}, same.confirm_password),
    ).resolves.toBeUndefined();
  });
});

describe('lazyZodRule', () => {
  it('checks with the schema it picks from the lazily loaded contract, with the same messages', async () => {
    const check = validatorOf(lazyZodRule((schemas) => schemas.ZRegisterForm.shape.username));
    await expect(check({}, 'alice')).resolves.toBeUndefined();
    setLanguage('en');
    await expect(check({}, 'a')).rejects.toThrow('Username must be 2-20 characters');
    await expect(validatorOf(lazyZodRule((schemas) => schemas.ZLoginForm.shape.email))({}, '  ')).rejects.toThrow(
      'Please enter your username and password',
    );
  });

  it('makes a password confirmation required and equal to the password', async () => {
    setLanguage('en');
    const form = { getFieldValue: () => '12345678' } as unknown as FormInstance;
    const [filled, same] = getConfirmPasswordRules(form).map((rule) => validatorOf(rule));
    await expect(filled({}, '')).rejects.toThrow('This field is required');
    await expect(same({}, '87654321')).rejects.toThrow('The two passwords you entered are inconsistent');
    await expect(same({}, '12345678')).resolves.toBeUndefined();
  });
});
