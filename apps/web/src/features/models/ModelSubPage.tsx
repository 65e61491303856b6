// A model page whose content arrives with its own issue: titled by the route, named in the
// breadcrumbs, and 'Dataset not found' or 'Model not found' when the URL names neither.
import { PlaceholderPage } from '../datasets';
import { useModelPageFrame } from './ModelPageFrame';

export function ModelSubPage({ title }: { title: string }) {
  const frame = useModelPageFrame(title);
  return frame.failure ?? <PlaceholderPage title={title} breadcrumbs={frame.crumbs} />;
}
