import type { AddressInfo } from 'node:net';
import { count, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORK_ORDER_ATTACHMENT_MAX_BYTES } from '@proxy/contract';
import { notifications, proxyTokens, workOrderAttachments, workOrders } from '@proxy/db';
import { createMemoryMailer, createTestApp, type TTestApp } from '../../../test/helpers';
import { createMailer, type TMailer } from '../../lib/mailer';
import { createAdmin, createUser, request, type TTestUser } from '../proxies/proxies-test-kit';

// Smallest real images of each accepted type (their first bytes are what counts).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8L'),
  Buffer.alloc(14, 1),
]);

type TPart = { name: string; value?: string; filename?: string; type?: string; data?: Buffer };

/** A multipart/form-data body as a browser sends it. */
function multipartBody(parts: TPart[]): { payload: Buffer; contentType: string } {
  const boundary = '----proxyhub-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.filename}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), part.data ?? Buffer.from(part.value ?? ''), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('work orders', () => {
  // The real SMTP sink: the operator's reply e-mail is what a mail server receives.
  const received: { to: string[]; raw: string }[] = [];
  let sink: SMTPServer;
  const memory = createMemoryMailer();
  let t: TTestApp;
  let ann: TTestUser;
  let bob: TTestUser;
  let operator: TTestUser;

  async function upload(user: TTestUser, file: { data: Buffer; filename?: string; type?: string }, lang = 'en') {
    const body = multipartBody([
      { name: 'file', filename: file.filename ?? 'shot.png', type: file.type ?? 'image/png', data: file.data },
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/user/work/order/attachment',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': body.contentType, lang },
      payload: body.payload,
    });
  }

  async function open(user: TTestUser, body: Record<string, unknown> = {}) {
    return request(t.app, 'POST', '/user/work/order', {
      token: user.token,
      body: {
        category: 'proxy',
        subject: 'Proxy does not connect',
        content: 'Since this morning every request times out.',
        ...body,
      },
    });
  }

  async function workOrderCount(userId: number): Promise<number> {
    const [{ total }] = await t.db.db.select({ total: count() }).from(workOrders).where(eq(workOrders.userId, userId));
    return Number(total);
  }

  beforeAll(async () => {
    sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
    const smtp = createMailer({
      smtpUrl: `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`,
      from: 'ProxyHub <no-reply@proxyhub.test>',
      outboxDir: '/nonexistent',
    });
    // Registration codes are read from memory; every mail also goes through SMTP.
    const mailer: TMailer = {
      describe: 'memory + smtp',
      async send(mail) {
        await memory.send(mail);
        await smtp.send(mail);
      },
    };
    t = await createTestApp({ mailer });
    ann = await createUser(t.app, memory, 'ann');
    bob = await createUser(t.app, memory, 'bob');
    operator = await createAdmin(t.app, t.deps, memory, 'oper');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  });

  it('answers nobody without a session, and the operator calls to customers with 403', async () => {
    expect((await request(t.app, 'GET', '/user/work/order/list')).statusCode).toBe(401);
    expect((await request(t.app, 'POST', '/user/work/order', { body: {} })).statusCode).toBe(401);
    expect((await upload({ ...ann, token: 'nope' }, { data: PNG })).statusCode).toBe(401);
    expect((await request(t.app, 'GET', '/admin/work-orders/list', { token: ann.token })).statusCode).toBe(403);
    expect(
      (await request(t.app, 'POST', '/admin/work-orders/reply/1', { token: ann.token, body: { content: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect((await request(t.app, 'POST', '/admin/work-orders/close/1', { token: ann.token })).statusCode).toBe(403);
  });

  it('refuses bad input with the field and a message in the caller language, and creates nothing', async () => {
    const en = await request(t.app, 'POST', '/user/work/order', {
      token: ann.token,
      lang: 'en',
      body: { category: 'refund', subject: ' ', content: '' },
    });
    expect(en.statusCode).toBe(400);
    expect(en.json().data.issues).toEqual([
      { path: 'category', message: 'Please choose a category: billing, proxy, supply, account or other' },
      { path: 'subject', message: 'Please enter a subject' },
      { path: 'content', message: 'Please describe your question' },
    ]);
    expect(en.json().msg).toBe('Please choose a category: billing, proxy, supply, account or other');
    const zh = await request(t.app, 'POST', '/user/work/order', {
      token: ann.token,
      lang: 'zh',
      body: { category: 'other', subject: 'x'.repeat(101), content: 'ok' },
    });
    expect(zh.json()).toMatchObject({ code: 400, msg: '标题最多 100 个字符' });
    const tooMany = await open(ann, { attachment_ids: [1, 2, 3, 4, 5] });
    expect(tooMany.json().data.issues).toEqual([
      { path: 'attachment_ids', message: 'A message can carry at most 4 images' },
    ]);
    const textId = await open(ann, { token_id: '7' });
    expect(textId.statusCode).toBe(400);
    expect(textId.json().data.issues[0].path).toBe('token_id');
    const status = await request(t.app, 'GET', '/user/work/order/list?status=pending', {
      token: ann.token,
      lang: 'zh',
    });
    expect(status.json()).toMatchObject({ code: 400, msg: '状态须为 open、answered、closed 或 cancelled' });
    const long = await request(t.app, 'POST', '/user/work/order/reply/1', {
      token: ann.token,
      body: { content: 'y'.repeat(5001) },
    });
    expect(long.json().data.issues).toEqual([
      { path: 'content', message: 'The message must be at most 5000 characters' },
    ]);
    expect(await workOrderCount(ann.userId)).toBe(0);
  });

  it('opens a work order about one of your own proxies only', async () => {
    const [token] = await t.db.db
      .insert(proxyTokens)
      .values({
        userId: ann.userId,
        product: 'static',
        category: 'isp',
        billing: 'ip',
        network: 'HTTP',
        country: 'US',
        username: 'ann-wo',
        password: 'pw',
        expiresAt: new Date('2030-01-01'),
      })
      .returning();
    const foreign = await open(bob, { token_id: token.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 7103, msg: 'The selected proxy does not exist' });
    expect(await workOrderCount(bob.userId)).toBe(0);

    // A supply request that is not the customer's (here: none) is refused like another customer's proxy.
    const unknownSupply = await open(ann, { token_id: token.id, supply_request_id: 42 });
    expect(unknownSupply.json()).toMatchObject({ code: 7107, msg: 'The selected supply request does not exist' });
    const created = await open(ann, { token_id: token.id, category: 'supply', subject: '  Restock  ' });
    expect(created.json(), created.body).toMatchObject({
      code: 0,
      data: {
        category: 'supply',
        subject: 'Restock',
        status: 'open',
        token_id: token.id,
        supply_request_id: null,
        messages: [{ author: 'customer', attachments: [] }],
      },
    });
    const list = await request(t.app, 'GET', '/user/work/order/list', { token: ann.token });
    expect(list.json().data).toMatchObject({
      total: 1,
      page: 1,
      records: [{ id: created.json().data.id, status: 'open' }],
    });
    expect((await request(t.app, 'GET', '/user/work/order/list', { token: bob.token })).json().data.total).toBe(0);
    expect(
      (await request(t.app, 'GET', `/user/work/order/detail/${created.json().data.id}`, { token: bob.token }))
        .statusCode,
    ).toBe(404);
  });

  it('cancels only your own open or answered work orders', async () => {
    const mine = (await open(ann)).json().data.id as number;
    const other = await request(t.app, 'POST', `/user/work/order/cancel/${mine}`, { token: bob.token, lang: 'zh' });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 7101, msg: '工单不存在' });
    expect((await request(t.app, 'POST', '/user/work/order/cancel/999999', { token: ann.token })).statusCode).toBe(404);

    const cancelled = await request(t.app, 'POST', `/user/work/order/cancel/${mine}`, { token: ann.token });
    expect(cancelled.json().data).toMatchObject({ id: mine, status: 'cancelled' });
    const again = await request(t.app, 'POST', `/user/work/order/cancel/${mine}`, { token: ann.token });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 7102, msg: 'This work order is already closed or cancelled' });
    const reply = await request(t.app, 'POST', `/user/work/order/reply/${mine}`, {
      token: ann.token,
      body: { content: 'hello?' },
    });
    expect(reply.json().code).toBe(7102);

    const answered = (await open(ann)).json().data.id as number;
    await request(t.app, 'POST', `/admin/work-orders/reply/${answered}`, {
      token: operator.token,
      body: { content: 'Looking into it.' },
    });
    const closeAnswered = await request(t.app, 'POST', `/user/work/order/cancel/${answered}`, { token: ann.token });
    expect(closeAnswered.json().data.status).toBe('cancelled');
    const filtered = await request(t.app, 'GET', '/user/work/order/list?status=cancelled', { token: ann.token });
    expect(filtered.json().data.records.map((r: { id: number }) => r.id)).toEqual([answered, mine]);
  });

  it('takes png, jpeg and webp images by their content, up to 5 MB, and serves them to the owner and operators only', async () => {
    for (const [data, type] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      const res = await upload(ann, { data, filename: 'x.bin', type: 'application/octet-stream' });
      expect(res.json(), res.body).toMatchObject({
        code: 0,
        data: { content_type: type, size: data.length, filename: 'x.bin' },
      });
    }
    const disguised = await upload(
      ann,
      { data: Buffer.from('<svg onload="alert(1)"></svg>'), filename: 'evil.png', type: 'image/png' },
      'zh',
    );
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json()).toMatchObject({ code: 7105, msg: '仅支持 PNG、JPEG 或 WebP 图片' });

    const large = Buffer.concat([PNG, Buffer.alloc(WORK_ORDER_ATTACHMENT_MAX_BYTES + 1 - PNG.length)]);
    const tooLarge = await upload(ann, { data: large });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toMatchObject({
      msg: 'An image must be at most 5 MB',
      data: { issues: [{ path: 'file' }] },
    });
    const exact = await upload(ann, { data: large.subarray(0, WORK_ORDER_ATTACHMENT_MAX_BYTES) });
    expect(exact.json().data.size).toBe(WORK_ORDER_ATTACHMENT_MAX_BYTES);

    const noFile = multipartBody([{ name: 'note', value: 'hello' }]);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/user/work/order/attachment',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': noFile.contentType, lang: 'en' },
      payload: noFile.payload,
    });
    expect(missing.json()).toMatchObject({ code: 400, msg: 'Please choose an image to upload' });
    const asJson = await request(t.app, 'POST', '/user/work/order/attachment', {
      token: ann.token,
      body: { file: 'iVBORw0KGgo=' },
    });
    expect(asJson.statusCode).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/user/work/order/attachment',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': 'multipart/form-data; boundary=zzz' },
      payload: '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
    });
    expect(broken.statusCode).toBeLessThan(500);
    // Only the upload route reads multipart bodies.
    const toJsonRoute = await t.app.inject({
      method: 'POST',
      url: '/api/user/work/order',
      headers: { authorization: `Bearer ${ann.token}`, 'content-type': noFile.contentType },
      payload: noFile.payload,
    });
    expect(toJsonRoute.statusCode).toBe(415);

    const id = exact.json().data.attachment_id as number;
    const own = await request(t.app, 'GET', `/user/work/order/attachment/${id}`, { token: ann.token });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.rawPayload.length).toBe(WORK_ORDER_ATTACHMENT_MAX_BYTES);
    expect((await request(t.app, 'GET', `/user/work/order/attachment/${id}`, { token: bob.token })).statusCode).toBe(
      404,
    );
    expect((await request(t.app, 'GET', `/user/work/order/attachment/${id}`)).statusCode).toBe(401);
    const asOperator = await request(t.app, 'GET', `/user/work/order/attachment/${id}`, { token: operator.token });
    expect(asOperator.statusCode).toBe(200);
    expect(asOperator.rawPayload.subarray(0, 8)).toEqual(PNG.subarray(0, 8));
  });

  it('sends uploads with a message once, and only your own: a refused one leaves no work order behind', async () => {
    const annImage = (await upload(ann, { data: PNG })).json().data.attachment_id as number;
    const bobImage = (await upload(bob, { data: JPEG, filename: 'bob.jpg' })).json().data.attachment_id as number;
    const before = await workOrderCount(bob.userId);
    const stolen = await open(bob, { attachment_ids: [bobImage, annImage] });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().code).toBe(7104);
    expect(await workOrderCount(bob.userId)).toBe(before);
    const [bobRow] = await t.db.db.select().from(workOrderAttachments).where(eq(workOrderAttachments.id, bobImage));
    expect(bobRow.messageId).toBeNull();

    const created = await open(bob, { attachment_ids: [bobImage] });
    expect(created.json().data.messages[0].attachments).toEqual([
      { attachment_id: bobImage, filename: 'bob.jpg', content_type: 'image/jpeg', size: JPEG.length },
    ]);
    const reused = await open(bob, { attachment_ids: [bobImage] });
    expect(reused.json().code).toBe(7104);
  });

  it('an operator reply answers the order, notifies the customer and e-mails them; the customer reply opens it again; closing ends it', async () => {
    const image = (await upload(ann, { data: PNG, filename: 'error.png' })).json().data.attachment_id as number;
    const created = await open(ann, { subject: 'Gateway refuses my login', attachment_ids: [image] });
    const id = created.json().data.id as number;

    const queue = await request(t.app, 'GET', '/admin/work-orders/list?status=open', { token: operator.token });
    expect(queue.json().data.records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, user_id: ann.userId, user_email: ann.email, username: 'ann' }),
      ]),
    );
    const seen = await request(t.app, 'GET', `/admin/work-orders/detail/${id}`, { token: operator.token });
    expect(seen.json().data.messages[0].attachments[0]).toMatchObject({ attachment_id: image, filename: 'error.png' });

    const emptyReply = await request(t.app, 'POST', `/admin/work-orders/reply/${id}`, {
      token: operator.token,
      lang: 'zh',
      body: { content: '   ' },
    });
    expect(emptyReply.json()).toMatchObject({ code: 400, msg: '请描述您的问题' });
    const notFound = await request(t.app, 'POST', '/admin/work-orders/reply/999999', {
      token: operator.token,
      body: { content: 'hi' },
    });
    expect(notFound.statusCode).toBe(404);

    const replyNotifications = async () =>
      (await t.db.db.select().from(notifications).where(eq(notifications.userId, ann.userId))).filter(
        (n) => n.kind === 'work_order_reply',
      ).length;
    const notifiedBefore = await replyNotifications();
    const before = received.length;
    const reply = await request(t.app, 'POST', `/admin/work-orders/reply/${id}`, {
      token: operator.token,
      body: { content: 'Reset the proxy password and try again.' },
    });
    expect(reply.json().data).toMatchObject({
      status: 'answered',
      messages: [{ author: 'customer' }, { author: 'operator', content: 'Reset the proxy password and try again.' }],
    });
    const detail = await request(t.app, 'GET', `/user/work/order/detail/${id}`, { token: ann.token });
    expect(detail.json().data.status).toBe('answered');
    expect(detail.json().data.messages[1]).toMatchObject({
      author: 'operator',
      content: 'Reset the proxy password and try again.',
    });

    expect(await replyNotifications()).toBe(notifiedBefore + 1);
    const bell = await request(t.app, 'GET', '/user/notification/list?unread=true', { token: ann.token, lang: 'en' });
    expect(bell.json().data.records[0]).toMatchObject({
      kind: 'work_order_reply',
      title: 'Your work order has a reply',
      is_read: false,
    });
    const mail = received.slice(before).find((m) => m.to.includes(ann.email));
    expect(mail, 'reply e-mail through SMTP').toBeDefined();
    expect(mail!.raw).toContain(`work order #${id}`);
    expect(mail!.raw).toContain(`/work-orders/${id}`);

    const back = await request(t.app, 'POST', `/user/work/order/reply/${id}`, {
      token: ann.token,
      body: { content: 'Still failing.' },
    });
    expect(back.json().data).toMatchObject({
      status: 'open',
      messages: [{}, {}, { author: 'customer', content: 'Still failing.' }],
    });
    const closed = await request(t.app, 'POST', `/admin/work-orders/close/${id}`, { token: operator.token });
    expect(closed.json().data).toMatchObject({ id, status: 'closed' });
    expect(
      (await request(t.app, 'POST', `/admin/work-orders/close/${id}`, { token: operator.token })).json().code,
    ).toBe(7102);
    expect(
      (
        await request(t.app, 'POST', `/admin/work-orders/reply/${id}`, {
          token: operator.token,
          body: { content: 'late' },
        })
      ).json().code,
    ).toBe(7102);
    expect((await request(t.app, 'POST', `/user/work/order/cancel/${id}`, { token: ann.token })).json().code).toBe(
      7102,
    );
    expect(
      (await request(t.app, 'GET', '/admin/audit/list?route=adminWorkOrderReply', { token: operator.token })).json()
        .data.total,
    ).toBeGreaterThanOrEqual(2);
  });
});
