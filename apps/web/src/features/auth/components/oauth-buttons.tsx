import { useTranslation } from 'react-i18next';
import type { TSignInResult } from '@proxy/contract';
import { useOAuthProviders } from '../api/oauth-providers';
import { useOAuthSignIn } from '../hooks/use-oauth-sign-in';
import type { TOAuthContext } from '../utils/oauth-message';
import { AuthButton } from '../ui/fields';

type TOAuthButtonsProps = {
  onSession: (session: TSignInResult, context: TOAuthContext) => void;
  getContext: () => TOAuthContext;
};

/** "or" divider with GitHub and Google buttons, each shown only when the server enables it. */
export function OAuthButtons({ onSession, getContext }: TOAuthButtonsProps) {
  const { t } = useTranslation('auth');
  const providers = useOAuthProviders();
  const oauth = useOAuthSignIn({ onSession: (session) => onSession(session, getContext()), getContext });
  const hasGitHub = providers.data?.github === true;
  const hasGoogle = providers.data?.google === true;
  if (!hasGitHub && !hasGoogle) return null;

  return (
    <div style={{ marginBottom: 16 }}>
      <div className="auth-divider" role="separator">
        {t('login.or')}
      </div>
      <div className="auth-stack">
        {hasGitHub && (
          <AuthButton
            isBlock
            icon="github"
            isLoading={oauth.pending === 'github'}
            onClick={() => void oauth.startGitHub()}
          >
            {t('login.github')}
          </AuthButton>
        )}
        {hasGoogle && (
          <AuthButton
            isBlock
            icon="google"
            isLoading={oauth.pending === 'google'}
            onClick={() => void oauth.startGoogle()}
          >
            {t('login.google')}
          </AuthButton>
        )}
      </div>
    </div>
  );
}
