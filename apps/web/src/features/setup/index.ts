// What the app shell may use of the setup feature: the setup wizard.
export { SetupPage } from './SetupPage';
