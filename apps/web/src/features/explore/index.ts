// What other features and the app shell may use of the explore feature.
export { ExplorePage } from './ExplorePage';
