// User-facing strings of sign-in and password reset (docs/product.md, Shell §1, §2, §8).
export const authStrings = {
  loginTitle: 'Login',
  emailLabel: 'Email address',
  emailPlaceholder: 'jane.doe@example.com',
  passwordLabel: 'Password',
  passwordPlaceholder: '********',
  rememberMe: 'Remember me',
  loginButton: 'Login',
  loginWith: (provider: string) => `Login with ${provider}`,
  incorrectCredentials: 'Incorrect email or password',
  splashHeadline: 'AI Results You Can Trust',
  splashLine:
    'Loupe helps teams make AI applications performant, trustworthy and compliant in production.',
  splashSubtitle: 'Get your model and data fixed!',
  roles: [
    { role: 'AI Lead', quote: 'Every release comes with evidence of how the model behaves.' },
    { role: 'MLE', quote: 'I find the slices and labels that break my model in minutes.' },
    { role: 'CEO', quote: 'We know our AI is ready before our customers do.' },
  ],
  resetTitle: 'Set a new password',
  resetIntro: 'Choose a new password for your Loupe account.',
  resetNoToken:
    'This page needs the link your administrator sent you. Ask them for a new password reset link.',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  revokeApiKeys: "Revoke this account's API keys",
  revokeApiKeysHelp:
    'Recommended if someone else may have them. Scripts using them stop working at once.',
  resetButton: 'Set password',
  resetSuccessToast: 'Password was successfuly updated',
  resetSuccessView: 'Password was successfully updated!',
  resetFailed: 'Reset password failed',
  goToLogin: 'Go To Login',
} as const;
