// What the map area shows (docs/product.md, Datasets §4, §9), in the order the states win: a
// spinner while settings or points load, the settings' failure, no features, a failed
// computation (its status, no feature chosen, or a 424), the points' failure, the computing
// progress, a lost WebGL context, else the map.
import { ApiError } from '../../api/ApiError';

export type MapStatus =
  | 'loading'
  | 'settingsFailed'
  | 'noFeatures'
  | 'computeFailed'
  | 'pointsFailed'
  | 'computing'
  | 'webglLost'
  | 'map'
  | 'none';

export interface MapStatusInput {
  settingsPending: boolean;
  settingsFailed: boolean;
  hasFeatures: boolean;
  featureName: string | null;
  pointsPending: boolean;
  pointsFailed: boolean;
  pointsError: unknown;
  /** The points answer's status, when there is one. */
  pointsStatus: 'computing' | 'ready' | 'failed' | undefined;
  contextLost: boolean;
  hasPoints: boolean;
}

export function mapStatus(input: MapStatusInput): MapStatus {
  const wantsPoints = input.hasFeatures && input.featureName !== null;
  if (input.settingsPending || (input.pointsPending && wantsPoints)) return 'loading';
  if (input.settingsFailed) return 'settingsFailed';
  if (!input.hasFeatures) return 'noFeatures';
  // A failed dependency (424) is the computation failing, not the page.
  const dependencyFailed =
    input.pointsError instanceof ApiError && input.pointsError.status === 424;
  if (input.pointsStatus === 'failed' || input.featureName === null || dependencyFailed) {
    return 'computeFailed';
  }
  if (input.pointsFailed) return 'pointsFailed';
  if (input.pointsStatus === 'computing') return 'computing';
  if (input.contextLost) return 'webglLost';
  return input.hasPoints ? 'map' : 'none';
}
