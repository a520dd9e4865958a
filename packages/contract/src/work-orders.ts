import { z } from 'zod';
import { ZPageQuery, zPage } from './envelope';
import { defineRoute, type TRouteDef } from './route-def';
import { zId, zIdParam, zJsonNumber } from './validators';

/**
 * Work orders (tickets): a customer opens one about a bill, a proxy, a supply
 * request, the account or anything else, and talks with the operators in its
 * conversation; screenshots go along as image attachments.
 */

/** What a work order is about. */
export const WORK_ORDER_CATEGORIES = ['billing', 'proxy', 'supply', 'account', 'other'] as const;
/** A work order's category. */
export type TWorkOrderCategory = (typeof WORK_ORDER_CATEGORIES)[number];

/**
 * States: open (waiting for an operator), answered (an operator replied; a
 * customer's reply opens it again), closed (by an operator), cancelled (by the
 * customer while it was open or answered). Closed and cancelled are final.
 */
export const WORK_ORDER_STATUSES = ['open', 'answered', 'closed', 'cancelled'] as const;
/** A work order's status. */
export type TWorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];
/** States in which the conversation goes on (reply, cancel, close). */
export const WORK_ORDER_ACTIVE_STATUSES = ['open', 'answered'] as const satisfies readonly TWorkOrderStatus[];

/** Subject length bound. */
export const WORK_ORDER_SUBJECT_MAX = 100;
/** Length bound of one message. */
export const WORK_ORDER_CONTENT_MAX = 5000;
/** Image types an attachment may be (checked by content, not by name). */
export const WORK_ORDER_ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** A work order attachment's image type. */
export type TWorkOrderAttachmentType = (typeof WORK_ORDER_ATTACHMENT_TYPES)[number];
/** Size bound of one attachment: 5 MB. */
export const WORK_ORDER_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** Attachments one message may carry. */
export const WORK_ORDER_ATTACHMENTS_PER_MESSAGE = 4;
/** Uploaded attachments a user may hold before sending them with a message. */
export const WORK_ORDER_PENDING_ATTACHMENTS_MAX = 20;
/** File-name length kept for an attachment. */
export const WORK_ORDER_FILENAME_MAX = 200;

/** An uploaded file as the server's routing layer hands it to a handler (multipart routes). */
export type TUploadedFile = {
  filename: string;
  /** The type the client declared (never trusted: the content decides). */
  mimetype: string;
  bytes: Uint8Array;
  /** True when the file was longer than the route's limit (and was cut). */
  truncated: boolean;
};

function isUploadedFile(value: unknown): value is TUploadedFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<TUploadedFile>;
  return (
    typeof file.filename === 'string' &&
    typeof file.mimetype === 'string' &&
    file.bytes instanceof Uint8Array &&
    typeof file.truncated === 'boolean'
  );
}

/**
 * A file field of a multipart route: a client sends a file (Blob); the handler
 * receives it read, and one longer than 5 MB is refused with `attachmentTooLarge`.
 */
export const zImageUpload = z
  .custom<Blob | TUploadedFile>((value) => isUploadedFile(value), { error: 'attachmentRequired' })
  .transform((value) => value as TUploadedFile)
  .refine((file) => !file.truncated && file.bytes.length <= WORK_ORDER_ATTACHMENT_MAX_BYTES, {
    error: 'attachmentTooLarge',
  })
  .refine((file) => file.bytes.length > 0, { error: 'attachmentType' })
  .meta({ type: 'string', format: 'binary', description: 'A PNG, JPEG or WebP image of at most 5 MB' });

const zCategory = z.enum(WORK_ORDER_CATEGORIES, { error: 'workOrderCategory' });
const zStatusFilter = z.enum(WORK_ORDER_STATUSES, { error: 'workOrderStatus' }).optional();
/** Subject of a new work order: 1-100 characters after trimming. */
export const zWorkOrderSubject = z
  .string({ error: 'workOrderSubjectRequired' })
  .trim()
  .min(1, { error: 'workOrderSubjectRequired' })
  .max(WORK_ORDER_SUBJECT_MAX, { error: 'workOrderSubjectMax' });
