import { afterEach, describe, expect, it } from 'vitest';
import { shownMessages } from '../test/harness';
import { copyToClipboard } from './clipboard';
import { setLanguage } from './i18n';

const copied: string[] = [];

/** Stands in for the browser's clipboard, which jsdom lacks; `isRefused` makes it refuse like a browser without permission. */
function stubClipboard(isRefused: boolean) {
  const writeText = (text: string) =>
    isRefused ? Promise.reject(new DOMException('denied', 'NotAllowedError')) : Promise.resolve(void copied.push(text));
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

afterEach(() => {
  copied.length = 0;
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('copyToClipboard', () => {
  it('copies and says "Copied", or the message it is given', async () => {
    stubClipboard(false);
    expect(await copyToClipboard('a:1:u:p')).toBe(true);
    expect(await copyToClipboard('b:2:u:p', '2 lines copied')).toBe(true);
    expect(copied).toEqual(['a:1:u:p', 'b:2:u:p']);
    expect(shownMessages('success')).toEqual(['Copied', '2 lines copied']);
  });

  it('says "copy failed" when the browser refuses, in both languages', async () => {
    stubClipboard(true);
    expect(await copyToClipboard('secret')).toBe(false);
    setLanguage('zh');
    expect(await copyToClipboard('secret')).toBe(false);
    expect(shownMessages('error')).toEqual(['Copy failed', '复制失败']);
    expect(shownMessages('success')).toEqual([]);
  });
});
