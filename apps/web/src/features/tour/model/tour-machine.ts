/**
 * The guided tour (spec sections 2 and 4): six steps in a fixed order, a state
 * machine (hidden, then visible at step 0; Next +1, Previous -1; finishing or
 * advancing past the last step hides it and stores the completed flag) and
 * the rules of when it may show.
 */

/** What a step highlights: a part of the layout, a menu group, a menu entry, or nothing (centred). */
export type TTourTarget =
  | { kind: 'sidebar' }
  | { kind: 'menu' }
  | { kind: 'group'; group: string }
  | { kind: 'item'; path: string }
  | { kind: 'center' };

/** One step: its translation key (title and description under `steps.<id>`) and its target. */
export type TTourStep = { id: string; target: TTourTarget };

/** The six steps, in the spec's order. */
export const TOUR_STEPS: readonly TTourStep[] = [
  { id: 'sidebar', target: { kind: 'sidebar' } },
  { id: 'menu', target: { kind: 'menu' } },
  { id: 'residential', target: { kind: 'group', group: 'residential' } },
  { id: 'datacenter', target: { kind: 'group', group: 'datacenter' } },
  { id: 'billing', target: { kind: 'item', path: '/charge' } },
  { id: 'done', target: { kind: 'center' } },
];

/** Wait after opening a collapsed menu group, before highlighting it (spec section 9). */
export const TOUR_GROUP_OPEN_WAIT_MS = 300;
/** Tooltip width (spec section 9: about 320 px). */
export const TOUR_TOOLTIP_WIDTH_PX = 320;

export type TTourState = {
  isOpen: boolean;
  /** Index of the step shown (0-based). */
  step: number;
  /** True once the tour was finished (or closed) in this run: the flag is stored. */
  isCompleted: boolean;
};

export type TTourAction =
  { type: 'start' } | { type: 'next' } | { type: 'prev' } | { type: 'finish' } | { type: 'close' };

/** Hidden, not yet completed. */
export const INITIAL_TOUR_STATE: TTourState = { isOpen: false, step: 0, isCompleted: false };

const LAST_STEP = TOUR_STEPS.length - 1;
const ENDED: TTourState = { isOpen: false, step: 0, isCompleted: true };

/**
 * The tour's transitions. Closing it (the × of the tooltip) ends it like
 * finishing, so a user who dismissed it is not asked again on every page load.
 */
export function tourReducer(state: TTourState, action: TTourAction): TTourState {
  switch (action.type) {
    case 'start':
      return { isOpen: true, step: 0, isCompleted: false };
    case 'next':
      if (!state.isOpen) return state;
      return state.step >= LAST_STEP ? ENDED : { ...state, step: state.step + 1 };
    case 'prev':
      if (!state.isOpen) return state;
      return { ...state, step: Math.max(0, state.step - 1) };
    case 'finish':
    case 'close':
      return state.isOpen ? ENDED : state;
  }
}

/** The tour never shows on sign-in or registration pages (paths containing login or register). */
export function isTourAllowedOn(pathname: string): boolean {
  return !/login|register/i.test(pathname);
}

/** The automatic check: a user who has not completed the tour gets it, outside sign-in pages. */
export function shouldStartAutomatically(pathname: string, isCompleted: boolean): boolean {
  return !isCompleted && isTourAllowedOn(pathname);
}

/** Which buttons the step shows: Previous from step 2, Next until the last step, Finish on the last. */
export function tourButtons(step: number): { hasPrevious: boolean; hasNext: boolean; hasFinish: boolean } {
  return { hasPrevious: step > 0, hasNext: step < LAST_STEP, hasFinish: step === LAST_STEP };
}