/** Text of a message: 1-5000 characters after trimming. */
export const zWorkOrderContent = z
  .string({ error: 'workOrderContentRequired' })
  .trim()
  .min(1, { error: 'workOrderContentRequired' })
  .max(WORK_ORDER_CONTENT_MAX, { error: 'workOrderContentMax' });
const zJsonId = zJsonNumber('invalidValue')
  .int({ error: 'invalidValue' })
  .positive({ error: 'invalidValue' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'invalidValue' });
const zAttachmentIds = z
  .array(zJsonId, { error: 'invalidType' })
  .max(WORK_ORDER_ATTACHMENTS_PER_MESSAGE, { error: 'workOrderAttachmentsMax' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'invalidValue' })
  .optional();

/** Body of a new work order. */
export const ZWorkOrderCreateBody = z.object({
  category: zCategory,
  subject: zWorkOrderSubject,
  content: zWorkOrderContent,
  /** The customer's own proxy the order is about. */
  token_id: zJsonId.nullish(),
  /** The customer's own supply request the order is about. */
  supply_request_id: zJsonId.nullish(),
  /** Attachments uploaded before (POST /user/work/order/attachment), at most 4. */
  attachment_ids: zAttachmentIds,
});
/** Parsed body of a new work order. */
export type TWorkOrderCreateBody = z.output<typeof ZWorkOrderCreateBody>;

/** Body of a reply (customer or operator). */
export const ZWorkOrderReplyBody = z.object({ id: zId, content: zWorkOrderContent, attachment_ids: zAttachmentIds });

/** An image attached to a message. */
export const ZWorkOrderAttachment = z.object({
  attachment_id: z.number().int(),
  filename: z.string(),
  content_type: z.enum(WORK_ORDER_ATTACHMENT_TYPES),
  size: z.number().int(),
});
/** Parsed attachment. */
export type TWorkOrderAttachment = z.infer<typeof ZWorkOrderAttachment>;

/** One message of a work order's conversation. */
export const ZWorkOrderMessage = z.object({
  message_id: z.number().int(),
  /** Who wrote it: the customer or an operator. */
  author: z.enum(['customer', 'operator']),
  content: z.string(),
  attachments: z.array(ZWorkOrderAttachment),
  created_at: z.string(),
});
/** Parsed message. */
export type TWorkOrderMessage = z.infer<typeof ZWorkOrderMessage>;

/** A work order in a list. */
export const ZWorkOrder = z.object({
  id: z.number().int(),
  category: z.enum(WORK_ORDER_CATEGORIES),
  subject: z.string(),
  status: z.enum(WORK_ORDER_STATUSES),
  token_id: z.number().int().nullable(),
  supply_request_id: z.number().int().nullable(),
  created_at: z.string(),
  /** Time of the last message or change of state. */
  updated_at: z.string(),
});
/** Parsed work order. */
export type TWorkOrder = z.infer<typeof ZWorkOrder>;

/** A work order with its conversation, oldest message first. */
export const ZWorkOrderDetail = ZWorkOrder.extend({ messages: z.array(ZWorkOrderMessage) });
/** Parsed work order with its conversation. */
export type TWorkOrderDetail = z.infer<typeof ZWorkOrderDetail>;

/** A work order as operators see it: with its customer. */
export const ZAdminWorkOrder = ZWorkOrder.extend({
  user_id: z.number().int(),
  user_email: z.string(),
  username: z.string(),
});
/** Parsed operator's work order. */
export type TAdminWorkOrder = z.infer<typeof ZAdminWorkOrder>;
/** An operator's work order with its conversation. */
export const ZAdminWorkOrderDetail = ZAdminWorkOrder.extend({ messages: z.array(ZWorkOrderMessage) });
/** Parsed operator's work order with its conversation. */
export type TAdminWorkOrderDetail = z.infer<typeof ZAdminWorkOrderDetail>;

