import { translate } from './i18n';
import { showError, showSuccess } from './message';

/**
 * Copies text to the clipboard and says how it went: the success message
 * ("Copied" unless told), or the spec's "copy failed" when the browser
 * refuses. Resolves true when the text was copied.
 */
export async function copyToClipboard(text: string, successMessage?: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    showError(translate('common:copy.failed'));
    return false;
  }
  showSuccess(successMessage ?? translate('common:copy.copied'));
  return true;
}
