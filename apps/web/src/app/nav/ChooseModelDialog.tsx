// 'Choose model': lists the dataset's prediction sets when a model link is used without a model.
import { ExperimentOutlined } from '@ant-design/icons';
import { Empty, List, Modal, Typography } from 'antd';
import type { PredictionSet } from '@loupe/contracts';
import { navStrings } from './strings';

export interface ChooseModelDialogProps {
  open: boolean;
  models: PredictionSet[];
  onChoose: (model: PredictionSet) => void;
  onClose: () => void;
}

export function ChooseModelDialog({ open, models, onChoose, onClose }: ChooseModelDialogProps) {
  return (
    <Modal
      open={open}
      title={navStrings.chooseModel}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{navStrings.chooseModelText}</Typography.Paragraph>
      {models.length === 0 ? (
        <Empty description={navStrings.noModels} />
      ) : (
        <List
          dataSource={models}
          renderItem={(model) => (
            <List.Item
              style={{ cursor: 'pointer' }}
              onClick={() => onChoose(model)}
              role="button"
              tabIndex={0}
              onKeyDown={(event) => event.key === 'Enter' && onChoose(model)}
            >
              <List.Item.Meta
                avatar={<ExperimentOutlined />}
                title={model.name}
                description={new Date(model.added_at).toLocaleString()}
              />
            </List.Item>
          )}
        />
      )}
    </Modal>
  );
}
