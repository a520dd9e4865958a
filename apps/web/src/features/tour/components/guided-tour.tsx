import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { Space, Tour, type TourProps } from 'antd';
import {
  AppstoreOutlined,
  CloudServerOutlined,
  FlagOutlined,
  HomeOutlined,
  LayoutOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { isUserGuideCompleted, markUserGuideCompleted, useUserGuideRequests } from '../../../lib/user-guide';
import {
  INITIAL_TOUR_STATE,
  TOUR_GROUP_OPEN_WAIT_MS,
  TOUR_STEPS,
  TOUR_TOOLTIP_WIDTH_PX,
  isTourAllowedOn,
  shouldStartAutomatically,
  tourButtons,
  tourReducer,
  type TTourTarget,
} from '../model/tour-machine';

/** What the layout lends the tour: showing what a step highlights. */
export type TTourLayout = {
  /**
   * Makes the target visible: opens the menu drawer on a phone, a collapsed
   * sidebar, a collapsed menu group; answers true when something had to open.
   */
  revealTarget: (target: TTourTarget) => boolean;
  /** The tour ended: the layout may put back what it opened (the phone's menu drawer). */
  onTourEnd: () => void;
  /** A narrow screen: the tooltip goes below its target and fits the width. */
  isPhone: boolean;
};

/** The attribute the layout puts on what a step highlights (see tourTargetAttribute). */
export const TOUR_TARGET_ATTRIBUTE = 'data-tour';

/** Value of the data-tour attribute of a step's target in the layout. */
export function tourTargetAttribute(target: TTourTarget): string | undefined {
  switch (target.kind) {
    case 'sidebar':
      return 'sidebar';
    case 'menu':
      return 'menu';
    case 'group':
      return `group:${target.group}`;
    case 'item':
      return `item:${target.path}`;
    case 'center':
      return undefined;
  }
}

const STEP_ICONS: Record<string, ReactNode> = {
  sidebar: <LayoutOutlined />,
  menu: <AppstoreOutlined />,
  residential: <HomeOutlined />,
  datacenter: <CloudServerOutlined />,
  billing: <WalletOutlined />,
  done: <FlagOutlined />,
};

function findTarget(target: TTourTarget): HTMLElement | null {
  const value = tourTargetAttribute(target);
  if (!value) return null;
  // Compared as text: menu keys are paths, not selector-safe.
  return (
    [...document.querySelectorAll<HTMLElement>(`[${TOUR_TARGET_ATTRIBUTE}]`)].find(
      (el) => el.getAttribute(TOUR_TARGET_ATTRIBUTE) === value,
    ) ?? null
  );
}

/**
 * The guided tour (spec sections 2 and 4): starts by itself for a user who has
 * not completed it (once `canStartAutomatically`, i.e. after the notice), or
 * when the header asks; opens a collapsed menu group and waits 300 ms before
 * highlighting it; antd's Tour follows the target when the window is resized.
 */
export function GuidedTour(props: { layout: TTourLayout; canStartAutomatically: boolean }) {
  const { t } = useTranslation('tour');
  const { pathname } = useLocation();
  const [state, dispatch] = useReducer(tourReducer, INITIAL_TOUR_STATE);
  // The step highlighted: lags behind state.step while a menu group opens.
  const [shownStep, setShownStep] = useState<number | null>(null);
  const hasCheckedRef = useRef(false);
  const requests = useUserGuideRequests();
  const firstRequestsRef = useRef(requests);
  const { revealTarget, onTourEnd, isPhone } = props.layout;

  // The automatic check, once per page load.
  useEffect(() => {
    if (hasCheckedRef.current || !props.canStartAutomatically) return;
    hasCheckedRef.current = true;
    if (shouldStartAutomatically(pathname, isUserGuideCompleted())) dispatch({ type: 'start' });
  }, [props.canStartAutomatically, pathname]);

  // Opened by hand from the header.
  useEffect(() => {
    if (requests !== firstRequestsRef.current) dispatch({ type: 'start' });
  }, [requests]);

  useEffect(() => {
    if (state.isCompleted) markUserGuideCompleted();
  }, [state.isCompleted]);

  useEffect(() => {
    if (!state.isOpen) {
      setShownStep(null);
      return;
    }
    if (revealTarget(TOUR_STEPS[state.step].target)) {
      const timer = setTimeout(() => setShownStep(state.step), TOUR_GROUP_OPEN_WAIT_MS);
      return () => clearTimeout(timer);
    }
    setShownStep(state.step);
  }, [state.isOpen, state.step, revealTarget]);

  // Once it has been open, its end gives the layout back (the drawer a phone opened for it closes).
  const wasOpenRef = useRef(false);
  useEffect(() => {
    if (state.isOpen) wasOpenRef.current = true;
    else if (wasOpenRef.current) {
      wasOpenRef.current = false;
      onTourEnd();
    }
  }, [state.isOpen, onTourEnd]);

  // The highlight follows its target's size too (a menu group still opening, a page growing the
  // sidebar): antd's Tour measures again on window resizes, so one is signalled.
  useEffect(() => {
    if (!state.isOpen || shownStep === null || typeof ResizeObserver === 'undefined') return;
    const element = findTarget(TOUR_STEPS[shownStep].target);
    if (!element) return;
    const observer = new ResizeObserver(() => window.dispatchEvent(new Event('resize')));
    observer.observe(element);
    return () => observer.disconnect();
  }, [state.isOpen, shownStep]);

  const steps = useMemo<NonNullable<TourProps['steps']>>(
    () =>
      TOUR_STEPS.map((step, index) => {
        const buttons = tourButtons(index);
        const isCentred = step.target.kind === 'center';
        return {
          title: (
            <Space size={8} data-testid={`tour-step-${step.id}`}>
              {STEP_ICONS[step.id]}
              {t(`steps.${step.id}.title`)}
            </Space>
          ),
          description: t(`steps.${step.id}.description`),
          target: isCentred ? null : () => findTarget(step.target) as HTMLElement,
          // A phone has no room beside the menu: the tooltip goes below, as wide as the screen allows.
          placement: isCentred ? undefined : isPhone ? 'bottom' : 'right',
          style: { width: isPhone ? `min(${TOUR_TOOLTIP_WIDTH_PX}px, calc(100vw - 24px))` : TOUR_TOOLTIP_WIDTH_PX },
          nextButtonProps: { children: buttons.hasFinish ? t('finish') : t('next') },
          prevButtonProps: buttons.hasPrevious ? { children: t('previous') } : undefined,
        };
      }),
    [t, isPhone],
  );

  const isShown = state.isOpen && shownStep !== null && isTourAllowedOn(pathname);
  return (
    <Tour
      open={isShown}
      current={shownStep ?? 0}
      steps={steps}
      onChange={(next) => dispatch({ type: next > (shownStep ?? 0) ? 'next' : 'prev' })}
      onFinish={() => dispatch({ type: 'finish' })}
      onClose={() => dispatch({ type: 'close' })}
      rootClassName="guided-tour"
    />
  );
}
