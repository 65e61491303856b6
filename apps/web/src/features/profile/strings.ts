// User-facing strings of the profile menu and password change (docs/product.md, Shell §2, §5, §8).
export const profileStrings = {
  profile: 'Profile',
  company: 'Company',
  companyCopyHint: 'Click to copy',
  copied: 'Copied!',
  theme: 'Theme',
  version: (version: string) => `Version ${version}`,
  newVersion: (version: string) => `New version ${version} available`,
  changelog: 'What’s new',
  upgradeInstructions: 'Upgrade instructions',
  changePassword: 'Change Password',
  changePasswordExternal: (provider: string) =>
    `Your password is managed by ${provider}. Change it there.`,
  logOut: 'Log out',
  logoutFailed: (detail: string) => `Logout failed: ${detail}`,
  currentPassword: 'Current Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
  revokeApiKeys: 'Also revoke my API keys',
  revokeApiKeysHelp:
    'Scripts and machines using them stop working at once; the Development key is replaced by a new one.',
  save: 'Change Password',
  cancel: 'Cancel',
  passwordChanged: 'Password changed successfully!',
  passwordChangeFailed: (detail: string) => `Password change failed: ${detail}.`,
} as const;
