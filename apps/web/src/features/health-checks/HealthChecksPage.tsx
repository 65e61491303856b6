// The checks list (docs/health-checks.md, "What a user sees"): the passing percentage, 'Run
// checks' (with a model select when the dataset has prediction sets), 'Add health check', and the
// checks in their groups, sorted by status then catalogue order, each with its status, a one-line
// summary and an enable switch. Polls while any check is computing (the query's refetchInterval).
import { PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { HealthCheckOverview } from '@loupe/contracts';
import { App, Button, Empty, Flex, Progress, Select, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/ApiError';
import { useLicense } from '../../api/hooks/useLicense';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { DelayedLoading } from '../../components/DelayedLoading';
import { DisabledTooltip } from '../../components/DisabledTooltip';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { useDatasetModels } from '../datasets';
import { groupChecks } from './checkRules';
import { AddCheckModal } from './components/AddCheckModal';
import { CheckGroupCard } from './components/CheckGroupCard';
import { useCheckSettings, useRunChecks } from './hooks/useCheckMutations';
import { useChecksRoute } from './hooks/useChecksRoute';
import { useHealthChecks } from './hooks/useHealthChecks';
import { checkStrings as strings } from './strings';

export function HealthChecksPage() {
  const route = useChecksRoute();
  const { datasetId, predictionsId, crumbs } = route;
  const { notification, message } = App.useApp();
  const navigate = useNavigate();
  const checks = useHealthChecks(datasetId, predictionsId);
  const models = useDatasetModels(datasetId).data ?? [];
  const licensed = useLicense().data?.state === 'LICENSED';
  const lockedReason = licensed ? null : strings.needsLicense;
  const run = useRunChecks(datasetId);
  const settings = useCheckSettings(datasetId);
  const [adding, setAdding] = useState(false);
  const groups = useMemo(() => groupChecks(checks.data?.checks ?? []), [checks.data]);
  const chosenModel = predictionsId ?? checks.data?.predictions_id ?? undefined;

  const toggle = (check: HealthCheckOverview, enabled: boolean) =>
    settings.mutate(
      {
        checkId: check.id,
        enabled,
        predictionsId: check.needs_predictions ? chosenModel : undefined,
      },
      {
        onError: (error) =>
          void notification.error({
            title: strings.settingsFailed(check.name),
            description: describeError(error),
          }),
      },
    );
  const runChecks = () =>
    run.mutate(undefined, {
      onSuccess: () => void message.success(strings.runQueued),
      onError: (error) =>
        void notification.error({ title: strings.runFailed, description: describeError(error) }),
    });

  const percent = checks.data?.summary.passing_percentage ?? null;
  const tools = (
    <Flex gap={8} align="center" wrap="wrap">
      {models.length > 0 && (
        <Select
          aria-label={strings.model}
          placeholder={strings.chooseModel}
          style={{ width: 200 }}
          value={chosenModel}
          options={models.map((model) => ({ value: model.id, label: model.name }))}
          onChange={(id: string) => route.setPredictionsId(id)}
        />
      )}
      <DisabledTooltip reason={lockedReason}>
        <Button
          icon={<PlayCircleOutlined />}
          disabled={lockedReason !== null}
          loading={run.isPending || checks.data?.computing === true}
          onClick={runChecks}
        >
          {checks.data?.computing ? strings.computingChecks : strings.runChecks}
        </Button>
      </DisabledTooltip>
      <DisabledTooltip reason={lockedReason}>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={lockedReason !== null || !route.dataset.data}
          onClick={() => setAdding(true)}
        >
          {strings.addCheck}
        </Button>
      </DisabledTooltip>
    </Flex>
  );

  let body: React.ReactNode;
  if (route.dataset.isError && isNotFound(route.dataset.error)) {
    body = <NotFoundState title={strings.datasetNotFound} />;
  } else if (checks.isError) {
    body = (
      <ErrorFallback
        title={strings.datasetListFailed}
        error={checks.error}
        onRetry={() => void checks.refetch()}
      />
    );
  } else if (!checks.data) {
    body = <DelayedLoading />;
  } else if (groups.length === 0) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={strings.noChecks}
        data-testid="checks-empty"
      />
    );
  } else {
    body = (
      <Flex vertical gap={16} data-testid="checks-list">
        {groups.map(({ group, checks: inGroup }) => (
          <CheckGroupCard
            key={group}
            group={group}
            checks={inGroup}
            checkPath={route.checkPath}
            lockedReason={lockedReason}
            onToggle={toggle}
            togglingId={settings.isPending ? (settings.variables?.checkId ?? null) : null}
          />
        ))}
      </Flex>
    );
  }

  return (
    <Page title={strings.healthChecks} breadcrumbs={crumbs} tools={tools} testId="health-checks">
      <Flex vertical gap={16}>
        {checks.data && (
          <Flex align="center" gap={12} data-testid="checks-summary">
            <Tooltip title={percent === null ? strings.noneEnabled : undefined}>
              <Progress
                type="circle"
                size={56}
                percent={percent ?? 0}
                format={() => (percent === null ? '–' : `${percent}%`)}
              />
            </Tooltip>
            <Typography.Text strong data-testid="checks-passing">
              {percent === null ? strings.noneEnabled : strings.passing(percent)}
            </Typography.Text>
          </Flex>
        )}
        {body}
      </Flex>
      {route.dataset.data && (
        <AddCheckModal
          open={adding}
          dataset={route.dataset.data}
          onClose={() => setAdding(false)}
          onCreated={(checkId) => {
            setAdding(false);
            void navigate(route.checkPath(checkId));
          }}
        />
      )}
    </Page>
  );
}
