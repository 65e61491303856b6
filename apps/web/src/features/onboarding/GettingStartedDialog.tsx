// The Getting started dialog: four cards that lead to the first useful steps (docs/product.md, Shell §2).
import {
  ApiOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { Card, Col, Modal, Row, Tooltip, Typography, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useCurrentUser } from '../../api/hooks/useCurrentUser';
import { SdkDialog } from '../sdk';
import { onboardingStrings as strings } from './strings';

interface CardSpec {
  key: string;
  icon: ReactNode;
  title: string;
  text: string;
  to: string;
  disabledReason?: string;
}

const SDK_DIALOG = 'sdk-dialog';

export function GettingStartedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const { isAdmin } = useCurrentUser();
  const { token } = theme.useToken();
  const [sdkOpen, setSdkOpen] = useState(false);
  const go = (to: string) => (to === SDK_DIALOG ? setSdkOpen(true) : void navigate(to));

  const cards: CardSpec[] = [
    { key: 'sdk', icon: <ApiOutlined />, ...strings.cards.sdk, to: SDK_DIALOG },
    {
      key: 'invite',
      icon: <UserAddOutlined />,
      ...strings.cards.invite,
      to: '/settings/users?add=1',
      disabledReason: isAdmin ? undefined : strings.noInvitePermission,
    },
    {
      key: 'dataset',
      icon: <DatabaseOutlined />,
      ...strings.cards.dataset,
      to: '/datasets?instructions=1',
    },
    {
      key: 'model',
      icon: <ExperimentOutlined />,
      ...strings.cards.model,
      to: '/models?instructions=1',
    },
  ];

  return (
    <>
      <Modal
        open={open}
        title={strings.title}
        footer={null}
        width={720}
        onCancel={onClose}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{strings.intro}</Typography.Paragraph>
        <Row gutter={[16, 16]}>
          {cards.map((card) => {
            const disabled = Boolean(card.disabledReason);
            const body = (
              <Card
                hoverable={!disabled}
                role="button"
                aria-disabled={disabled}
                tabIndex={disabled ? -1 : 0}
                style={{
                  height: '100%',
                  opacity: disabled ? 0.55 : 1,
                  cursor: disabled ? 'not-allowed' : 'pointer',
                }}
                onClick={() => {
                  if (disabled) return;
                  onClose();
                  go(card.to);
                }}
                onKeyDown={(event) => {
                  if (disabled || (event.key !== 'Enter' && event.key !== ' ')) return;
                  onClose();
                  go(card.to);
                }}
              >
                <Card.Meta
                  avatar={
                    <span style={{ fontSize: 24, color: token.colorPrimary }}>{card.icon}</span>
                  }
                  title={card.title}
                  description={card.text}
                />
              </Card>
            );
            return (
              <Col xs={24} sm={12} key={card.key}>
                {disabled ? <Tooltip title={card.disabledReason}>{body}</Tooltip> : body}
              </Col>
            );
          })}
        </Row>
      </Modal>
      <SdkDialog open={sdkOpen} onClose={() => setSdkOpen(false)} />
    </>
  );
}
