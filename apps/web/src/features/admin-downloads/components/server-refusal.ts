import type { FormInstance } from 'antd';
import { ERRORS } from '@proxy/contract';
import { dismissTip, getErrorMessage } from '../../../lib/server-issues';

type TIssue = { path: string; message: string };

// The API names the field at fault of a refused file too (files.0.sha256: what the file at the link has instead),
// whatever the error's code, so they are read here rather than only from a BAD_REQUEST.
function issuesOf(error: unknown): TIssue[] {
  const issues = (error as { data?: { issues?: unknown } } | null)?.data?.issues;
  return Array.isArray(issues)
    ? (issues as TIssue[]).filter((i) => typeof i?.path === 'string' && typeof i?.message === 'string')
    : [];
}

/**
 * Shows the API's refusal under the fields it names (`files.0.sha256` is the form's ['files', 0, 'sha256']), the
 * version taken under the version; the toast of the failure is then taken back. Returns the message no field shows.
 */
export function markRefusal(form: FormInstance, error: unknown, fieldNames: readonly string[]): string | null {
  const marked = issuesOf(error)
    .map((issue) => ({
      name: issue.path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
      errors: [issue.message],
    }))
    .filter((field) => fieldNames.includes(String(field.name[0])));
  if ((error as { code?: number } | null)?.code === ERRORS.SOFTWARE_VERSION_TAKEN.code)
    marked.push({ name: ['version'], errors: [getErrorMessage(error)] });
  if (marked.length === 0) return getErrorMessage(error) || null;
  form.setFields(marked as Parameters<FormInstance['setFields']>[0]);
  dismissTip(error);
  return null;
}
