import type { ReactNode } from 'react';
import type { App } from 'antd';
import { MESSAGE_DURATION_MS } from '@proxy/contract/light';
import { translate } from './i18n';
import { closeLightToast, openLightToast } from './light-toast';

/**
 * Toasts and confirm dialogs usable anywhere, including outside React (the
 * request layer). Where antd is loaded (signed-in pages), antd's <App> hands
 * its themed, localised message and modal APIs to this module (see
 * AntdBridge); before that (the sign-in pages load no antd), toasts are
 * lib/light-toast's and a confirm dialog loads antd's static Modal.
 */

type TAppApis = ReturnType<typeof App.useApp>;
type MessageInstance = TAppApis['message'];
type TModalApi = TAppApis['modal'];

let messageApi: MessageInstance | null = null;
let modalApi: TModalApi | null = null;
let sequence = 0;

/** Called by the app shell with the APIs of antd's <App>; `null` on unmount takes back `apis`' own registration only. */
export function registerMessageApis(
  apis: { message: MessageInstance; modal: TModalApi } | null,
  unregistering?: MessageInstance,
): void {
  if (apis === null && unregistering && unregistering !== messageApi) return;
  messageApi = apis?.message ?? null;
  modalApi = apis?.modal ?? null;
  // antd's toasts leave with its <App> (a signed-in layout giving way to /login): the ones still due stay, as light toasts.
  if (!messageApi) {
    const now = Date.now();
    for (const [key, toast] of showing) {
      if (toast.until <= now) showing.delete(key);
      else
        openLightToast({
          type: toast.type,
          content: toast.text,
          key,
          durationMs: toast.until === Infinity ? 0 : toast.until - now,
        });
    }
  }
}

type TMessageType = 'success' | 'error' | 'info' | 'warning' | 'loading';

/** What a toast was asked to show; tests and the e2e suite read it back. */
export type TShownMessage = { type: TMessageType; text: string; key: string };

const shownLog: TShownMessage[] = [];
/** The toasts on screen now, by key, with when they go (Infinity: until replaced). */
const showing = new Map<string, { type: TMessageType; text: string; until: number }>();

/** Messages shown so far, newest last (kept short; used by tests). */
export function getShownMessages(): readonly TShownMessage[] {
  return shownLog;
}

/** Forgets the message log. */
export function clearShownMessages(): void {
  shownLog.length = 0;
}

function show(type: TMessageType, text: string, key: string | undefined, durationMs: number): string {
  const finalKey = key ?? `msg-${++sequence}`;
  shownLog.push({ type, text, key: finalKey });
  if (shownLog.length > 50) shownLog.shift();
  showing.set(finalKey, { type, text, until: durationMs > 0 ? Date.now() + durationMs : Infinity });
  if (messageApi) void messageApi.open({ type, content: text, key: finalKey, duration: durationMs / 1000 });
  else openLightToast({ type, content: text, key: finalKey, durationMs });
  return finalKey;
}

/**
 * Takes back a toast (the failure it told is shown in place instead, e.g. under the form field at
 * fault): it closes and leaves the log, so each failure is told once.
 */
export function dismissMessage(key: string): void {
  for (let i = shownLog.length - 1; i >= 0; i--) if (shownLog[i].key === key) shownLog.splice(i, 1);
  showing.delete(key);
  messageApi?.destroy(key);
  closeLightToast(key);
}

/** Shows a loading toast that stays until replaced; returns its key. */
export function showLoading(text: string): string {
  return show('loading', text, undefined, 0);
}

/** Success toast; with the key of a loading toast it replaces it in place. Dismissed after 2000 ms. */
export function showSuccess(text: string, key?: string): string {
  return show('success', text, key, MESSAGE_DURATION_MS);
}

/** Error toast (replaces a loading toast with the same key). */
export function showError(text: string, key?: string): string {
  return show('error', text, key, MESSAGE_DURATION_MS);
}

/** Information toast (replaces a loading toast with the same key). */
export function showInfo(text: string, key?: string): string {
  return show('info', text, key, MESSAGE_DURATION_MS);
}

/** Warning toast (replaces a loading toast with the same key). */
export function showWarning(text: string, key?: string): string {
  return show('warning', text, key, MESSAGE_DURATION_MS);
}

/** Options of a confirm dialog. */
export type TConfirmOptions = {
  title: ReactNode;
  content?: ReactNode;
  /** Runs on OK; a returned promise keeps the OK button loading until it settles. */
  onOk: () => unknown;
  okText?: ReactNode;
  cancelText?: ReactNode;
  /** Red OK button for destructive actions. */
  isDanger?: boolean;
};

/** Opens a confirm dialog whose buttons default to "确定"/"取消" (zh) or "OK"/"Cancel" (en). */
export function confirmAction(options: TConfirmOptions): void {
  const confirm = {
    title: options.title,
    content: options.content,
    okText: options.okText ?? translate('common:actions.ok'),
    cancelText: options.cancelText ?? translate('common:actions.cancel'),
    okButtonProps: options.isDanger ? { danger: true } : undefined,
    onOk: () => options.onOk(),
  };
  if (modalApi) modalApi.confirm(confirm);
  else void import('antd').then(({ Modal }) => Modal.confirm(confirm));
}
