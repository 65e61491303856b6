// What other features may use of the activities feature.
export { ActivitiesBell } from './ActivitiesBell';
export { useActivities } from './hooks/useActivities';
