// What other features may use of the item viewer.
export { ItemViewer, type ItemViewerProps } from './ItemViewer';
