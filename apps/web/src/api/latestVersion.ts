// Reads the public versions file (field latest with version and slug) into a new-version
// entry, or nothing: a missing file, bad JSON or a non-semantic version is simply no entry.
import { isNewerVersion } from '../lib/semver';

export interface NewVersion {
  version: string;
  changelogUrl: string;
  upgradeUrl: string;
}

interface VersionsFile {
  latest?: {
    version?: unknown;
    slug?: unknown;
    changelog_url?: unknown;
    upgrade_url?: unknown;
  };
}

export function newVersionFrom(
  file: unknown,
  currentVersion: string,
  versionsUrl: string,
): NewVersion | null {
  const latest = (file as VersionsFile | null)?.latest;
  if (!latest || typeof latest.version !== 'string') return null;
  if (!isNewerVersion(latest.version, currentVersion)) return null;
  const base = new URL(versionsUrl, window.location.href);
  const slug = typeof latest.slug === 'string' && latest.slug ? latest.slug : latest.version;
  return {
    version: latest.version,
    changelogUrl:
      typeof latest.changelog_url === 'string'
        ? latest.changelog_url
        : new URL(`/changelog/${encodeURIComponent(slug)}`, base).href,
    upgradeUrl:
      typeof latest.upgrade_url === 'string'
        ? latest.upgrade_url
        : new URL('/docs/upgrade', base).href,
  };
}

export async function fetchNewVersion(
  versionsUrl: string,
  currentVersion: string,
  signal?: AbortSignal,
): Promise<NewVersion | null> {
  try {
    const response = await fetch(versionsUrl, { signal, credentials: 'omit', cache: 'no-cache' });
    if (!response.ok) return null;
    return newVersionFrom(await response.json(), currentVersion, versionsUrl);
  } catch {
    return null;
  }
}
