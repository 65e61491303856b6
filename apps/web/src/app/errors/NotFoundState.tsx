// A page's not-found state: the product's text for the entity and a way home. A 404 or 400 on an id
// taken from the URL lands here; the server's precise description stays out of sight.
import { HomeOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { Link } from 'react-router';
import { ApiError } from '../../api/ApiError';
import { commonStrings } from '../../components/strings';

/** Whether a failed load of an entity named in the URL means it does not exist (or cannot). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}

export function NotFoundState({ title }: { title: string }) {
  return (
    <Result
      status="404"
      title={title}
      data-testid="not-found"
      extra={
        <Link to="/">
          <Button type="primary" icon={<HomeOutlined />}>
            {commonStrings.goToHome}
          </Button>
        </Link>
      }
    />
  );
}
