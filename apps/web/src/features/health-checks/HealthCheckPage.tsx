// One health check (docs/health-checks.md, "Check page"), by status: failed with items evidence →
// the failed items in a grid with the action card and the other evidence; failed with a text
// recommendation → evidence and recommendation; passed → 'No problems found' and how many items
// were checked (with the ignored items), or 'All items passed'; computing (polled); missing
// requirements; error; disabled (Enable). Configure, Delete (custom checks) and the approximate
// check tour sit around them.
import { DeleteOutlined, SettingOutlined, TableOutlined } from '@ant-design/icons';
import type { Evaluation, HealthCheckOverview } from '@loupe/contracts';
import { Alert, App, Button, Card, Col, Empty, Flex, Result, Row, Spin, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../../api/ApiError';
import { useLicense } from '../../api/hooks/useLicense';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { DelayedLoading } from '../../components/DelayedLoading';
import { DisabledTooltip } from '../../components/DisabledTooltip';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import {
  PendingChangesBox,
  PendingChangesProvider,
  useGuardLeave,
  usePendingChanges,
} from '../curation';
import { explorerLink, failedView, type ItemsEvidence } from './checkRules';
import { ActionCard } from './components/ActionCard';
import { ApproximateTour } from './components/ApproximateTour';
import { ConfigureModal } from './components/ConfigureModal';
import { EvidenceList } from './components/EvidenceList';
import { IgnoredItems } from './components/IgnoredItems';
import { ItemsPreview } from './components/ItemsPreview';
import { StatusTag } from './components/StatusTag';
import { useActionCard } from './hooks/useActionCard';
import { useCheckSettings, useDeleteCheck } from './hooks/useCheckMutations';
import { useChecksRoute } from './hooks/useChecksRoute';
import { useHealthCheck } from './hooks/useHealthCheck';
import { checkStrings as strings } from './strings';

export function HealthCheckPage() {
  const route = useChecksRoute();
  const { datasetId, checkId, predictionsId } = route;
  const answer = useHealthCheck(datasetId, checkId, predictionsId);
  const crumbs = [...route.crumbs, { title: strings.healthChecks, to: route.listPath }];
  const title = answer.data?.check.name ?? strings.healthCheck;

  let body: React.ReactNode;
  if (answer.isError) {
    body = isNotFound(answer.error) ? (
      <NotFoundState title={strings.checkFailed} />
    ) : (
      <ErrorFallback
        title={strings.checkFailed}
        error={answer.error}
        onRetry={() => void answer.refetch()}
      />
    );
  } else if (!answer.data) {
    body = <DelayedLoading label={strings.loading} />;
  } else {
    body = (
      <PendingChangesProvider datasetId={datasetId}>
        <CheckContent
          datasetId={datasetId}
          check={answer.data.check}
          evaluation={answer.data.evaluation}
          predictionsId={predictionsId}
          listPath={route.listPath}
        />
      </PendingChangesProvider>
    );
  }
  return (
    <Page title={title} breadcrumbs={crumbs} testId="health-check">
      {body}
    </Page>
  );
}

interface ContentProps {
  datasetId: string;
  check: HealthCheckOverview;
  evaluation: Evaluation | null;
  predictionsId?: string;
  listPath: string;
}

function CheckContent({ datasetId, check, evaluation, predictionsId, listPath }: ContentProps) {
  const { modal, notification, message } = App.useApp();
  const navigate = useNavigate();
  const licensed = useLicense().data?.state === 'LICENSED';
  const lockedReason = licensed ? null : strings.needsLicense;
  const settings = useCheckSettings(datasetId);
  const remove = useDeleteCheck(datasetId);
  const [configuring, setConfiguring] = useState(false);
  const headerRef = useRef<HTMLDivElement>(null);
  const status = check.status;
  const modelId = check.needs_predictions ? predictionsId : undefined;
  const configurable = Object.keys(check.config.params).length > 0;
  const approximate =
    (status.type === 'failed_check' || status.type === 'passed_check') && status.is_approximate;
  // Changes queued from this check's action card live on this page only.
  const pending = usePendingChanges();
  useGuardLeave({
    count: pending.changes.length,
    discard: pending.discardAll,
    title: strings.discardTitle,
    okText: strings.discardAndLeave,
  });

  const setEnabled = (enabled: boolean) =>
    settings.mutate(
      { checkId: check.id, enabled, predictionsId: modelId },
      {
        onError: (error) =>
          void notification.error({
            title: strings.settingsFailed(check.name),
            description: describeError(error),
          }),
      },
    );
  const deleteCheck = () =>
    void modal.confirm({
      title: strings.deleteCheckTitle(check.name),
      content: strings.deleteCheckText,
      okText: strings.deleteCheck,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: () =>
        remove.mutateAsync(check.id).then(
          () => {
            void message.success(strings.deletedCheck(check.name));
            // The check is gone: what was queued from it goes too, without asking.
            pending.discardAll();
            setTimeout(() => void navigate(listPath));
          },
          (error: unknown) =>
            void notification.error({
              title: strings.deleteFailed(check.name),
              description: describeError(error),
            }),
        ),
    });

  return (
    <Flex vertical gap={16}>
      <Flex justify="space-between" align="flex-start" gap={16} wrap="wrap">
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 320 }} ref={headerRef}>
          <Flex gap={8} align="center">
            <StatusTag status={status.type} />
            <Typography.Text type="secondary">{check.group}</Typography.Text>
          </Flex>
          {check.description.map((line, index) => (
            <Typography.Paragraph key={index} style={{ margin: 0 }}>
              {line}
            </Typography.Paragraph>
          ))}
          {status.type === 'failed_check' && (
            <Typography.Text strong data-testid="evidence-summary">
              {status.evidence_summary}
            </Typography.Text>
          )}
        </Flex>
        <Flex gap={8} wrap="wrap">
          {configurable && (
            <DisabledTooltip reason={lockedReason}>
              <Button
                icon={<SettingOutlined />}
                disabled={lockedReason !== null}
                onClick={() => setConfiguring(true)}
              >
                {strings.configure}
              </Button>
            </DisabledTooltip>
          )}
          {check.type === 'custom' && (
            <DisabledTooltip reason={lockedReason}>
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={lockedReason !== null}
                onClick={deleteCheck}
              >
                {strings.deleteCheck}
              </Button>
            </DisabledTooltip>
          )}
        </Flex>
      </Flex>

      <StatusView
        datasetId={datasetId}
        check={check}
        evaluation={evaluation}
        predictionsId={modelId}
        lockedReason={lockedReason}
        onEnable={() => setEnabled(true)}
        enabling={settings.isPending}
      />

      {approximate && <ApproximateTour target={() => headerRef.current} />}
      <ConfigureModal
        open={configuring}
        datasetId={datasetId}
        check={check}
        predictionsId={modelId}
        onClose={() => setConfiguring(false)}
      />
    </Flex>
  );
}

