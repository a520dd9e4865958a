import { translate } from '../../../lib/i18n';
import { showError, showSuccess } from '../../../lib/message';

/** Copies text to the clipboard with the spec's "copy failed" message when the browser refuses. */
export async function copyWithMessage(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    showSuccess(translate('api-docs:copy.copied'));
    return true;
  } catch {
    showError(translate('api-docs:copy.failed'));
    return false;
  }
}
