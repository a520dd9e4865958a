import {
  WORK_ORDER_FILENAME_MAX,
  WORK_ORDER_PENDING_ATTACHMENTS_MAX,
  type TAdminWorkOrder,
  type TAdminWorkOrderDetail,
  type TPage,
  type TUploadedFile,
  type TWorkOrder,
  type TWorkOrderAttachment,
  type TWorkOrderCreateBody,
  type TWorkOrderDetail,
  type TWorkOrderMessage,
  type TWorkOrderStatus,
} from '@proxy/contract';
import type { TDbOrTx } from '@proxy/db';
import { AppError } from '../../lib/app-error';
import { findUserSupply } from '../supply/supply.repository';
import type { TDeps } from '../../lib/deps';
import { RawReply } from '../../lib/routing';
import type { TUserRow } from '../accounts/accounts.repository';
import { renderWorkOrderReplyMail } from '../mail/mail-templates';
import { sendMailQuietly } from '../mail/send-mail';
import { writeNotification } from '../notifications/notifications.service';
import { findUserTokens } from '../proxies/proxies.repository';
import { sniffImageType } from './image-type';
import {
  attachToMessage,
  countPendingAttachments,
  findAttachment,
  findWorkOrder,
  findWorkOrderWithCustomer,
  insertAttachment,
  insertMessage,
  insertWorkOrder,
  listAllWorkOrders,
  listMessageAttachments,
  listMessages,
  listUserWorkOrders,
  moveActiveWorkOrder,
  type TAttachmentMeta,
  type TWorkOrderRow,
  type TWorkOrderWithCustomer,
} from './work-orders.repository';
import { emitWebhookEvent } from '../webhooks/webhooks.service';

type TPageQuery = { page: number; page_size: number };