/** Work orders (tickets) of the signed-in customer. */
export const WORK_ORDER_ROUTES = {
  workOrderList: defineRoute({
    method: 'GET',
    path: '/user/work/order/list',
    auth: 'user',
    isCachedPerUser: true,
    summary: 'Work orders, newest first (filter: status)',
    tag: 'support',
    input: ZPageQuery.extend({ status: zStatusFilter }),
    output: zPage(ZWorkOrder),
  }),
  workOrderCreate: defineRoute({
    method: 'POST',
    path: '/user/work/order',
    auth: 'user',
    summary:
      'Open a work order (category, subject, content; optional token_id or supply_request_id and attachment_ids)',
    tag: 'support',
    input: ZWorkOrderCreateBody,
    output: ZWorkOrderDetail,
  }),
  workOrderCancel: defineRoute({
    method: 'POST',
    path: '/user/work/order/cancel/:id',
    auth: 'user',
    summary: 'Cancel one of your open (or answered) work orders',
    tag: 'support',
    input: zIdParam,
    output: ZWorkOrder,
  }),
  workOrderDetail: defineRoute({
    method: 'GET',
    path: '/user/work/order/detail/:id',
    auth: 'user',
    summary: 'A work order with its conversation',
    tag: 'support',
    input: zIdParam,
    output: ZWorkOrderDetail,
  }),
  workOrderReply: defineRoute({
    method: 'POST',
    path: '/user/work/order/reply/:id',
    auth: 'user',
    summary: 'Reply in a work order (opens an answered order again)',
    tag: 'support',
    input: ZWorkOrderReplyBody,
    output: ZWorkOrderDetail,
  }),
  workOrderAttachmentUpload: defineRoute({
    method: 'POST',
    path: '/user/work/order/attachment',
    auth: 'user',
    body: 'multipart',
    maxFileBytes: WORK_ORDER_ATTACHMENT_MAX_BYTES,
    summary: 'Upload an image (png, jpeg or webp, at most 5 MB) to send with a new work order or a reply',
    tag: 'support',
    input: z.object({ file: zImageUpload }),
    output: ZWorkOrderAttachment,
  }),
  workOrderAttachmentFile: defineRoute({
    method: 'GET',
    path: '/user/work/order/attachment/:id',
    auth: 'user',
    summary: 'An attachment image (its owner and operators only)',
    tag: 'support',
    input: zIdParam,
    isBlob: true,
  }),
} as const satisfies Record<string, TRouteDef>;

/** Operators' work-order queue. */
export const WORK_ORDER_ADMIN_ROUTES = {
  adminWorkOrderList: defineRoute({
    method: 'GET',
    path: '/admin/work-orders/list',
    auth: 'admin',
    summary: 'Work orders of every customer, those waiting longest first (filters: status, user)',
    tag: 'admin',
    input: ZPageQuery.extend({ status: zStatusFilter, user_id: zId.optional() }),
    output: zPage(ZAdminWorkOrder),
  }),
  adminWorkOrderDetail: defineRoute({
    method: 'GET',
    path: '/admin/work-orders/detail/:id',
    auth: 'admin',
    summary: 'A work order with its conversation and customer',
    tag: 'admin',
    input: zIdParam,
    output: ZAdminWorkOrderDetail,
  }),
  adminWorkOrderReply: defineRoute({
    method: 'POST',
    path: '/admin/work-orders/reply/:id',
    auth: 'admin',
    summary: 'Answer a work order (the customer gets a notification and an e-mail)',
    tag: 'admin',
    input: ZWorkOrderReplyBody.omit({ attachment_ids: true }),
    output: ZAdminWorkOrderDetail,
  }),
  adminWorkOrderClose: defineRoute({
    method: 'POST',
    path: '/admin/work-orders/close/:id',
    auth: 'admin',
    summary: 'Close an open or answered work order',
    tag: 'admin',
    input: zIdParam,
    output: ZAdminWorkOrder,
  }),
} as const satisfies Record<string, TRouteDef>;
