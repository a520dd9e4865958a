/** Saves the QR code drawn in `container` as a PNG; throws when there is no canvas or the browser refuses to encode it. */
export function downloadQrPng(container: HTMLElement | null, filename: string): void {
  const canvas = container?.querySelector('canvas');
  if (!canvas) throw new Error('no QR canvas');
  const url = canvas.toDataURL('image/png');
  if (!url.startsWith('data:image/png')) throw new Error('QR canvas could not be encoded');
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
}
