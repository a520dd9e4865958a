import type { TDeps } from '../lib/deps';

/** Tasks run once at start-up, after migrations (for example the operator account on a fresh install). */
export async function runStartupTasks(deps: TDeps): Promise<void> {
  void deps;
}
