// The signed-in frame: the collapsible main navigation beside the page, the Getting started
// dialog, and an error boundary that keeps the navigation when a page fails. The frame is exactly
// the viewport: the document never scrolls (no second scrollbar beside a page's own scrolling
// areas, and the navigation always reaches the bottom); the page column scrolls instead.
import { MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Tooltip, theme } from 'antd';
import { useEffect } from 'react';
import { Outlet, useRouteError } from 'react-router';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { PageHeaderEndContext, PageHeaderLeadContext } from '../../components/PageHeaderContext';
import { commonStrings } from '../../components/strings';
import { ActivitiesBell } from '../../features/activities';
import { GettingStartedDialog, useGettingStarted } from '../../features/onboarding';
import { emitTestEvent } from '../../lib/testEvents';
import { MainNav, NAV_WIDTH } from '../nav/MainNav';
import { navStrings } from '../nav/strings';
import { NAV_COLLAPSE_MS, useNavCollapse } from '../nav/useNavCollapse';

export function SignedInLayout() {
  const { deployment_id: deploymentId } = useLoadedAppState();
  const nav = useNavCollapse(deploymentId);
  const onboarding = useGettingStarted(deploymentId);
  const { token } = theme.useToken();

  useEffect(() => emitTestEvent({ type: 'app:ready', signedIn: true }), []);

  const expand = nav.collapsed ? (
    <Tooltip title={navStrings.expand}>
      <Button
        type="text"
        icon={<MenuUnfoldOutlined />}
        aria-label={navStrings.expand}
        onClick={() => nav.setCollapsed(false)}
      />
    </Tooltip>
  ) : null;

  const transition = `transform ${NAV_COLLAPSE_MS}ms ease, width ${NAV_COLLAPSE_MS}ms ease, box-shadow ${NAV_COLLAPSE_MS}ms ease`;

  return (
    <div
      style={{
        display: 'flex',
        height: '100vh',
        overflow: 'hidden',
        background: token.colorBgLayout,
      }}
    >
      <div
        data-nav-state={nav.phase}
        data-nav-revealed={nav.revealed}
        style={{
          width: nav.collapsed ? 0 : NAV_WIDTH,
          flexShrink: 0,
          transition,
          position: 'relative',
          zIndex: 20,
        }}
      >
        {nav.collapsed && (
          <div
            aria-hidden
            onMouseEnter={nav.startReveal}
            onMouseLeave={() => !nav.revealed && nav.endReveal()}
            style={{ position: 'fixed', left: 0, top: 0, bottom: 0, width: 12, zIndex: 30 }}
          />
        )}
        <div
          onMouseEnter={nav.startReveal}
          onMouseLeave={nav.endReveal}
          style={{
            position: 'fixed',
            left: 0,
            top: 0,
            zIndex: 40,
            transform: nav.collapsed && !nav.revealed ? `translateX(-100%)` : 'translateX(0)',
            boxShadow: nav.revealed ? token.boxShadowSecondary : 'none',
            transition,
          }}
        >
          <MainNav onCollapse={nav.toggle} onHelp={onboarding.show} />
        </div>
      </div>
      <div
        data-testid="page-scroller"
        style={{ flex: 1, minWidth: 0, height: '100%', overflow: 'auto' }}
      >
        <PageHeaderLeadContext.Provider value={expand}>
          <PageHeaderEndContext.Provider value={<ActivitiesBell />}>
            <Outlet />
          </PageHeaderEndContext.Provider>
        </PageHeaderLeadContext.Provider>
      </div>
      <GettingStartedDialog open={onboarding.open} onClose={onboarding.hide} />
    </div>
  );
}

/** A page inside the signed-in area failed: keep the navigation, show the fallback. */
export function SignedInErrorPage() {
  const error = useRouteError();
  return (
    <div style={{ padding: 48 }}>
      <ErrorFallback title={commonStrings.internalError} error={error} status="500" />
    </div>
  );
}
