import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { TSession } from '@proxy/contract';
import { saveSession } from '../../../lib/session';

/** Stores a fresh session and opens the wanted page (replacing the sign-in screen in history). */
export function useFinishSignIn() {
  const navigate = useNavigate();
  return useCallback(
    (session: TSession, options: { isRemembered: boolean; redirect: string }) => {
      saveSession(session.token, { remember: options.isRemembered });
      navigate(options.redirect, { replace: true });
    },
    [navigate],
  );
}
