// What the app shell may use of the onboarding feature: the Getting started dialog and when to show it.
export { GettingStartedDialog } from './GettingStartedDialog';
export { useGettingStarted } from './useGettingStarted';
