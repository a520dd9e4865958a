import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { createMemoryMailer, createTestConfig, createTestDatabase } from '../../test/helpers';
import { registerUser } from '../features/auth/auth-test-kit';
import { maskError, maskSecretsInText, maskUrl } from './logger';

describe('masking secrets in URLs and texts', () => {
  it.each([
    ['/api/v1/proxies?key=pk_abcdefghijklmnopqrstuvwxyz012345&page=2', '/api/v1/proxies?key=[REDACTED]&page=2'],
    ['/api/x?page=1&KEY=secret', '/api/x?page=1&KEY=[REDACTED]'],
    [
      '/api/x?token=t&code=123456&password=hunter2&access_token=a&api_key=b',
      '/api/x?token=[REDACTED]&code=[REDACTED]&password=[REDACTED]&access_token=[REDACTED]&api_key=[REDACTED]',
    ],
    ['/api/x?%6Bey=secret', '/api/x?%6Bey=[REDACTED]'],
    ['/api/x?key', '/api/x?key=[REDACTED]'],
    ['/api/x?monkey=1&keys=2', '/api/x?monkey=1&keys=2'],
    ['/api/user/info', '/api/user/info'],
    ['/api/x?%E0%A4%A=1', '/api/x?%E0%A4%A=1'],
  ])('%s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });

  it('masks API keys, bearer tokens and secret parameters inside any text', () => {
    expect(maskSecretsInText('GET https://h/api/v1/proxies?page=1&key=pk_abc123abc123 failed')).toBe(
      'GET https://h/api/v1/proxies?page=1&key=[REDACTED] failed',
    );
    expect(maskSecretsInText('the key pk_AbCdEfGhIjKlMnOp was used')).toBe('the key pk_[REDACTED] was used');
    expect(maskSecretsInText('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer [REDACTED]');
    expect(maskSecretsInText('nothing to hide')).toBe('nothing to hide');
  });
});

describe('masking errors', () => {
  it('keeps the type and masks message, stack, fields, query parameters and causes', () => {
    class QueryError extends Error {
      constructor(
        readonly query: string,
        readonly params: unknown[],
        cause: Error,
      ) {
        super(`Failed query: select * from users where api_key = $1\nparams: pk_secretsecretsecret,alice@example.com`, {
          cause,
        });
      }
    }
    const original = new QueryError('select 1', ['pk_secretsecretsecret'], new Error('caused by pk_innersecretsecret'));
    const masked = maskError(original) as QueryError;
    expect(masked).toBeInstanceOf(QueryError);
    expect(masked.message).toBe('Failed query: select * from users where api_key = $1\nparams: [REDACTED]');
    expect(masked.params).toBe('[REDACTED]');
    expect((masked.cause as Error).message).toBe('caused by pk_[REDACTED]');
    expect(masked.stack).not.toContain('pk_secret');
    // The original is untouched.
    expect(original.params).toEqual(['pk_secretsecretsecret']);
  });
});

describe('log lines of the API', () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  let close: () => Promise<void>;
  const mailer = createMemoryMailer();

  beforeAll(async () => {
    const database = await createTestDatabase();
    const built = await buildApp({ config: createTestConfig(), database, mailer, logger: { level: 'info', stream } });
    app = built.app;
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(async () => {
    await close();
  });

  it('a request with ?key=pk_... and an Authorization header leaves no secret in the log', async () => {
    const token = await registerUser(app, mailer, {
      email: 'logged@example.com',
      username: 'logged',
      password: 'logged-password',
    });
    const info = await app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { authorization: `Bearer ${token}` },
    });
    const apiKey = info.json().data.token as string;
    expect(apiKey).toMatch(/^pk_/);
    lines.length = 0;

    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/proxies?page=1&key=${apiKey}`,
      headers: { authorization: `Bearer ${token}`, 'x-api-key': apiKey },
    });
    expect(res.statusCode).toBe(200);
    await app.inject({ method: 'GET', url: `/api/v1/proxies?key=${apiKey}` });
    await app.inject({
      method: 'POST',
      url: '/api/user/login?password=in-the-query',
      payload: 'email=logged&password=logged-password',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    // A feature logging request data, an error or a URL in its message is masked too.
    app.log.error({ err: new Error(`Failed query: select 1\nparams: ${apiKey},logged-password`) }, 'unexpected error');
    app.log.info(
      {
        headers: { authorization: `Bearer ${token}`, 'x-api-key': apiKey },
        body: { password: 'logged-password', code: '482913' },
        target: `/api/v1/proxies?key=${apiKey}`,
      },
      `calling /api/v1/proxies?key=${apiKey} with ${apiKey}`,
    );

    const log = lines.join('\n');
    // The log did record the calls (so the checks below look at real lines).
    expect(log).toContain('/api/v1/proxies?page=1&key=[REDACTED]');
    expect(log).toContain('"url":"/api/user/login?password=[REDACTED]"');
    expect(log).toContain('"statusCode":200');
    expect(log).toContain('"type":"Error","message":"Failed query: select 1\\nparams: [REDACTED]"');
    for (const secret of [apiKey, token, token.split('.')[1], 'logged-password', 'in-the-query', '482913']) {
      expect(log).not.toContain(secret);
    }
  });
});