function toWorkOrder(row: TWorkOrderRow): TWorkOrder {
  return {
    id: row.id,
    category: row.category,
    subject: row.subject,
    status: row.status,
    token_id: row.tokenId,
    supply_request_id: row.supplyRequestId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toAdminWorkOrder(row: TWorkOrderWithCustomer): TAdminWorkOrder {
  return { ...toWorkOrder(row), user_id: row.userId, user_email: row.email, username: row.username };
}

function toAttachment(row: TAttachmentMeta): TWorkOrderAttachment {
  return { attachment_id: row.id, filename: row.filename, content_type: row.contentType, size: row.sizeBytes };
}

async function loadMessages(db: TDbOrTx, workOrderId: number): Promise<TWorkOrderMessage[]> {
  const messages = await listMessages(db, workOrderId);
  const attachments = await listMessageAttachments(
    db,
    messages.map((m) => m.id),
  );
  return messages.map((m) => ({
    message_id: m.id,
    author: m.isOperator ? 'operator' : 'customer',
    content: m.content,
    attachments: attachments.filter((a) => a.messageId === m.id).map(toAttachment),
    created_at: m.createdAt.toISOString(),
  }));
}

/** Writes a message and gives it the author's waiting uploads (all of them, or the transaction fails). */
async function addMessage(
  deps: Pick<TDeps, 'clock'>,
  tx: TDbOrTx,
  message: { workOrderId: number; authorId: number; isOperator: boolean; content: string; attachmentIds?: number[] },
): Promise<void> {
  const inserted = await insertMessage(tx, {
    workOrderId: message.workOrderId,
    authorId: message.authorId,
    isOperator: message.isOperator,
    content: message.content,
    createdAt: deps.clock.now(),
  });
  const ids = message.attachmentIds ?? [];
  const taken = await attachToMessage(tx, message.authorId, ids, inserted.id);
  if (taken !== ids.length) throw new AppError('WORK_ORDER_ATTACHMENT_NOT_FOUND');
}

// Why a work order cannot move: another customer's or a missing one is not found; an ended one says so.
async function refuseMove(db: TDbOrTx, id: number, userId?: number): Promise<never> {
  const row = await findWorkOrder(db, id, userId);
  throw new AppError(row ? 'WORK_ORDER_ENDED' : 'WORK_ORDER_NOT_FOUND');
}

/** A page of the customer's work orders, newest first. */
export async function listWorkOrders(
  deps: Pick<TDeps, 'db'>,
  userId: number,
  query: TPageQuery & { status?: TWorkOrderStatus },
): Promise<TPage<TWorkOrder>> {
  const { rows, total } = await listUserWorkOrders(
    deps.db,
    userId,
    { status: query.status },
    { limit: query.page_size, offset: (query.page - 1) * query.page_size },
  );
  return { records: rows.map(toWorkOrder), total, page: query.page, page_size: query.page_size };
}

/** One of the customer's work orders with its conversation. */
export async function getWorkOrder(deps: Pick<TDeps, 'db'>, userId: number, id: number): Promise<TWorkOrderDetail> {
  const row = await findWorkOrder(deps.db, id, userId);
  if (!row) throw new AppError('WORK_ORDER_NOT_FOUND');
  return { ...toWorkOrder(row), messages: await loadMessages(deps.db, row.id) };
}

/**
 * Opens a work order with its first message. token_id must be one of the
 * customer's proxies, supply_request_id one of the customer's supply requests.
 */
export async function createWorkOrder(
  deps: Pick<TDeps, 'db' | 'clock'>,
  user: TUserRow,
  body: TWorkOrderCreateBody,
): Promise<TWorkOrderDetail> {
  if (body.token_id != null) {
    const [token] = await findUserTokens(deps.db, user.id, [body.token_id]);
    if (!token) throw new AppError('WORK_ORDER_TOKEN_NOT_FOUND');
  }
  if (body.supply_request_id != null && !(await findUserSupply(deps.db, user.id, body.supply_request_id))) {
    throw new AppError('WORK_ORDER_SUPPLY_NOT_FOUND');
  }
  const row = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const order = await insertWorkOrder(tx, {
      userId: user.id,
      category: body.category,
      subject: body.subject,
      status: 'open',
      tokenId: body.token_id ?? null,
      supplyRequestId: body.supply_request_id ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await addMessage(deps, tx, {
      workOrderId: order.id,
      authorId: user.id,
      isOperator: false,
      content: body.content,
      attachmentIds: body.attachment_ids,
    });
    return order;
  });
  return { ...toWorkOrder(row), messages: await loadMessages(deps.db, row.id) };
}

/** Cancels one of the customer's work orders while it is open or answered. */
export async function cancelWorkOrder(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  id: number,
): Promise<TWorkOrder> {
  const now = deps.clock.now();
  const row = await moveActiveWorkOrder(deps.db, id, { status: 'cancelled', updatedAt: now, endedAt: now }, userId);
  if (!row) return refuseMove(deps.db, id, userId);
  return toWorkOrder(row);
}

/** The customer's reply: the work order waits for an operator again (open). */
export async function replyAsCustomer(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  input: { id: number; content: string; attachment_ids?: number[] },
): Promise<TWorkOrderDetail> {
  const row = await deps.db.transaction(async (tx) => {
    const moved = await moveActiveWorkOrder(tx, input.id, { status: 'open', updatedAt: deps.clock.now() }, userId);
    if (!moved) return refuseMove(tx, input.id, userId);
    await addMessage(deps, tx, {
      workOrderId: moved.id,
      authorId: userId,
      isOperator: false,
      content: input.content,
      attachmentIds: input.attachment_ids,
    });
    return moved;
  });
  return { ...toWorkOrder(row), messages: await loadMessages(deps.db, row.id) };
}

/** Stores an uploaded image (PNG, JPEG or WebP by its content) for the user's next work order or reply. */
export async function uploadAttachment(
  deps: Pick<TDeps, 'db' | 'clock'>,
  userId: number,
  file: TUploadedFile,
): Promise<TWorkOrderAttachment> {
  const contentType = sniffImageType(file.bytes);
  if (!contentType) throw new AppError('WORK_ORDER_ATTACHMENT_TYPE');
  if ((await countPendingAttachments(deps.db, userId)) >= WORK_ORDER_PENDING_ATTACHMENTS_MAX)
    throw new AppError('WORK_ORDER_ATTACHMENTS_PENDING');
  // The name is only shown: its last path segment, trimmed to a bound.
  const filename = (file.filename.split(/[\\/]/).pop() ?? '').trim().slice(0, WORK_ORDER_FILENAME_MAX) || 'image';
  const row = await insertAttachment(deps.db, {
    userId,
    filename,
    contentType,
    sizeBytes: file.bytes.length,
    data: Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.length),
    createdAt: deps.clock.now(),
  });
  return toAttachment(row);
}

/** An attachment's image, to its uploader and to operators only (anyone else: not found). */
export async function readAttachment(deps: Pick<TDeps, 'db'>, user: TUserRow, id: number): Promise<RawReply> {
  const row = await findAttachment(deps.db, id);
  if (!row || (row.userId !== user.id && !user.isAdmin)) throw new AppError('NOT_FOUND');
  return new RawReply(row.data, row.contentType);
}

/** The operators' queue: open first, then answered, then ended. */
export async function listQueue(
  deps: Pick<TDeps, 'db'>,
  query: TPageQuery & { status?: TWorkOrderStatus; user_id?: number },
): Promise<TPage<TAdminWorkOrder>> {
  const { rows, total } = await listAllWorkOrders(
    deps.db,
    { status: query.status, userId: query.user_id },
    { limit: query.page_size, offset: (query.page - 1) * query.page_size },
  );
  return { records: rows.map(toAdminWorkOrder), total, page: query.page, page_size: query.page_size };
}

/** Any work order with its conversation and customer (operators). */
export async function getWorkOrderForOperator(deps: Pick<TDeps, 'db'>, id: number): Promise<TAdminWorkOrderDetail> {
  const row = await findWorkOrderWithCustomer(deps.db, id);
  if (!row) throw new AppError('WORK_ORDER_NOT_FOUND');
  return { ...toAdminWorkOrder(row), messages: await loadMessages(deps.db, row.id) };
}

/**
 * An operator's reply: the work order is answered, the customer gets a
 * notification (same transaction) and, after the commit, an e-mail.
 */
export async function replyAsOperator(
  deps: Pick<TDeps, 'db' | 'clock' | 'mailer' | 'log' | 'config'>,
  operatorId: number,
  input: { id: number; content: string },
): Promise<TAdminWorkOrderDetail> {
  await deps.db.transaction(async (tx) => {
    const moved = await moveActiveWorkOrder(tx, input.id, { status: 'answered', updatedAt: deps.clock.now() });
    if (!moved) return refuseMove(tx, input.id);
    await addMessage(deps, tx, {
      workOrderId: moved.id,
      authorId: operatorId,
      isOperator: true,
      content: input.content,
    });
    await writeNotification(deps, moved.userId, 'work_order_reply', tx);
    await emitWebhookEvent(tx, moved.userId, 'work_order.replied', `work_order:${moved.id}`, {
      work_order_id: moved.id,
      subject: moved.subject,
    });
  });
  const detail = await getWorkOrderForOperator(deps, input.id);
  await sendMailQuietly(
    deps,
    detail.user_email,
    renderWorkOrderReplyMail({
      username: detail.username,
      workOrderId: detail.id,
      subject: detail.subject,
      reply: input.content,
      publicUrl: deps.config.publicUrl,
    }),
  );
  return detail;
}

/** An operator closes an open or answered work order. */
export async function closeWorkOrder(deps: Pick<TDeps, 'db' | 'clock'>, id: number): Promise<TAdminWorkOrder> {
  const now = deps.clock.now();
  // In a transaction: the operator call's audit entry is written in it (features/audit).
  const row = await deps.db.transaction(async (tx) => {
    const moved = await moveActiveWorkOrder(tx, id, { status: 'closed', updatedAt: now, endedAt: now });
    return moved ?? refuseMove(tx, id);
  });
  const withCustomer = await findWorkOrderWithCustomer(deps.db, row.id);
  return toAdminWorkOrder(withCustomer!);
}
