// What the app shell may use of the auth feature: the sign-in and reset-password pages.
export { LoginPage } from './LoginPage';
export { ResetPasswordPage } from './ResetPasswordPage';
