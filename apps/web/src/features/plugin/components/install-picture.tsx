import { useTranslation } from 'react-i18next';

/** Which part of the extensions page a step points at. */
export type TInstallSpot = 'address' | 'developer' | 'load' | 'pin';

const HIGHLIGHT = '#0059ff';

/**
 * A drawing of the browser's extensions page with the step's control
 * highlighted: the address bar, the developer mode switch, the "Load unpacked"
 * button, or the pinned plugin. Drawn, not a screenshot, so it is labelled in
 * the user's language and stays the same across browser versions.
 */
export function InstallPicture(props: { spot: TInstallSpot; label: string }) {
  const { t } = useTranslation('plugin');
  const { spot } = props;
  const stroke = (is: boolean) => (is ? HIGHLIGHT : '#bfbfbf');
  return (
    <svg
      viewBox="0 0 360 150"
      width="100%"
      style={{ maxWidth: 360 }}
      role="img"
      aria-label={t('install.pictureAlt', { what: props.label })}
    >
      <rect x="1" y="1" width="358" height="148" rx="8" fill="#fafafa" stroke="#d9d9d9" />
      <rect x="1" y="1" width="358" height="30" rx="8" fill="#f0f0f0" />
      <rect
        x="40"
        y="8"
        width="230"
        height="16"
        rx="8"
        fill="#fff"
        stroke={stroke(spot === 'address')}
        strokeWidth={spot === 'address' ? 2 : 1}
      />
      <text x="52" y="20" fontSize="10" fill="#595959">
        chrome://extensions
      </text>
      <circle cx="14" cy="16" r="4" fill="#ff7875" />
      <circle cx="26" cy="16" r="4" fill="#ffd666" />
      <g transform="translate(300 8)">
        <rect
          width="48"
          height="16"
          rx="4"
          fill="#fff"
          stroke={stroke(spot === 'pin')}
          strokeWidth={spot === 'pin' ? 2 : 1}
        />
        <rect x="6" y="4" width="8" height="8" rx="2" fill={HIGHLIGHT} />
        <path d="M24 5h6v3h3v6h-9z" fill="#8c8c8c" />
      </g>
      <text x="16" y="52" fontSize="12" fontWeight="600" fill="#262626">
        {t('install.picture.extensions')}
      </text>
      <g transform="translate(268 40)">
        <rect
          x="-6"
          y="-4"
          width="88"
          height="22"
          rx="4"
          fill="none"
          stroke={stroke(spot === 'developer')}
          strokeWidth={spot === 'developer' ? 2 : 0}
        />
        <text x="0" y="11" fontSize="9" fill="#595959">
          {t('install.picture.developerMode')}
        </text>
        <rect
          x="62"
          y="2"
          width="14"
          height="9"
          rx="4.5"
          fill={spot === 'developer' || spot === 'load' || spot === 'pin' ? HIGHLIGHT : '#bfbfbf'}
        />
      </g>
      <g transform="translate(16 64)">
        <rect
          width="96"
          height="20"
          rx="4"
          fill="#fff"
          stroke={stroke(spot === 'load')}
          strokeWidth={spot === 'load' ? 2 : 1}
        />
        <text x="10" y="14" fontSize="9" fill="#262626">
          {t('install.picture.loadUnpacked')}
        </text>
      </g>
      <g transform="translate(16 96)">
        <rect width="200" height="42" rx="6" fill="#fff" stroke="#d9d9d9" />
        <rect
          x="10"
          y="10"
          width="22"
          height="22"
          rx="4"
          fill={spot === 'load' || spot === 'pin' ? HIGHLIGHT : '#e8e8e8'}
        />
        <text x="42" y="20" fontSize="10" fontWeight="600" fill="#262626">
          ProxyHub
        </text>
      </g>
    </svg>
  );
}
