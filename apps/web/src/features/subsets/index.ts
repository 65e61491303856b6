// What the app shell and other features may use of the subsets feature: its two pages.
export { SubsetPage } from './SubsetPage';
export { SubsetsPage } from './SubsetsPage';
