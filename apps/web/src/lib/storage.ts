// The browser's local storage under the keys of docs/product.md, Shell §9; reads never throw.
export const STORAGE_KEYS = {
  theme: 'loupe.theme',
  deploymentPreferences: (deploymentId: string) => `loupe.deployment.${deploymentId}`,
  showOnlyMyActivities: 'loupe.showOnlyMyActivities',
} as const;

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage full or disabled: the preference lasts for this page only.
  }
}

/** Every key this app stored, for the support bundle. */
export function loupeStorageEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  try {
    for (let index = 0; index < window.localStorage.length; index += 1) {
      const key = window.localStorage.key(index);
      if (key?.startsWith('loupe.')) entries[key] = window.localStorage.getItem(key) ?? '';
    }
  } catch {
    // Storage disabled: nothing to report.
  }
  return entries;
}

export function clearLoupeStorage(): void {
  for (const key of Object.keys(loupeStorageEntries())) window.localStorage.removeItem(key);
}
