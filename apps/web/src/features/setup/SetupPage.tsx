// The first-run wizard: intro, company, user, final (docs/product.md, Shell §2).
import { useQueryClient } from '@tanstack/react-query';
import { App, Card, Steps } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../api/ApiError';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { queryKeys } from '../../api/queryKeys';
import { AuthLayout } from '../../components/AuthLayout';
import { emitTestEvent } from '../../lib/testEvents';
import { useSetup } from './hooks/useSetup';
import { CompanyStep } from './steps/CompanyStep';
import { FinalStep } from './steps/FinalStep';
import { IntroStep } from './steps/IntroStep';
import { UserStep, type UserValues } from './steps/UserStep';
import { setupStrings } from './strings';
import { canVisit, STEPS } from './wizardSteps';

export function SetupPage() {
  const state = useLoadedAppState();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { notification } = App.useApp();
  const setup = useSetup();
  const [step, setStep] = useState<number>(STEPS.intro);
  const [completed, setCompleted] = useState<ReadonlySet<number>>(new Set());
  const [company, setCompany] = useState('');
  const [user, setUser] = useState<UserValues | undefined>();
  const [leaving, setLeaving] = useState(false);
  const done = setup.isSuccess;
  const external = state.auth_state.type === 'oauth';

  useEffect(() => {
    document.title = 'Setup · Loupe';
    emitTestEvent({ type: 'page:rendered', page: `setup-${step}` });
  }, [step]);

  const complete = (index: number, next: number) => {
    setCompleted((previous) => new Set(previous).add(index));
    setStep(next);
  };

  const submitUser = (values: UserValues | undefined) => {
    setUser(values);
    setup.mutate(
      {
        company,
        user: values && { username: values.name, email: values.email, password: values.password },
      },
      {
        onSuccess: () => complete(STEPS.user, STEPS.final),
        onError: (error) =>
          notification.error({
            message: setupStrings.setupFailed,
            description: describeError(error),
          }),
      },
    );
  };

  /** Leaves the wizard signed in: the app state now says COMPLETE and carries the user. */
  const finish = async (to: string) => {
    setLeaving(true);
    try {
      await queryClient.refetchQueries({ queryKey: queryKeys.appState() });
      await navigate(to, { replace: true });
    } finally {
      setLeaving(false);
    }
  };

  return (
    <AuthLayout>
      <Card style={{ width: '100%', maxWidth: 640 }}>
        <Steps
          size="small"
          current={step}
          onChange={(next) => canVisit(next, completed, done) && setStep(next)}
          items={setupStrings.stepTitles.map((title, index) => ({
            title,
            disabled: !canVisit(index, completed, done),
          }))}
          style={{ marginBottom: 32 }}
        />
        {step === STEPS.intro && (
          <IntroStep onContinue={() => complete(STEPS.intro, STEPS.company)} />
        )}
        {step === STEPS.company && (
          <CompanyStep
            initialValue={company}
            readOnly={done}
            onBack={() => setStep(STEPS.intro)}
            onContinue={(name) => {
              setCompany(name);
              complete(STEPS.company, STEPS.user);
            }}
          />
        )}
        {step === STEPS.user && (
          <UserStep
            external={external ? state.auth_state : undefined}
            initialValues={user}
            readOnly={done}
            submitting={setup.isPending}
            onBack={() => setStep(STEPS.company)}
            onContinue={(values) => (done ? setStep(STEPS.final) : submitUser(values))}
          />
        )}
        {step === STEPS.final && <FinalStep leaving={leaving} onFinish={(to) => void finish(to)} />}
      </Card>
    </AuthLayout>
  );
}
