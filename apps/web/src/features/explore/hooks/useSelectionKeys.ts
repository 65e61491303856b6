// The selection's keys (docs/product.md, Datasets §4): Escape clears it, Ctrl/Cmd+A selects the
// whole result. Not while typing, not inside a dialog or popup (their Escape closes them), and
// not while the item viewer is open; Ctrl/Cmd+A only when the focus is in the grid or nowhere
// (elsewhere it keeps selecting text).
import { useEffect } from 'react';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';
const POPUP = '[role="dialog"], .ant-popover, .ant-dropdown, .ant-select-dropdown, .ant-modal';
/** An open menu, popover or dialog takes Escape for itself (closing it keeps the selection). */
const OPEN_POPUP = [
  '.ant-dropdown:not(.ant-dropdown-hidden)',
  '.ant-popover:not(.ant-popover-hidden)',
  '.ant-select-dropdown:not(.ant-select-dropdown-hidden)',
  '.ant-modal-wrap:not([style*="display: none"])',
].join(', ');

export function useSelectionKeys(args: {
  enabled: boolean;
  hasSelection: boolean;
  onClear(): void;
  onSelectAll(): void;
}) {
  const { enabled, hasSelection, onClear, onSelectAll } = args;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(EDITABLE) || target?.closest(POPUP)) return;
      if (event.key === 'Escape' && hasSelection) {
        if (document.querySelector(OPEN_POPUP)) return;
        onClear();
      } else if (
        event.key.toLowerCase() === 'a' &&
        (event.ctrlKey || event.metaKey) &&
        !event.shiftKey &&
        (target === null || target === document.body || target.closest('[role="grid"]'))
      ) {
        event.preventDefault();
        onSelectAll();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled, hasSelection, onClear, onSelectAll]);
}
