// Guards a page whose pending changes would be lost on leaving it (docs/curation.md, the item
// viewer and pages with their own queue): following a link or going back asks 'Discard changes'
// with 'Discard and leave' (or the page's own words) while changes are queued; closing or
// reloading the tab asks the browser's own question.
import { App } from 'antd';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { confirmDiscard } from '../confirmDiscard';

export interface GuardLeaveOptions {
  /** How many changes would be lost (0: leaving is free). */
  count: number;
  /** Drops the changes; leaving follows. */
  discard(): void;
  title?: string;
  okText?: string;
}

export function useGuardLeave({ count, discard, title, okText }: GuardLeaveOptions): void {
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      count > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    confirmDiscard(modal, {
      count,
      title,
      okText,
      onDiscard: () => {
        discard();
        blocker.proceed();
      },
      onCancel: () => blocker.reset(),
    });
    // Asked once per blocked navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [blocker.state]);
  useEffect(() => {
    if (count === 0) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [count]);
}
