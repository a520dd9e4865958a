import { describe, expect, it } from 'vitest';
import {
  renderAccountExistsMail,
  renderCodeMail,
  renderPasswordChangedMail,
  renderWelcomeMail,
} from './mail-templates';

describe('mail templates', () => {
  it('the code e-mail carries the code and its validity in both languages', () => {
    const zh = renderCodeMail('zh', { code: '012345', purpose: 'reset', minutes: 10 });
    expect(zh.subject).toContain('验证码');
    expect(zh.text).toContain('012345');
    expect(zh.text).toContain('重置密码');
    expect(zh.text).toContain('10 分钟');
    const en = renderCodeMail('en', { code: '012345', purpose: 'register', minutes: 10 });
    expect(en.subject).toContain('verification code');
    expect(en.html).toContain('012345');
    expect(en.text).toContain('10 minutes');
  });

  it('the welcome e-mail links to the sign-in page and escapes the username in HTML', () => {
    const en = renderWelcomeMail('en', { username: '<b>x</b>', publicUrl: 'https://console.example/' });
    expect(en.text).toContain('https://console.example/login');
    expect(en.html).toContain('href="https://console.example/login"');
    expect(en.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(en.html).not.toContain('<b>x</b>');
    const zh = renderWelcomeMail('zh', { username: 'x', publicUrl: 'https://console.example' });
    expect(zh.subject).toBe('欢迎加入 ProxyHub');
    expect(zh.text).toContain('https://console.example/login');
  });

  it('the password-changed e-mail offers a reset in both languages', () => {
    expect(renderPasswordChangedMail('zh', { username: 'x', publicUrl: 'http://h' }).text).toContain(
      'http://h/reset-password',
    );
    expect(renderPasswordChangedMail('en', { username: 'x', publicUrl: 'http://h' }).subject).toContain(
      'password was changed',
    );
  });

  it('the account-exists e-mail names the account, links sign-in and reset, and carries the code in both languages', () => {
    const options = { code: '024680', minutes: 10, username: '<i>bob</i>', publicUrl: 'https://console.example/' };
    const en = renderAccountExistsMail('en', options);
    expect(en.subject).toBe('ProxyHub: you already have an account');
    expect(en.text).toContain('https://console.example/login');
    expect(en.text).toContain('https://console.example/reset-password');
    expect(en.text).toContain('024680');
    expect(en.text).toContain('10 minutes');
    expect(en.html).toContain('&lt;i&gt;bob&lt;/i&gt;');
    expect(en.html).not.toContain('<i>bob</i>');
    const zh = renderAccountExistsMail('zh', options);
    expect(zh.subject).toBe('ProxyHub 账号已存在');
    expect(zh.text).toContain('https://console.example/reset-password');
    expect(zh.text).toContain('024680');
    expect(zh.text).toContain('10 分钟');
  });
});
