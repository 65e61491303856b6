// What the app shell may use of the dataset-features feature: its page.
export { FeaturesPage } from './FeaturesPage';
