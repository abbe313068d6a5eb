// Every route the spec lists that is mounted but not built yet lives in this folder, one file
// per domain. Each is a real procedure (auth level, input schema, output schema, REST path)
// whose body is notImplemented(): it answers 501 `not_implemented` only after auth and
// validation pass. A milestone builds a route by moving it from here into its domain router;
// nothing else needs editing. Routes here carry `unbuilt: true` in their meta, which the
// OpenAPI document shows as `x-unbuilt` and the conformance tests read.
//
// This file is the one list of them: a namespace per domain, spread into the app router.
import { router } from '../../trpc/init.js';
import { accountExtrasProcedures } from './account-extras.js';
import { actionsProcedures } from './actions.js';
import { adminContentProcedures } from './admin-content.js';
import { companionProcedures } from './companion.js';
import { guidesProcedures } from './guides.js';
import { mediaProcedures } from './media.js';
import { messagingProcedures } from './messaging.js';
import { placeExtrasProcedures } from './places-extras.js';
import { socialSignInProcedures } from './social-sign-in.js';
import { socialProcedures } from './social.js';
import { uploadsProcedures } from './uploads.js';

export const unbuiltNamespaces = {
  socialSignIn: router(socialSignInProcedures),
  accountExtras: router(accountExtrasProcedures),
  placeExtras: router(placeExtrasProcedures),
  social: router(socialProcedures),
  uploads: router(uploadsProcedures),
  messaging: router(messagingProcedures),
  media: router(mediaProcedures),
  guides: router(guidesProcedures),
  actions: router(actionsProcedures),
  companion: router(companionProcedures),
  adminContent: router(adminContentProcedures),
};
