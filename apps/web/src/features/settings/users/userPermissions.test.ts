import { expect, test } from 'vitest';
import { adminUser, memberUser } from '../../../test/fakeServer';
import {
  editDenied,
  inviteDenied,
  matchesSearch,
  resetLinkDenied,
  roleChangeDenied,
  toggleEnabledDenied,
} from './userPermissions';

const disabledMember = { ...memberUser, enabled: false };
const disabledAdmin = { ...adminUser, id: 'a2', enabled: false };

test('members see every user-management control refused with its reason', () => {
  expect(inviteDenied(memberUser)).toBe('You do not have permission to invite users');
  expect(editDenied(memberUser, adminUser)).toBe('You do not have permission to edit users');
  expect(resetLinkDenied(memberUser, adminUser)).toBe(
    "You do not have permission to reset users' passwords",
  );
  expect(toggleEnabledDenied(memberUser, adminUser)).toBe(
    'You do not have permission to edit users',
  );
});

test('admin rights need an enabled admin', () => {
  expect(inviteDenied(adminUser)).toBeNull();
  expect(inviteDenied(disabledAdmin)).toBe('You do not have permission to invite users');
});

test('only enabled users can be edited or given a reset link', () => {
  expect(editDenied(adminUser, memberUser)).toBeNull();
  expect(resetLinkDenied(adminUser, memberUser)).toBeNull();
  expect(editDenied(adminUser, disabledMember)).toBe('This user is disabled');
  expect(resetLinkDenied(adminUser, disabledMember)).toBe('This user is disabled');
  expect(toggleEnabledDenied(adminUser, disabledMember)).toBeNull();
});

test('an admin cannot disable themself', () => {
  expect(toggleEnabledDenied(adminUser, adminUser)).toBe('You cannot disable yourself as a user');
});

test('the last enabled admin keeps the role', () => {
  expect(roleChangeDenied([adminUser, memberUser, disabledAdmin], adminUser)).toBe(
    'Cannot change role. This is the last remaining administrator.',
  );
  expect(roleChangeDenied([adminUser, { ...memberUser, role: 'admin' }], adminUser)).toBeNull();
  expect(roleChangeDenied([adminUser, memberUser], memberUser)).toBeNull();
});

test('search matches name or email, ignoring case', () => {
  expect(matchesSearch(memberUser, 'BEN')).toBe(true);
  expect(matchesSearch(memberUser, 'Acme.TEST')).toBe(true);
  expect(matchesSearch(memberUser, 'cleo')).toBe(false);
  expect(matchesSearch(memberUser, '  ')).toBe(true);
});
