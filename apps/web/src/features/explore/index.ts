// What other features may use of the explore feature.
export { ExplorePage } from './ExplorePage';
export type { ItemViewerProps } from './ItemViewerSlot';
