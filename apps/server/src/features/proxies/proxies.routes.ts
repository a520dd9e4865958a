import type { TLang, TProxyList, TProxyListQuery } from '@proxy/contract';
import { AppError } from '../../lib/app-error';
import type { TDeps } from '../../lib/deps';
import type { TRouteContext, THandlersOf } from '../../lib/routing';
import { batchSetAutoRenew, batchSetDeleted } from './proxies-batch.service';
import { exportTokens, listTokens } from './proxies-lists.service';
import { purchaseTokens } from './proxies-purchase.service';
import { listPayways, previewRenewal, renewTokens } from './proxies-renew.service';
import { deleteToken, resetTokenPassword, setTokenRemark, setTokenStatus } from './proxies.service';
import { cancelRenewal, getLatestAutoRenewal, getRenewalCancelInfo, undoAutoRenewal } from './auto-renewals.service';

const MAX_IDEMPOTENCY_KEY = 128;

/** The optional Idempotency-Key header of the purchase and renew calls (and a supply request's submit). */
export function idempotencyKeyOf(ctx: Pick<TRouteContext<'tokenCreateStaticIp'>, 'req'>): string | undefined {
  const header = ctx.req.headers['idempotency-key'];
  const key = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!key) return undefined;
  if (key.length > MAX_IDEMPOTENCY_KEY)
    throw new AppError('BAD_REQUEST', undefined, [{ path: 'Idempotency-Key', message: 'tooLong' }]);
  return key;
}

/** The /token calls of proxy products: purchase, the seven lists, switches, batch, renewals and export. */
export function createProxyHandlers(deps: TDeps): THandlersOf<'proxies'> {
  const list =
    (name: TProxyList) =>
    async ({ input, user, lang }: { input: TProxyListQuery; user: { id: number }; lang: TLang }) =>
      listTokens(deps, user.id, name, input, lang);
  return {
    tokenCreateStaticTraffic: async (ctx) =>
      purchaseTokens(
        deps,
        ctx.user.id,
        { product: 'static', billing: 'traffic', body: ctx.input },
        idempotencyKeyOf(ctx),
        ctx.lang,
      ),
    tokenCreateStaticIp: async (ctx) =>
      purchaseTokens(
        deps,
        ctx.user.id,
        { product: 'static', billing: 'ip', body: ctx.input },
        idempotencyKeyOf(ctx),
        ctx.lang,
      ),
    tokenCreateVariableTraffic: async (ctx) =>
      purchaseTokens(
        deps,
        ctx.user.id,
        { product: 'dynamic', billing: 'traffic', body: ctx.input },
        idempotencyKeyOf(ctx),
        ctx.lang,
      ),
    tokenCreateVariableIp: async (ctx) =>
      purchaseTokens(
        deps,
        ctx.user.id,
        { product: 'dynamic', billing: 'ip', body: ctx.input },
        idempotencyKeyOf(ctx),
        ctx.lang,
      ),

    tokenListStaticTraffic: list('static/traffic'),
    tokenListStaticIp: list('static/ip'),
    tokenListVariableTraffic: list('variable/traffic'),
    tokenListVariableIp: list('variable/ip'),
    tokenListIspStatic: list('isp/static'),
    tokenListIspDynamic: list('isp/dynamic'),
    tokenListIdcStatic: list('idc/static'),

    tokenSetStatus: async ({ input, user, lang }) => setTokenStatus(deps, user.id, input.id, input.status, lang),
    tokenDelete: async ({ input, user }) => {
      await deleteToken(deps, user.id, input.id);
      return null;
    },
    tokenReset: async ({ input, user, lang }) => resetTokenPassword(deps, user.id, input.id, lang),
    tokenRemark: async ({ input, user, lang }) => setTokenRemark(deps, user.id, input.token_id, input.remark, lang),
    tokenBatchDelete: async ({ input, user }) => batchSetDeleted(deps, user.id, input.token_ids, true),
    tokenBatchRestore: async ({ input, user }) => batchSetDeleted(deps, user.id, input.token_ids, false),

    tokenPaywayList: async ({ user, lang }) => listPayways(deps, user.id, lang),
    tokenIpRenew: async (ctx) =>
      renewTokens(deps, ctx.user.id, 'static', ctx.input.token_ids, ctx.input.days, idempotencyKeyOf(ctx)),
    tokenVariableIpRenew: async (ctx) =>
      renewTokens(deps, ctx.user.id, 'dynamic', ctx.input.token_ids, ctx.input.days, idempotencyKeyOf(ctx)),
    tokenIpAutoRenew: async ({ input, user }) =>
      batchSetAutoRenew(deps, user.id, 'static', input.token_ids, input.auto_renew),
    tokenVariableIpAutoRenew: async ({ input, user }) =>
      batchSetAutoRenew(deps, user.id, 'dynamic', input.token_ids, input.auto_renew),

    tokenIpRenewPreview: async ({ input, user }) =>
      previewRenewal(deps, user.id, 'static', input.token_ids, input.days),
    tokenVariableIpRenewPreview: async ({ input, user }) =>
      previewRenewal(deps, user.id, 'dynamic', input.token_ids, input.days),
    tokenAutoRenewal: async ({ input, user }) => getLatestAutoRenewal(deps, user.id, input.token_id),
    tokenAutoRenewUndo: async ({ input, user }) => undoAutoRenewal(deps, user.id, input.token_id),
    renewalCancelInfo: async ({ input }) => getRenewalCancelInfo(deps, input.token),
    renewalCancel: async ({ input }) => cancelRenewal(deps, input.token),

    tokenExport: async ({ input, user }) => exportTokens(deps, user.id, input),
  };
}
