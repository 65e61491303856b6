// A signed-in page: header with breadcrumbs and a slot for page tools, then the content.
import { Breadcrumb, Flex, Typography, theme } from 'antd';
import { useContext, useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { emitTestEvent } from '../lib/testEvents';
import { PageHeaderEndContext, PageHeaderLeadContext } from './PageHeaderContext';

export interface Crumb {
  title: string;
  to?: string;
}

export interface PageProps {
  title: string;
  breadcrumbs?: Crumb[];
  tools?: ReactNode;
  children?: ReactNode;
  /** A name for the test event announcing the page was drawn. */
  testId?: string;
}

export function Page({ title, breadcrumbs = [], tools, children, testId }: PageProps) {
  const { token } = theme.useToken();
  const lead = useContext(PageHeaderLeadContext);
  const end = useContext(PageHeaderEndContext);
  const crumbs = [...breadcrumbs, { title }];

  useEffect(() => {
    document.title = `${title} · Loupe`;
    emitTestEvent({ type: 'page:rendered', page: testId ?? title });
  }, [title, testId]);

  return (
    <Flex vertical style={{ minHeight: '100%' }}>
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 12,
          padding: '12px 24px',
          minHeight: 64,
          background: token.colorBgContainer,
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        {lead}
        <Flex vertical style={{ flex: 1, minWidth: 0 }}>
          {crumbs.length > 1 && (
            <Breadcrumb
              items={crumbs.map((crumb, index) => ({
                key: `${index}-${crumb.title}`,
                title:
                  crumb.to && index < crumbs.length - 1 ? (
                    <Link to={crumb.to}>{crumb.title}</Link>
                  ) : (
                    crumb.title
                  ),
              }))}
            />
          )}
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        </Flex>
        {tools && <Flex gap={8}>{tools}</Flex>}
        {end}
      </header>
      <main style={{ padding: 24, flex: 1 }}>{children}</main>
    </Flex>
  );
}
