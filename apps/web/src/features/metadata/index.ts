// What the app shell may use of the metadata feature: its page.
export { MetadataPage } from './MetadataPage';
