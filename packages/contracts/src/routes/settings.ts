// Settings: the Development API key, the license, and the SDK's addresses.
import { License, LicenseSubmitRequest } from '../license.js';
import { DevelopmentApiKey, Tokens } from '../settings.js';
import { defineRoute } from './define.js';

export const settings = {
  developmentKey: defineRoute({
    method: 'GET',
    path: '/api/settings/key',
    responses: { 200: DevelopmentApiKey },
    errors: [401],
    auth: 'user',
    license: false,
    summary: "The signed-in user's 'Development' API key (created on first read)",
    tags: ['settings'],
  }),
  license: defineRoute({
    method: 'GET',
    path: '/api/settings/license',
    responses: { 200: License },
    errors: [401],
    auth: 'user',
    license: false,
    summary: 'The instance license',
    tags: ['license'],
  }),
  submitLicense: defineRoute({
    method: 'POST',
    path: '/api/settings/license',
    body: LicenseSubmitRequest,
    responses: { 200: License },
    errors: [400, 401, 403, 409],
    auth: 'admin',
    license: false,
    summary: 'Submit the first license key (admins)',
    tags: ['license'],
  }),
  replaceLicense: defineRoute({
    method: 'PUT',
    path: '/api/settings/license',
    body: LicenseSubmitRequest,
    responses: { 200: License },
    errors: [400, 401, 403, 409],
    auth: 'admin',
    license: false,
    summary: 'Replace the license key (admins)',
    tags: ['license'],
  }),
  tokens: defineRoute({
    method: 'GET',
    path: '/api/settings/tokens',
    responses: { 200: Tokens },
    errors: [401],
    auth: 'user',
    license: false,
    summary: 'Tokens and addresses for the SDK',
    tags: ['settings'],
  }),
};