interface StatusViewProps {
  datasetId: string;
  check: HealthCheckOverview;
  evaluation: Evaluation | null;
  predictionsId?: string;
  lockedReason: string | null;
  onEnable(): void;
  enabling: boolean;
}

function StatusView(props: StatusViewProps) {
  const { datasetId, check, evaluation, predictionsId, lockedReason } = props;
  const status = check.status;
  switch (status.type) {
    case 'failed_check': {
      const view = failedView(evaluation);
      if (view === 'actions')
        return (
          <ActionView
            datasetId={datasetId}
            check={check}
            evaluation={evaluation!}
            predictionsId={predictionsId}
            lockedReason={lockedReason}
          />
        );
      if (view === 'text') return <TextView evaluation={evaluation!} />;
      return <Alert type="error" showIcon title={strings.unsupportedEvaluation} />;
    }
    case 'passed_check': {
      const summary = status.checked_items_summary;
      return (
        <Flex vertical gap={16} data-testid="passed-view">
          <Result
            status="success"
            title={summary ? strings.noProblems : strings.allPassed}
            subTitle={summary ? strings.itemsChecked(summary.num_items_checked) : undefined}
          />
          {evaluation && <EvidenceList evidence={evaluation.evidence} />}
          {summary && (
            <IgnoredItems
              datasetId={datasetId}
              checkId={check.id}
              dataLevel={summary.data_level}
              predictionsId={predictionsId}
              lockedReason={lockedReason}
            />
          )}
        </Flex>
      );
    }
    case 'pending_check':
      return (
        <Flex vertical align="center" gap={12} style={{ padding: 48 }} data-testid="pending-view">
          <Spin size="large" />
          <Typography.Text>{strings.computing}</Typography.Text>
        </Flex>
      );
    case 'missing_req_check':
      return (
        <Result
          status="warning"
          title={strings.statusLabels.missing_req_check}
          data-testid="missing-view"
          subTitle={
            <Flex vertical gap={4} align="center">
              <span>{strings.missingRequirements}</span>
              <ul style={{ margin: 0, textAlign: 'start' }}>
                {status.requirements.map((requirement, index) => (
                  <li key={index}>{requirement.message}</li>
                ))}
              </ul>
            </Flex>
          }
        />
      );
    case 'failed_to_compute_check':
      return (
        <Result
          status="error"
          title={strings.computeFailed}
          subTitle={status.message}
          data-testid="error-view"
        />
      );
    case 'disabled_check':
      return (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={strings.disabledText}
          data-testid="disabled-view"
        >
          <DisabledTooltip reason={lockedReason}>
            <Button
              type="primary"
              disabled={lockedReason !== null}
              loading={props.enabling}
              onClick={props.onEnable}
            >
              {strings.enable}
            </Button>
          </DisabledTooltip>
        </Empty>
      );
  }
}

