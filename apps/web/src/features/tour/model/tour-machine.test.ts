import { describe, expect, it } from 'vitest';
import {
  INITIAL_TOUR_STATE,
  TOUR_GROUP_OPEN_WAIT_MS,
  TOUR_STEPS,
  TOUR_TOOLTIP_WIDTH_PX,
  isTourAllowedOn,
  shouldStartAutomatically,
  tourButtons,
  tourReducer,
  type TTourAction,
  type TTourState,
} from './tour-machine';

const run = (...actions: TTourAction['type'][]): TTourState =>
  actions.reduce((state, type) => tourReducer(state, { type } as TTourAction), INITIAL_TOUR_STATE);

describe('the tour state machine (spec section 4)', () => {
  it('is hidden, then visible at step 0', () => {
    expect(INITIAL_TOUR_STATE).toEqual({ isOpen: false, step: 0, isCompleted: false });
    expect(run('start')).toEqual({ isOpen: true, step: 0, isCompleted: false });
  });

  it('Next adds one step, Previous subtracts one, never below the first', () => {
    expect(run('start', 'next').step).toBe(1);
    expect(run('start', 'next', 'next', 'prev').step).toBe(1);
    expect(run('start', 'prev')).toEqual({ isOpen: true, step: 0, isCompleted: false });
  });

  it('advancing past the last step hides it and stores the completed flag', () => {
    const atLast = run('start', 'next', 'next', 'next', 'next', 'next');
    expect(atLast).toEqual({ isOpen: true, step: 5, isCompleted: false });
    expect(tourReducer(atLast, { type: 'next' })).toEqual({ isOpen: false, step: 0, isCompleted: true });
  });

  it('finishing hides it and stores the flag, from any step; so does closing it', () => {
    expect(run('start', 'next', 'finish')).toEqual({ isOpen: false, step: 0, isCompleted: true });
    expect(run('start', 'next', 'next', 'close')).toEqual({ isOpen: false, step: 0, isCompleted: true });
  });

  it('ignores Next, Previous, Finish and Close while hidden; starting again begins at step 0', () => {
    expect(run('next', 'prev', 'finish', 'close')).toEqual(INITIAL_TOUR_STATE);
    expect(run('start', 'next', 'next', 'finish', 'start')).toEqual({ isOpen: true, step: 0, isCompleted: false });
  });
});

describe('the tour steps and rules (spec sections 2 and 9)', () => {
  it('has 6 steps in order: sidebar, menu, residential group, data-center group, billing menu (/charge), a centred close', () => {
    expect(TOUR_STEPS.map((step) => step.target)).toEqual([
      { kind: 'sidebar' },
      { kind: 'menu' },
      { kind: 'group', group: 'residential' },
      { kind: 'group', group: 'datacenter' },
      { kind: 'item', path: '/charge' },
      { kind: 'center' },
    ]);
    expect(TOUR_GROUP_OPEN_WAIT_MS).toBe(300);
    expect(TOUR_TOOLTIP_WIDTH_PX).toBe(320);
  });

  it('offers Previous from step 2, Next until the last step, Finish on the last', () => {
    expect(TOUR_STEPS.map((_, index) => tourButtons(index))).toEqual([
      { hasPrevious: false, hasNext: true, hasFinish: false },
      { hasPrevious: true, hasNext: true, hasFinish: false },
      { hasPrevious: true, hasNext: true, hasFinish: false },
      { hasPrevious: true, hasNext: true, hasFinish: false },
      { hasPrevious: true, hasNext: true, hasFinish: false },
      { hasPrevious: true, hasNext: false, hasFinish: true },
    ]);
  });

  it('is never shown on paths containing login or register', () => {
    for (const path of ['/login', '/register', '/oauth/login/github', '/user/register/done'])
      expect(isTourAllowedOn(path), path).toBe(false);
    for (const path of ['/', '/charge', '/proxy/isp/static']) expect(isTourAllowedOn(path), path).toBe(true);
  });

  it('starts automatically only for a user who has not completed it, outside sign-in pages', () => {
    expect(shouldStartAutomatically('/', false)).toBe(true);
    expect(shouldStartAutomatically('/', true)).toBe(false);
    expect(shouldStartAutomatically('/login', false)).toBe(false);
  });
});
