// What Fedify hands every dispatcher and listener ("context data"), in a file of its own so the
// dispatchers and the runtime that registers them do not import each other.
import type { AppDeps } from '../../service/context.js';

export interface FederationData {
  deps: AppDeps;
}
