import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { hardNavigations } from '../../../test/harness';
import { renderAt } from '../../../test/render';
import { readValue } from '../../../lib/storage';
import { USER_GUIDE_COMPLETED_KEY, markUserGuideCompleted } from '../../../lib/user-guide';
import { UserGuideCard } from './user-guide-card';

describe('reset the user guide', () => {
  it('clears userGuideCompleted and reloads the page after confirming', async () => {
    markUserGuideCompleted();
    renderAt('/user-center', <UserGuideCard />);
    fireEvent.click(await screen.findByText('Reset the user guide'));
    const ok = await screen.findByText('OK');
    expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBe(true);
    fireEvent.click(ok);
    await waitFor(() => expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBeNull());
    expect(hardNavigations).toEqual([`${window.location.pathname}${window.location.search}`]);
  });

  it('changes nothing when cancelled', async () => {
    markUserGuideCompleted();
    renderAt('/user-center', <UserGuideCard />);
    fireEvent.click(await screen.findByText('Reset the user guide'));
    fireEvent.click(await screen.findByText('Cancel'));
    await waitFor(() => expect(screen.queryByText('Reset the user guide and reload the page?')).toBeNull());
    expect(readValue('local', USER_GUIDE_COMPLETED_KEY)).toBe(true);
    expect(hardNavigations).toEqual([]);
  });
});
