import { beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { clearShownMessages } from '../../../lib/message';
import { fail } from '../../../test/api-stub';
import { api, findModalWith, shownMessages } from '../../../test/harness';
import { answerProxyScreen, renderStatic, selectRows } from '../test/proxy-screen';

beforeEach(() => answerProxyScreen());

describe('batch bar', { timeout: 60_000 }, () => {
  it('refuses a batch with no selection', async () => {
    renderStatic();
    await screen.findByText('user1');
    fireEvent.click(screen.getByText('Batch delete'));
    fireEvent.click(screen.getByText('Batch restore'));
    await waitFor(() =>
      expect(shownMessages('warning')).toEqual(['Please select at least one item', 'Please select at least one item']),
    );
    expect([...api.requestsTo('tokenBatchDelete'), ...api.requestsTo('tokenBatchRestore')]).toHaveLength(0);
  });

  it('shows the batch delete answer as "Successfully deleted" and "Failed to delete", in en and zh', async () => {
    api.on('tokenBatchDelete', () => ({ success: 1, failed: 1, total: 2 }));
    renderStatic();
    await selectRows(1, 2);
    fireEvent.click(screen.getByText('Batch delete'));
    const dialog = await findModalWith('The selected proxies (2) stop working. They can be restored later.');
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(shownMessages('success')).toContain('Successfully deleted 1/2'));
    expect(shownMessages('error')).toContain('Failed to delete 1/2');
    expect(api.requestsTo('tokenBatchDelete')[0].json).toEqual({ token_ids: [1, 2] });
    cleanup();

    clearShownMessages();
    act(() => setLanguage('zh'));
    renderStatic();
    await selectRows(1);
    fireEvent.click(screen.getByText('批量删除'));
    const zhDialog = await findModalWith('所选代理（1 个）将停止工作，之后可以恢复。');
    fireEvent.click(within(zhDialog).getByText('确定'));
    await waitFor(() => expect(shownMessages('success')).toContain('成功删除 1/2'));
    expect(shownMessages('error')).toContain('删除失败 1/2');
  });

  it('says "Batch delete failed, please try again later" when the call fails', async () => {
    api.on('tokenBatchDelete', () => fail(500, 500, 'Server error'));
    renderStatic();
    await selectRows(2);
    fireEvent.click(screen.getByText('Batch delete'));
    const dialog = await findModalWith('The selected proxies (1) stop working. They can be restored later.');
    fireEvent.click(within(dialog).getByText('OK'));
    await waitFor(() => expect(shownMessages('error')).toEqual(['Batch delete failed, please try again later']));
  });

  it('restores the selection and reports the counts', async () => {
    api.on('tokenBatchRestore', () => ({ success: 2, failed: 0, total: 2 }));
    renderStatic();
    await selectRows(1, 2);
    fireEvent.click(screen.getByText('Batch restore'));
    await waitFor(() => expect(shownMessages('success')).toContain('Successfully restored 2/2'));
    expect(shownMessages('error')).toEqual([]);
  });
});
