import { Button, Divider, Flex } from 'antd';
import { GithubOutlined, GoogleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TSignInResult } from '@proxy/contract';
import { useOAuthProviders } from '../api/oauth-providers';
import { useOAuthSignIn } from '../hooks/use-oauth-sign-in';
import type { TOAuthContext } from '../utils/oauth-message';

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
      <Divider plain>{t('login.or')}</Divider>
      <Flex vertical gap={12}>
        {hasGitHub && (
          <Button block size="large" icon={<GithubOutlined />} loading={oauth.pending === 'github'} onClick={oauth.startGitHub}>
            {t('login.github')}
          </Button>
        )}
        {hasGoogle && (
          <Button block size="large" icon={<GoogleOutlined />} loading={oauth.pending === 'google'} onClick={oauth.startGoogle}>
            {t('login.google')}
          </Button>
        )}
      </Flex>
    </div>
  );
}
