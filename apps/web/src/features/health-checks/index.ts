// What the app shell and other features may use of the health-checks feature: its two pages.
export { HealthCheckPage } from './HealthCheckPage';
export { HealthChecksPage } from './HealthChecksPage';
