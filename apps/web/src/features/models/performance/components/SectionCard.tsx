// One section of the performance page: a titled card with its tools on the right.
import { Card } from 'antd';
import type { ReactNode } from 'react';

export interface SectionCardProps {
  title: ReactNode;
  /** Names the section as a region (the title text when it is a string). */
  label: string;
  tools?: ReactNode;
  children: ReactNode;
}

export function SectionCard({ title, label, tools, children }: SectionCardProps) {
  return (
    <section aria-label={label}>
      <Card title={title} extra={tools} size="small" styles={{ body: { padding: 16 } }}>
        {children}
      </Card>
    </section>
  );
}
