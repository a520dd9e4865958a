import { Button } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** "Top up": a link to /charge, shown where the balance is short; `onFollow` closes the drawer or dialog it sits in. */
export function TopUpLink(props: { onFollow?: () => void }) {
  const { t } = useTranslation('proxies');
  return (
    <Link to="/charge" onClick={props.onFollow} data-testid="top-up-link">
      <Button size="small" tabIndex={-1}>
        {t('price.topUp')}
      </Button>
    </Link>
  );
}
