import { PLUGIN_REFUSALS, type TPluginAnswer, type TPluginRequest } from '@proxy/contract';

// The part of Chromium's page API the console uses: present on a page that an
// installed extension lists in its externally_connectable.
type TChromeRuntime = {
  sendMessage?: (extensionId: string, message: unknown, callback: (answer: unknown) => void) => void;
  lastError?: { message?: string };
};

function isAnswer(value: unknown): value is TPluginAnswer {
  if (!value || typeof value !== 'object') return false;
  const answer = value as { ok?: unknown; reason?: unknown; type?: unknown };
  if (answer.ok === true) return answer.type === 'hello' || answer.type === 'apply';
  return answer.ok === false && (PLUGIN_REFUSALS as readonly unknown[]).includes(answer.reason);
}

/**
 * Sends a message to the extension and resolves its answer, or null when none
 * came within `timeoutMs` (not installed, disabled, or installed for another
 * console). An unreachable extension is not told apart from a silent one: both
 * wait out the stated time.
 */
export function sendToExtension(
  extensionId: string,
  request: TPluginRequest,
  timeoutMs: number,
): Promise<TPluginAnswer | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), timeoutMs);
    const runtime = (globalThis as { chrome?: { runtime?: TChromeRuntime } }).chrome?.runtime;
    if (!runtime?.sendMessage) return;
    try {
      runtime.sendMessage(extensionId, request, (answer) => {
        void runtime.lastError; // read, so Chromium does not report it as unchecked
        if (!isAnswer(answer)) return;
        clearTimeout(timer);
        resolve(answer);
      });
    } catch {
      // A malformed id or no such extension: the wait runs out.
    }
  });
}
