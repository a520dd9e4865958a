import { Alert } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TArea, TProxyCategory } from '@proxy/contract';
import { useAreaCountries, type TAreaOffer } from '../../../entities/areas/area-countries';
import { getLanguage } from '../../../lib/i18n';

/** Where a customer asks for stock in an area that has none (the supply feature). */
export const SUPPLY_REQUEST_PATH = '/proxy/isp/supply-request';
/** Areas named in the notice; the rest are counted. */
const NAMED_AREAS_MAX = 6;

function areaName(area: TArea): string {
  return (getLanguage() === 'zh' ? area.name_zh : area.name_en) || area.name || area.id.toUpperCase();
}

// Whether the product can be bought in the area now: the answer says so when a product was asked, else a free exit.
function isOnSale(area: TArea): boolean {
  return area.is_available ?? area.available > 0;
}

/**
 * What the purchase form can sell now: the countries where the screen's
 * product can be bought (those with free exits first, with how many; then
 * those upstream pools serve), and a link to a supply request for any other
 * area. Says so plainly when no area has stock.
 */
export function StockNotice(props: { category: TProxyCategory; offer?: TAreaOffer; onLeave: () => void }) {
  const { t } = useTranslation('proxies');
  const countries = useAreaCountries(props.category, { offer: props.offer });
  // The area picker says when the list could not be fetched.
  if (!countries.data) return null;

  const inStock = countries.data.filter(isOnSale).sort((a, b) => Number(b.available > 0) - Number(a.available > 0));
  const named = inStock
    .slice(0, NAMED_AREAS_MAX)
    .map((area) =>
      area.available > 0 ? t('stock.area', { name: areaName(area), count: area.available }) : areaName(area),
    );
  const more = inStock.length - named.length;
  const link = (
    <Link to={SUPPLY_REQUEST_PATH} onClick={props.onLeave} data-testid="supply-request-link">
      {t('stock.requestSupply')}
    </Link>
  );

  return (
    <Alert
      type={inStock.length > 0 ? 'info' : 'warning'}
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="stock-notice"
      title={
        inStock.length > 0
          ? t('stock.now', {
              areas: named.join(t('stock.separator')) + (more > 0 ? t('stock.more', { count: more }) : ''),
            })
          : t('stock.none')
      }
      description={
        <span>
          {inStock.length > 0 ? t('stock.others') : t('stock.noneHint')} {link}
        </span>
      }
    />
  );
}