function TextView({ evaluation }: { evaluation: Evaluation }) {
  const recommendation = evaluation.recommendation;
  return (
    <Flex vertical gap={16} data-testid="text-view">
      <EvidenceList evidence={evaluation.evidence} />
      {recommendation?.type === 'text_recommendation' && (
        <Card size="small" title={strings.recommendation}>
          <Flex vertical gap={4}>
            {recommendation.value.map((line, index) => (
              <Typography.Paragraph key={index} style={{ margin: 0 }}>
                {line}
              </Typography.Paragraph>
            ))}
          </Flex>
        </Card>
      )}
    </Flex>
  );
}

function ActionView({
  datasetId,
  check,
  evaluation,
  predictionsId,
  lockedReason,
}: {
  datasetId: string;
  check: HealthCheckOverview;
  evaluation: Evaluation;
  predictionsId?: string;
  lockedReason: string | null;
}) {
  const items = evaluation.evidence.find((each): each is ItemsEvidence => each.type === 'items')!;
  const config = items.items_preview_config;
  const pending = usePendingChanges();
  const card = useActionCard({
    datasetId,
    checkId: check.id,
    dataLevel: config.data_level,
    recommendation: evaluation.recommendation,
    predictionsId,
  });
  return (
    <Row gutter={[16, 16]} data-testid="action-view">
      <Col xs={24} xl={17}>
        <Card
          size="small"
          title={
            <Flex gap={8} align="baseline">
              <span>{items.title}</span>
              <Typography.Text type="secondary">
                {strings.itemsCount(items.num_items)}
              </Typography.Text>
            </Flex>
          }
          extra={
            <Link to={explorerLink(datasetId, config)}>
              <Button size="small" icon={<TableOutlined />}>
                {strings.openInExplorer}
              </Button>
            </Link>
          }
        >
          <ItemsPreview
            datasetId={datasetId}
            config={config}
            predictionsId={predictionsId}
            groups={card.groups}
            onToggle={card.toggle}
            onItems={card.onItems}
            fieldLabels={Object.fromEntries(check.fields.map((field) => [field.id, field.label]))}
          />
        </Card>
      </Col>
      <Col xs={24} xl={7}>
        <Flex vertical gap={16}>
          <ActionCard
            groups={card.groups}
            activeGroupId={card.activeGroupId}
            onActiveGroupChange={card.setActiveGroupId}
            onApply={card.apply}
            lockedReason={lockedReason}
            busy={card.busy}
          />
          {pending.changes.length > 0 && (
            <Card size="small" title={strings.pendingChanges} data-testid="check-pending">
              <PendingChangesBox />
            </Card>
          )}
        </Flex>
      </Col>
      <Col span={24}>
        <Flex vertical gap={16}>
          <EvidenceList evidence={evaluation.evidence} />
          <IgnoredItems
            datasetId={datasetId}
            checkId={check.id}
            dataLevel={config.data_level}
            predictionsId={predictionsId}
            lockedReason={lockedReason}
          />
        </Flex>
      </Col>
    </Row>
  );
}
