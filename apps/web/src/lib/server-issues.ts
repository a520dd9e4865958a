import type { FormInstance } from 'antd';
import { dismissMessage } from './message';

/** What marking a form's fields needs: antd's FormInstance, or the sign-in pages' light form. */
type TFieldsSetter = FormInstance | { setFields(fields: { name: string; errors: string[] }[]): void };

type TIssue = { path: string; message: string };

/** The fields at fault of a BAD_REQUEST answer (an ApiError with `data.issues`), else none. */
export function getServerIssues(error: unknown): TIssue[] {
  if (typeof error !== 'object' || error === null) return [];
  const { code, data } = error as { code?: unknown; data?: { issues?: unknown } };
  if (code !== 400 || !Array.isArray(data?.issues)) return [];
  return (data.issues as TIssue[]).filter(
    (issue) => typeof issue?.path === 'string' && typeof issue?.message === 'string',
  );
}

/**
 * Marks the form fields named in a BAD_REQUEST answer (the server's messages
 * are already in the user's language), or the field an error code points at
 * (e.g. CODE_INVALID -> "code"). Returns true when a field was marked; the
 * request layer's toast of that failure is then taken back (one message per failure).
 */
export function markServerIssues(
  form: TFieldsSetter,
  error: unknown,
  fields: readonly string[],
  fieldByCode: Partial<Record<number, string>> = {},
): boolean {
  const issues = getServerIssues(error).filter((issue) => fields.includes(issue.path));
  const code = (error as { code?: unknown } | null)?.code;
  const codeField = typeof code === 'number' ? fieldByCode[code] : undefined;
  if (codeField) issues.push({ path: codeField, message: getErrorMessage(error) });
  if (issues.length === 0) return false;
  form.setFields(issues.map((issue) => ({ name: issue.path, errors: [issue.message] })));
  dismissTip(error);
  return true;
}

/** Takes back the toast the request layer showed for this failure (it is shown in place now). */
export function dismissTip(error: unknown): void {
  const key = (error as { tipKey?: unknown } | null)?.tipKey;
  if (typeof key === 'string') dismissMessage(key);
}

/** The message of an ApiError (or any error), for composing a toast. */
export function getErrorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { msg?: unknown }).msg === 'string') {
    return (error as { msg: string }).msg;
  }
  return error instanceof Error ? error.message : '';
}
