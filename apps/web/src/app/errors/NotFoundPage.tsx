// 'Page not found' for every path outside the route table.
import { HomeOutlined } from '@ant-design/icons';
import { Button, Flex, Result } from 'antd';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { commonStrings } from '../../components/strings';
import { emitTestEvent } from '../../lib/testEvents';

export function NotFoundPage() {
  useEffect(() => {
    document.title = `${commonStrings.pageNotFound} · Loupe`;
    emitTestEvent({ type: 'page:rendered', page: 'not-found' });
  }, []);
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 24 }}>
      <Result
        status="404"
        title={commonStrings.pageNotFound}
        subTitle={commonStrings.pageNotFoundDetail}
        extra={
          <Link to="/">
            <Button type="primary" icon={<HomeOutlined />}>
              {commonStrings.goToHome}
            </Button>
          </Link>
        }
      />
    </Flex>
  );
}
