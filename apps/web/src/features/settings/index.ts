// What the app shell may use of the settings feature: its routes and the license wording the
// navigation's license tag shares with the License page.
export { settingsRoutes } from './routes';
export { evaluationTag, formatLicenseDate } from './license/licenseMessages';
