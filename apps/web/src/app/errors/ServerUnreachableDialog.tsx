// 'The server is unreachable' with Retry and Cancel, shown when any call gets no answer.
import { DisconnectOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Flex, Modal, Typography } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { serverUnreachable } from '../../api/unreachable';
import { commonStrings } from '../../components/strings';

export function ServerUnreachableDialog() {
  const open = useSyncExternalStore(serverUnreachable.subscribe, serverUnreachable.get);
  const queryClient = useQueryClient();
  const [retrying, setRetrying] = useState(false);

  const retry = async () => {
    setRetrying(true);
    serverUnreachable.clear();
    try {
      // Failed queries are fetched again; a call that still gets no answer reopens this dialog.
      await queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
    } finally {
      setRetrying(false);
    }
  };

  return (
    <Modal
      open={open}
      title={
        <Flex gap={8} align="center">
          <DisconnectOutlined />
          {commonStrings.serverUnreachable}
        </Flex>
      }
      okText={commonStrings.retry}
      cancelText={commonStrings.cancel}
      onOk={() => void retry()}
      onCancel={() => serverUnreachable.clear()}
      confirmLoading={retrying}
      maskClosable={false}
      destroyOnHidden
    >
      <Typography.Paragraph>{commonStrings.serverUnreachableDetail}</Typography.Paragraph>
    </Modal>
  );
}
