// Which user-management controls the signed-in user may use, and why not (docs/product.md, Shell §6).
import { isAdmin, type User } from '@loupe/contracts';
import { settingsStrings } from '../strings';

const strings = settingsStrings.users;

export type Reason = string | null;

export function inviteDenied(me: User | undefined): Reason {
  return isAdmin(me) ? null : strings.noPermissionInvite;
}

export function editDenied(me: User | undefined, target: User): Reason {
  if (!isAdmin(me)) return strings.noPermissionEdit;
  if (!target.enabled) return strings.userDisabled;
  return null;
}

export function resetLinkDenied(me: User | undefined, target: User): Reason {
  if (!isAdmin(me)) return strings.noPermissionReset;
  if (!target.enabled) return strings.userDisabled;
  return null;
}

export function toggleEnabledDenied(me: User | undefined, target: User): Reason {
  if (!isAdmin(me)) return strings.noPermissionEdit;
  if (me && me.id === target.id) return strings.cannotDisableSelf;
  return null;
}

/** The last enabled admin keeps the admin role. */
export function roleChangeDenied(users: readonly User[], target: User): Reason {
  const enabledAdmins = users.filter((user) => isAdmin(user));
  if (isAdmin(target) && enabledAdmins.length <= 1) return strings.lastAdmin;
  return null;
}

/** Case-insensitive match on name or email. */
export function matchesSearch(user: User, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return user.name.toLowerCase().includes(needle) || user.email.toLowerCase().includes(needle);
}
