// A box as tall as the window below its top edge (like the grid), for the embeddings map, which
// fills its parent's height.
import { useLayoutEffect, useRef, useState } from 'react';

const PAGE_BOTTOM = 24;
const MIN_HEIGHT = 320;

export function FillHeight({ children, testId }: { children: React.ReactNode; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(600);
  const measure = () => {
    const element = ref.current;
    if (!element) return;
    const top = element.getBoundingClientRect().top + window.scrollY;
    setHeight(Math.max(MIN_HEIGHT, window.innerHeight - top - PAGE_BOTTOM));
  };
  // After every render: the toolbar above may have wrapped (a selection adds its buttons).
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  return (
    <div ref={ref} data-testid={testId} style={{ height, minWidth: 0 }}>
      {children}
    </div>
  );
}
