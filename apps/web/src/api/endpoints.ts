// Every shell call of docs/product.md, Shell §7, typed by the contracts.
import type {
  ApiKeyList,
  AppState,
  ChangePasswordRequest,
  CreateApiKeyRequest,
  CreatedApiKey,
  CreateUserRequest,
  Dataset,
  DevelopmentApiKey,
  License,
  LicenseSubmitRequest,
  Ok,
  PredictionSet,
  ResetPasswordRequest,
  ResetPasswordToken,
  SessionResponse,
  SetupRequest,
  LoginRequest,
  Tokens,
  UpdateUserRequest,
  User,
} from '@loupe/contracts';
import { http } from './client';

export const api = {
  getAppState: (signal?: AbortSignal) => http.get<AppState>('/api/state', { signal }),
  setup: (body: SetupRequest) => http.post<SessionResponse>('/api/setup', body),
  login: (body: LoginRequest) => http.post<SessionResponse>('/api/login', body),
  logout: () => http.post<Ok>('/api/logout'),
  changePassword: (body: ChangePasswordRequest) => http.put<Ok>('/api/profile/password', body),
  resetPassword: (body: ResetPasswordRequest) => http.put<Ok>('/api/reset-password', body),
  getUsers: (signal?: AbortSignal) => http.get<User[]>('/api/users', { signal }),
  createUser: (body: CreateUserRequest) => http.post<User>('/api/users', body),
  updateUser: (id: string, body: UpdateUserRequest) =>
    http.put<User>(`/api/users/${encodeURIComponent(id)}`, body),
  createResetPasswordToken: (id: string) =>
    http.post<ResetPasswordToken>(`/api/users/${encodeURIComponent(id)}/reset-password-token`, {}),
  getApiKey: (signal?: AbortSignal) => http.get<DevelopmentApiKey>('/api/settings/key', { signal }),
  getApiKeys: (signal?: AbortSignal) => http.get<ApiKeyList>('/api/api_keys', { signal }),
  createApiKey: (body: CreateApiKeyRequest) => http.post<CreatedApiKey>('/api/api_keys', body),
  revokeApiKey: (id: string) => http.delete<Ok>(`/api/api_keys/${encodeURIComponent(id)}`),
  rotateApiKey: (id: string) =>
    http.post<CreatedApiKey>(`/api/api_keys/${encodeURIComponent(id)}/rotate`, {}),
  getLicense: (signal?: AbortSignal) => http.get<License>('/api/settings/license', { signal }),
  submitLicense: (body: LicenseSubmitRequest) => http.post<License>('/api/settings/license', body),
  resubmitLicense: (body: LicenseSubmitRequest) => http.put<License>('/api/settings/license', body),
  getTokens: (signal?: AbortSignal) => http.get<Tokens>('/api/settings/tokens', { signal }),
  getDatasets: (signal?: AbortSignal) => http.get<Dataset[]>('/api/datasets', { signal }),
  getModels: (signal?: AbortSignal) => http.get<PredictionSet[]>('/api/models', { signal }),
  getDatasetModels: (datasetId: string, signal?: AbortSignal) =>
    http.get<PredictionSet[]>('/api/dataset/models', { query: { dataset_id: datasetId }, signal }),
};
