import { useMutation } from '@tanstack/react-query';
import type { TTokenTestResult } from '@proxy/contract';
import { callApi } from '../../../lib/api-client';

/**
 * Tests a proxy through the gateway (GET /token/test/{id}). A refusal is a
 * successful call with ok false and the reason; errors are not toasted
 * (skipTips, spec section 7): the dialog shows them in place.
 */
export function testToken(id: number): Promise<TTokenTestResult> {
  return callApi('tokenTest', { id }, { skipTips: true });
}

/** Mutation of the test action. */
export function useTestToken() {
  return useMutation({ mutationFn: testToken });
}
