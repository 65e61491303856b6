// Opens the Getting started dialog by itself the first time per deployment, and on Help.
import { useCallback, useEffect, useState } from 'react';
import {
  readDeploymentPreferences,
  updateDeploymentPreferences,
} from '../../lib/deploymentPreferences';

export function useGettingStarted(deploymentId: string) {
  const [open, setOpen] = useState(() => !readDeploymentPreferences(deploymentId).seenOnboarding);
  useEffect(() => {
    updateDeploymentPreferences(deploymentId, { seenOnboarding: true });
  }, [deploymentId]);
  const show = useCallback(() => setOpen(true), []);
  const hide = useCallback(() => setOpen(false), []);
  return { open, show, hide };
}
