// The stored theme id: an invalid stored value is replaced by the default (docs/product.md, Shell §4).
import { readStorage, STORAGE_KEYS, writeStorage } from '../../lib/storage';
import { resolveThemeId, type ThemeId } from './themes';

export function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-color-scheme: dark)').matches
    : false;
}

export function loadThemeId(): ThemeId {
  const stored = readStorage(STORAGE_KEYS.theme);
  const id = resolveThemeId(stored, systemPrefersDark());
  if (stored !== null && stored !== id) writeStorage(STORAGE_KEYS.theme, id);
  return id;
}

export function saveThemeId(id: ThemeId): void {
  writeStorage(STORAGE_KEYS.theme, id);
}
