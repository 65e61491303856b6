// Preferences remembered per deployment (docs/product.md, Shell §3): onboarding seen, activities seen, nav
// collapsed. One instance's choices never leak into another's on the same browser.
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export interface DeploymentPreferences {
  seenOnboarding: boolean;
  seenActivityIds: string[];
  mainNavIsCollapsed: boolean;
}

const defaults: DeploymentPreferences = {
  seenOnboarding: false,
  seenActivityIds: [],
  mainNavIsCollapsed: false,
};

export function readDeploymentPreferences(deploymentId: string): DeploymentPreferences {
  const raw = readStorage(STORAGE_KEYS.deploymentPreferences(deploymentId));
  if (!raw) return { ...defaults };
  try {
    const parsed = JSON.parse(raw) as Partial<DeploymentPreferences>;
    return {
      seenOnboarding: parsed.seenOnboarding === true,
      seenActivityIds: Array.isArray(parsed.seenActivityIds)
        ? parsed.seenActivityIds.filter((id): id is string => typeof id === 'string')
        : [],
      mainNavIsCollapsed: parsed.mainNavIsCollapsed === true,
    };
  } catch {
    return { ...defaults };
  }
}

export function updateDeploymentPreferences(
  deploymentId: string,
  change: Partial<DeploymentPreferences>,
): DeploymentPreferences {
  const next = { ...readDeploymentPreferences(deploymentId), ...change };
  writeStorage(STORAGE_KEYS.deploymentPreferences(deploymentId), JSON.stringify(next));
  return next;
}
