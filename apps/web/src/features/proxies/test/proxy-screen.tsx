import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PRICE_CATALOGUE, priceIpFen, type TPriceCatalogue, type TRenewPreview } from '@proxy/contract';
import { makeArea, makeToken, makeUser, pageOf } from '../../../test/fixtures';
import { api } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { ProxyScreen } from '../components/proxy-screen';

/** Prices that differ from the defaults, so a preview computed without the server's catalogue would show. */
export const CATALOGUE: TPriceCatalogue = {
  ...DEFAULT_PRICE_CATALOGUE,
  static_ip_day_fen: 250,
  static_ip_month_fen: 6600,
  residential_traffic_tier0_fen: 4100,
};

/** The static list's rows: an IP proxy (1) and a traffic proxy (2). */
export const TOKENS = [
  makeToken({ token_id: 1 }),
  makeToken({ token_id: 2, type: 'traffic', usage: { used_bytes: 0, limit_bytes: 1024 ** 3 } }),
];

/** Answers the calls every proxy screen makes: user (with this balance in yuan), prices, areas, the static list and payment options. */
export function answerProxyScreen(balance = 15) {
  api.on('userInfo', () => makeUser({ balance }));
  api.on('userNotificationList', () => ({ records: [], total: 0, page: 1, page_size: 1, unread: 0 }));
  api.on('tokenPrices', () => CATALOGUE);
  api.on('tokenAreaCountries', () => [makeArea('us', 'United States', '美国', 3)]);
  api.on('tokenAreaStates', () => []);
  api.on('tokenListIspStatic', () => pageOf(TOKENS));
  api.on('tokenPaywayList', () => [
    { id: 'balance' as const, name: 'Balance', name_zh: '余额支付', name_en: 'Balance', balance },
  ]);
  api.on('tokenIpRenewPreview', (request) => previewOf(request.json as { token_ids: number[]; days: number }, balance));
  api.on('tokenAutoRenewal', () => null);
}

/** The server's renew preview of the static list's rows: IP rows priced by CATALOGUE, covered in id order while the balance lasts. */
export function previewOf(body: { token_ids: number[]; days: number }, balance: number): TRenewPreview {
  let left = Math.round(balance * 100);
  let totalFen = 0;
  let coveredFen = 0;
  let coveredCount = 0;
  let isCovering = true;
  const items = [...body.token_ids]
    .sort((a, b) => a - b)
    .map((id) => {
      const token = TOKENS.find((x) => x.token_id === id);
      const isRenewable = token?.type === 'ip';
      const priceFen = isRenewable ? priceIpFen('static', body.days, CATALOGUE) : 0;
      totalFen += priceFen;
      isCovering = isCovering && (!isRenewable || left >= priceFen);
      const isCovered = isRenewable && isCovering;
      if (isCovered) {
        left -= priceFen;
        coveredFen += priceFen;
        coveredCount += 1;
      }
      return {
        token_id: id,
        username: token?.username ?? '',
        remark: token?.remark ?? '',
        expires_at: token?.expires_at ?? null,
        new_expires_at: isRenewable ? '2026-12-31T00:00:00.000Z' : null,
        price: priceFen / 100,
        is_renewable: isRenewable,
        is_covered: isCovered,
      };
    });
  return {
    days: body.days,
    items,
    total: totalFen / 100,
    balance,
    covered_count: coveredCount,
    covered_total: coveredFen / 100,
  };
}

/** Renders the static residential screen. */
export function renderStatic() {
  return renderAt('/proxy/isp/static', <ProxyScreen screenKey="static" />);
}

/** Ticks the row checkboxes of the given token ids. */
export async function selectRows(...ids: number[]) {
  await screen.findByText('user1');
  const rows = document.querySelectorAll<HTMLTableRowElement>('.ant-table-tbody tr[data-row-key]');
  for (const row of rows) {
    if (ids.includes(Number(row.dataset.rowKey))) fireEvent.click(row.querySelector('input[type=checkbox]')!);
  }
}

/** Opens a row's "More" menu and clicks an item. */
export async function clickRowMenu(username: string, item: string) {
  fireEvent.click(await screen.findByLabelText(`More actions for ${username}`));
  const menu = await waitFor(() => {
    const open = document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)') as HTMLElement | null;
    if (!open) throw new Error('menu not open');
    return open;
  });
  fireEvent.click(within(menu).getByText(item));
}
